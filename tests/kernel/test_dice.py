"""Dice (DESIGN section 3): uniform, reproducible, independent streams, verifiable."""
import hashlib

from domain.kernel import Dice, advance, commitment, draw, replay_shuffle, verify_roll
from domain.kernel.dice import check_commitment, counters_after

SEED = bytes(range(32))


def chi_square(counts, expected):
    return sum((c - expected) ** 2 / expected for c in counts)


def test_each_face_uniform_chi_square_60000_rolls():
    dice = Dice(SEED, "g-chi")
    n = 60_000
    counts = [0] * 6
    for _ in range(n):
        counts[dice.value(6)] += 1
    # 5 degrees of freedom: the 0.999 quantile is 20.515.
    assert chi_square(counts, n / 6) < 20.515, counts


def test_same_seed_same_faces_and_other_stream_independent():
    a = [Dice(SEED, "g1").value(6) for _ in range(1)]
    d1, d2, d3 = Dice(SEED, "g1"), Dice(SEED, "g1"), Dice(SEED, "g1")
    s1 = [d1.value(6) for _ in range(200)]
    s2 = [d2.value(6) for _ in range(200)]
    s3 = [d3.value(6, stream="automaton") for _ in range(200)]
    assert s1 == s2
    assert a[0] == s1[0]
    assert s1 != s3
    # independence: agreement rate of two streams close to 1/6
    same = sum(x == y for x, y in zip(s1, s3))
    assert 10 <= same <= 60


def test_commitment_verifies_and_wrong_seed_fails():
    c = commitment(SEED)
    assert c == hashlib.sha256(SEED).hexdigest()
    assert check_commitment(SEED, c)
    assert not check_commitment(bytes(32), c)


def test_recorded_rolls_verify_only_with_the_right_seed():
    dice = Dice(SEED, "g2")
    dice.faces("ABCDEF", 10)
    rolls = dice.take()
    assert len(rolls) == 10 and [r.index for r in rolls] == list(range(10))
    assert all(verify_roll(SEED, "g2", r) for r in rolls)
    assert not all(verify_roll(bytes(32), "g2", r) for r in rolls)


def test_shuffle_is_a_permutation_replayable_from_its_rolls():
    dice = Dice(SEED, "g3")
    items = list(range(20))
    out = dice.shuffle(items)
    rolls = dice.take()
    assert sorted(out) == items and out != items
    assert replay_shuffle(items, rolls) == out


def test_counters_continue_never_rewind():
    d = Dice(SEED, "g4", counters={"dice": 5})
    v = d.value(6)
    assert d.take()[0].index == 5
    assert v == draw(SEED, "g4", "dice", 5, 6)


# -- added with the foundation: seed parsing, verifier edge cases ------------

import pytest  # noqa: E402
from hypothesis import given, settings, strategies as st  # noqa: E402

from domain.kernel import Roll  # noqa: E402
from domain.kernel.dice import seed_from_hex  # noqa: E402


def test_seed_from_hex_accepts_only_64_lowercase_hex():
    assert seed_from_hex(SEED.hex()) == SEED
    for bad in (
        SEED.hex().upper(),                      # uppercase
        SEED.hex()[:62],                         # 31 bytes
        SEED.hex()[:62] + "  ",                  # 64 chars but whitespace (bytes.fromhex would skip it)
        SEED.hex()[:60] + " 0 0",
        SEED.hex()[:63] + "g",
        SEED.hex() + "00",
    ):
        with pytest.raises(ValueError, match="64 lowercase hex"):
            seed_from_hex(bad)


def test_verifier_rejects_rolls_that_could_not_have_been_drawn():
    good = Roll(stream="dice", index=0, sides=6, value=draw(SEED, "g", "dice", 0, 6))
    assert verify_roll(SEED, "g", good)
    assert not verify_roll(SEED, "g", Roll(stream="dice", index=0, sides=6, value=good.value + 6))
    assert not verify_roll(SEED, "g", Roll(stream="dice", index=-1, sides=6, value=0))
    assert not verify_roll(SEED, "g", Roll(stream="dice", index=0, sides=0, value=0))


