"""The store's part of DESIGN 4 on both backends (the contract suite's fixtures): a seat's invitation is
retired, its token hash stored and its event appended in one transaction; a refused or raced claim or
rotation changes nothing; of two claims at once (two store instances: two nodes) exactly one wins."""
from __future__ import annotations

import threading

import msgspec
import pytest

from domain.kernel.dice import commitment
from service.store import SeatRefused, NewEvent, VersionConflict, token_hash
from tests.service.store_backends import backend, raw, store, target  # noqa: F401  (both backends)

SEED = bytes(range(32))


def make_game(store, game_id: str = "g1") -> None:
    store.create_game(game_id=game_id, ruleset="test", scenario="s", setup="{}", seed=SEED,
                      seed_commitment=commitment(SEED), token_hashes={"imperial": token_hash(f"{game_id}-i")},
                      invitation_hashes={"rebel": token_hash(f"{game_id}-invite")},
                      events=[ev("game_created")])


def ev(kind: str, seat: str | None = None) -> NewEvent:
    return NewEvent(type=kind, payload=msgspec.json.encode({"type": kind, "seat": seat}).decode(), actor=seat)


def test_a_claim_retires_the_invitation_with_its_event_and_a_second_is_refused(store):
    make_game(store)
    assert store.invited_seats("g1") == ["rebel"]
    with pytest.raises(SeatRefused) as refused:
        store.claim_seat("g1", "rebel", token_hash("a guess"), token_hash("t1"), 1, [ev("seat_claimed", "rebel")])
    assert refused.value.reason == "wrong"
    with pytest.raises(VersionConflict):  # a stale version: the invitation stays open
        store.claim_seat("g1", "rebel", token_hash("g1-invite"), token_hash("t1"), 0, [ev("seat_claimed", "rebel")])
    assert store.invited_seats("g1") == ["rebel"] and store.version("g1") == 1
    assert store.seat_for_token("g1", "t1") is None
    res = store.claim_seat("g1", "rebel", token_hash("g1-invite"), token_hash("t1"), 1, [ev("seat_claimed", "rebel")])
    assert res.version == 2 and [e.type for e in store.load("g1")] == ["game_created", "seat_claimed"]
    assert store.seat_for_token("g1", "t1") == "rebel" and store.invited_seats("g1") == []
    with pytest.raises(SeatRefused) as again:
        store.claim_seat("g1", "rebel", token_hash("g1-invite"), token_hash("t2"), 2, [ev("seat_claimed", "rebel")])
    assert again.value.reason == "claimed" and store.seat_for_token("g1", "t2") is None and store.version("g1") == 2


def test_two_claims_on_two_store_instances_exactly_one_wins(store, target):
    other = target.open()
    try:
        for n in range(5):
            gid = f"race{n}"
            make_game(store, gid)
            start = threading.Barrier(2)
            out: dict[str, object] = {}

            def claim(s, name: str) -> None:
                start.wait()
                try:
                    out[name] = s.claim_seat(gid, "rebel", token_hash(f"{gid}-invite"), token_hash(f"{gid}-{name}"),
                                             1, [ev("seat_claimed", "rebel")])
                except (SeatRefused, VersionConflict) as exc:
                    out[name] = exc

            threads = [threading.Thread(target=claim, args=(s, name)) for s, name in ((store, "a"), (other, "b"))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            won = [k for k, v in out.items() if not isinstance(v, Exception)]
            assert len(won) == 1, out
            assert store.seat_for_token(gid, f"{gid}-{won[0]}") == "rebel"
            lost = "b" if won == ["a"] else "a"
            assert store.seat_for_token(gid, f"{gid}-{lost}") is None
            assert [e.type for e in store.load(gid)].count("seat_claimed") == 1
    finally:
        other.close()


def test_a_rotation_needs_the_current_token_and_kills_the_old_one(store):
    make_game(store)
    with pytest.raises(SeatRefused) as refused:
        store.rotate_seat("g1", "imperial", token_hash("not it"), token_hash("new"), 1, [ev("seat_rotated", "imperial")])
    assert refused.value.reason == "not-holder" and store.seat_for_token("g1", "new") is None
    with pytest.raises(VersionConflict):
        store.rotate_seat("g1", "imperial", token_hash("g1-i"), token_hash("new"), 0, [ev("seat_rotated", "imperial")])
    assert store.seat_for_token("g1", "g1-i") == "imperial"  # nothing changed
    store.rotate_seat("g1", "imperial", token_hash("g1-i"), token_hash("new"), 1, [ev("seat_rotated", "imperial")])
    assert store.seat_for_token("g1", "g1-i") is None and store.seat_for_token("g1", "new") == "imperial"
    assert store.version("g1") == 2
