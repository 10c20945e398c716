"""Verification (DESIGN sections 2, 3, 8): any edit of the stored log is found at its
first broken seq; once finished, the seed matches its commitment and every die is honest."""
from __future__ import annotations

import sqlite3

import msgspec
import pytest

from domain.kernel.dice import GAME_DICE, Dice, Roll, commitment
from service.store import EventStore, NewEvent, UnknownGame
from service.verify import verify_game

from .raw_games import create_raw_game

SEED = bytes(range(32))
_enc = msgspec.json.Encoder()


def play(store: EventStore, game_id: str = "g", commands: int = 5, finish: bool = False,
         seed: bytes = SEED) -> None:
    """The header (seq 1), then commands of two events each; the first event of each rolls 3 dice."""
    v = create_raw_game(store, game_id, seed=seed, seats=("imperial", "rebel"))
    dice = Dice(seed, game_id)
    for k in range(commands):
        faces = [dice.value(6) for _ in range(3)]
        rolls = dice.take()
        last = finish and k == commands - 1
        evs = [
            NewEvent(type="Attacked", payload=_enc.encode({"k": k, "faces": faces}).decode(),
                     actor="imperial", rolls=_enc.encode(rolls).decode(), reveals=True),
            NewEvent(type="GameEnded" if last else "Moved", payload=_enc.encode({"k": k}).decode(), actor="imperial"),
        ]
        v = store.append(game_id, v, evs, command_id=f"c{k}",
                         status="finished" if last else None, winner="imperial" if last else None).version


def sql(store: EventStore, statement: str, *args) -> None:
    conn = sqlite3.connect(store.path)
    conn.execute(statement, args)
    conn.commit()
    conn.close()


def test_untouched_unfinished_game_verifies_without_revealing_the_seed(store):
    play(store)
    r = verify_game(store, "g")
    assert r.chain_ok and r.ok and r.first_broken_seq is None and r.events == 11
    assert r.seed is None and r.dice_ok is None
    body = r.body()
    assert body["chain_ok"] is True and "seed" not in body and "dice_ok" not in body


def test_finished_game_reveals_seed_and_every_die_checks(store):
    play(store, finish=True)
    r = verify_game(store, "g")
    assert r.chain_ok and r.commitment_ok and r.dice_ok and r.ok
    assert r.seed == SEED.hex() and len(r.seed) == 64 and r.seed == r.seed.lower()
    assert r.rolls_checked == 15
    body = r.body()
    assert (body["chain_ok"], body["seed"], body["dice_ok"]) == (True, SEED.hex(), True)


def tamper_payload_byte(store):
    row = sqlite3.connect(store.path).execute("SELECT payload FROM events WHERE seq=4").fetchone()[0]
    sql(store, "UPDATE events SET payload=? WHERE game_id='g' AND seq=4", row.replace('"k":1', '"k":7'))


def tamper_type(store):
    sql(store, "UPDATE events SET type='Retreated' WHERE game_id='g' AND seq=4")


def tamper_swap_order(store):
    # swap seq 4 and 5 (through a free number: the UNIQUE constraint holds meanwhile)
    conn = sqlite3.connect(store.path)
    conn.execute("UPDATE events SET seq=1000 WHERE game_id='g' AND seq=4")
    conn.execute("UPDATE events SET seq=4 WHERE game_id='g' AND seq=5")
    conn.execute("UPDATE events SET seq=5 WHERE game_id='g' AND seq=1000")
    conn.commit()
    conn.close()


def tamper_delete(store):
    sql(store, "DELETE FROM events WHERE game_id='g' AND seq=4")


def tamper_actor(store):
    sql(store, "UPDATE events SET actor='rebel' WHERE game_id='g' AND seq=4")


def tamper_rehash_one(store):
    """Edit seq 4 and recompute its own hash (chain version 2: public part and its commitment as
    stored): the link from seq 5 still breaks... at 5."""
    from domain.kernel import chain

    conn = sqlite3.connect(store.path)
    s = EventStore(store.data_dir)
    e = s.event("g", 4)
    d = msgspec.structs.asdict(e)
    d["payload"] = '{"k":42}'
    conn.execute("UPDATE events SET payload=?, hash=? WHERE game_id='g' AND seq=4",
                 (d["payload"], chain.row_hash(e.prev_hash, d, chain.CHAIN_V2)))
    conn.commit()
    conn.close()
    s.close()


@pytest.mark.parametrize(
    "tamper, first_broken",
    [
        (tamper_payload_byte, 4),
        (tamper_type, 4),
        (tamper_actor, 4),
        (tamper_swap_order, 4),
        (tamper_delete, 4),
        (tamper_rehash_one, 5),
    ],
    ids=["payload-byte", "type", "actor", "swap-order", "delete", "rehash-one"],
)
def test_any_edit_is_found_at_the_first_broken_seq(store, tamper, first_broken):
    play(store)
    assert verify_game(store, "g").chain_ok
    tamper(store)
    r = verify_game(store, "g")
    assert not r.chain_ok and not r.ok
    assert r.first_broken_seq == first_broken, r.problem
    assert r.problem
    assert r.body()["first_broken_seq"] == first_broken


def test_a_truncated_tail_is_found_against_the_game_version(store):
    play(store)
    sql(store, "DELETE FROM events WHERE game_id='g' AND seq >= 9")
    r = verify_game(store, "g")
    assert not r.chain_ok and r.first_broken_seq == 9


def test_a_wrong_recorded_die_is_found_at_its_seq(store):
    """The chain is intact (the wrong face was recorded at append time) but the dice check catches it."""
    play(store, commands=3)
    dice = Dice(SEED, "g", counters={GAME_DICE: 9})
    dice.value(6)
    good = dice.take()[0]
    bad = Roll(stream=good.stream, index=good.index, sides=6, value=(good.value + 1) % 6)
    store.append("g", 7, [NewEvent(type="Attacked", payload="{}", rolls=_enc.encode([bad]).decode())])
    store.append("g", 8, [NewEvent(type="GameEnded", payload="{}")], status="finished")
    r = verify_game(store, "g")
    assert r.chain_ok and r.commitment_ok
    assert r.dice_ok is False and r.first_bad_roll_seq == 8 and not r.ok
    assert "recorded" in r.dice_problem
    assert r.body()["dice_ok"] is False


def test_a_swapped_secret_seed_fails_the_commitment(store):
    play(store, finish=True)
    sql(store, "UPDATE secrets SET seed=? WHERE game_id='g'", bytes(32).hex())
    r = verify_game(store, "g")
    # chain version 2: the events' commitments were keyed with the real seed, so they fail too
    assert not r.chain_ok and r.commitment_ok is False and r.dice_ok is False and not r.ok
    assert r.commitments_ok is False


def test_garbage_in_the_rolls_column_is_reported_not_raised(store):
    play(store, commands=2, finish=True)
    sql(store, "UPDATE events SET rolls='not json' WHERE game_id='g' AND seq=4")
    r = verify_game(store, "g")
    assert not r.chain_ok and r.first_broken_seq == 4
    assert r.dice_ok is False and r.first_bad_roll_seq == 4


def test_unknown_game(store):
    with pytest.raises(UnknownGame):
        verify_game(store, "nope")