def test_the_game_id_is_part_of_the_stream():
    a = [draw(SEED, "game-a", "dice", i, 6) for i in range(200)]
    b = [draw(SEED, "game-b", "dice", i, 6) for i in range(200)]
    assert a != b
    assert 10 <= sum(x == y for x, y in zip(a, b)) <= 60


def test_draw_refuses_impossible_requests():
    with pytest.raises(ValueError):
        draw(SEED, "g", "dice", 0, 0)
    with pytest.raises(ValueError):
        draw(SEED, "g", "dice", -1, 6)
    assert draw(SEED, "g", "dice", 0, 1) == 0


def test_replay_shuffle_refuses_rolls_that_do_not_fit():
    dice = Dice(SEED, "g5")
    dice.shuffle(list(range(5)))
    rolls = dice.take()
    with pytest.raises(ValueError):
        replay_shuffle(list(range(6)), rolls)
    with pytest.raises(ValueError):
        replay_shuffle(list(range(5)), rolls[1:] + rolls[:1])


@settings(max_examples=200, deadline=None)
@given(sides=st.integers(1, 1000), index=st.integers(0, 10**9), stream=st.sampled_from(["dice", "shuffle", "automaton"]))
def test_every_draw_is_in_range_and_reproducible(sides, index, stream):
    v = draw(SEED, "gp", stream, index, sides)
    assert 0 <= v < sides
    assert verify_roll(SEED, "gp", Roll(stream=stream, index=index, sides=sides, value=v))


def test_client_seeds_enter_the_label_and_change_every_draw():
    from domain.kernel.dice import client_mix, label

    mix = client_mix(("north", "south"), {"south": "b", "north": "a"})
    assert mix == "north=a,south=b"  # the seats' setup order, whatever the order they became ready in
    assert client_mix(("north", "south"), {"north": None}) == "north=,south="
    assert label("g", "dice", 3) == "g|dice|3" and label("g", "dice", 3, mix) == "g|north=a,south=b|dice|3"
    plain = [draw(SEED, "g", "dice", i, 6) for i in range(100)]
    mixed = [draw(SEED, "g", "dice", i, 6, mix) for i in range(100)]
    assert plain != mixed and mixed == [draw(SEED, "g", "dice", i, 6, mix) for i in range(100)]
    d = Dice(SEED, "g", mix=mix)
    assert [d.value(6) for _ in range(100)] == mixed
    assert all(verify_roll(SEED, "g", r, mix) for r in d.take())


def test_every_index_of_every_stream_once_and_in_order():
    from domain.kernel.dice import Roll, check_sequence

    def r(stream, index):
        return Roll(stream=stream, index=index, sides=6, value=0)

    assert check_sequence([r("dice", 0), r("shuffle", 0), r("dice", 1), r("shuffle", 1)]) is None
    assert "used again" in check_sequence([r("dice", 0), r("dice", 1), r("dice", 1)])
    assert "skipped" in check_sequence([r("dice", 0), r("dice", 2)])
    assert "next index" in check_sequence([r("dice", 1)])


def test_counters_after_a_stream_are_the_counters_record_by_record():
    """``counters_after`` (a campaign's fold, a re-decided step) gives the counters that advancing record by
    record gives: each stream one past its highest recorded draw, never backwards, whatever the order."""
    dice = Dice(SEED, "g-count")
    records = []
    for n in (3, 0, 2, 5):
        dice.value(6)
        for _ in range(n):
            dice.value(6, stream="support")
        records.append(dice.take())
    stepwise: dict[str, int] = {}
    for rolls in records:
        stepwise = advance(stepwise, rolls)
    assert counters_after(records) == stepwise == {"dice": 4, "support": 10}
    assert counters_after(reversed(records)) == stepwise  # a counter never goes backwards
    assert counters_after([]) == {}
