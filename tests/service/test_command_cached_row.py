"""A command decided on the game as this process last wrote it (service/game_commands.py ``command_steps``):
no read of the game's row when the request expects the version this process wrote, and, when another
process appended meanwhile (a command, a seat rotation), the answer a fresh read gives -- the append's own
check of the version is the guard. Two services over one SQLite file stand for two processes."""
from __future__ import annotations

import pytest

from service.game_service import CommandRequest, CreateGameRequest, GameService
from service.problems import Problem
from service.seat_claims import rotate
from service.store import EventStore

from .api_client import SEED
from .counting_store import CountingStore
from .toy_ruleset import register


@pytest.fixture
def two(tmp_path):
    register()
    a = GameService(CountingStore(tmp_path))
    b = GameService(EventStore(tmp_path))
    g = a.create_game(CreateGameRequest(ruleset="toy", scenario="duel", seed=SEED))
    yield a, b, g["game_id"], g["seats"], g["version"]
    a.store.close()
    b.store.close()


def _cmd(svc: GameService, gid: str, token: str, kind: str, version: int):
    return svc.command(gid, token, CommandRequest(command={"type": kind}, expected_version=version))


def _row_reads(store: CountingStore) -> int:
    return sum(1 for s in store.statements if "FROM games g" in s and "JOIN" not in s)


def test_a_command_after_this_processs_own_reads_no_game_row(two):
    a, _b, gid, seats, v = two
    v = _cmd(a, gid, seats["north"], "step", v).body["version"]
    before = _row_reads(a.store)
    answer = _cmd(a, gid, seats["north"], "end_turn", v)
    assert answer.status == 201 and answer.body["version"] == v + 1
    assert _row_reads(a.store) == before
    assert a.store.version(gid) == v + 1


def test_another_processs_command_makes_the_stale_request_a_409_and_stores_nothing(two):
    a, b, gid, seats, v = two
    v = _cmd(a, gid, seats["north"], "step", v).body["version"]
    v_b = _cmd(b, gid, seats["north"], "step", v).body["version"]  # the other process appends
    with pytest.raises(Problem) as exc:
        _cmd(a, gid, seats["north"], "end_turn", v)  # the version this process wrote last: stale now
    assert exc.value.status == 409
    assert exc.value.extra["current_version"] == v_b
    assert a.store.version(gid) == v_b
    # with the store's version it is taken, on the fold of the other process's command
    answer = _cmd(a, gid, seats["north"], "end_turn", v_b)
    assert answer.status == 201 and answer.body["version"] == v_b + 1


def test_a_token_rotated_by_another_process_is_refused_as_a_fresh_read_refuses_it(two):
    a, b, gid, seats, v = two
    v = _cmd(a, gid, seats["north"], "step", v).body["version"]
    rotate(b, gid, "north", seats["north"])  # the other process gives north a new token
    after = b.store.version(gid)
    with pytest.raises(Problem) as exc:
        _cmd(a, gid, seats["north"], "end_turn", v)  # the old token, and the version it knew
    assert exc.value.status == 401
    assert a.store.version(gid) == after


def test_a_refusal_on_the_games_own_version_is_answered_once_as_before(two):
    a, _b, gid, seats, v = two
    v = _cmd(a, gid, seats["north"], "step", v).body["version"]
    with pytest.raises(Problem) as exc:
        _cmd(a, gid, seats["south"], "step", v)  # north's turn
    assert exc.value.status == 403
    fresh = GameService(EventStore(a.store.data_dir))
    with pytest.raises(Problem) as again:
        _cmd(fresh, gid, seats["south"], "step", v)
    assert (again.value.status, again.value.extra.get("rule")) == (403, exc.value.extra.get("rule"))
    assert a.store.version(gid) == v
    fresh.store.close()


@pytest.mark.parametrize("found", ["before the append", "by the append"])
def test_a_rotated_out_token_is_not_answered_its_new_holders_first_answer(two, monkeypatch, found):
    """UMPIRE-SEAT-4: the old token replays the new holder's ``command_id`` (same command) with the version this
    process knew: an answer that stores nothing is not taken on the stale row (tests/fairness/
    test_rotated_token_on_a_stale_node_attack.py over HTTP). ``by the append``: the id stored between the
    lookup and the append (a race), found by the append's own transaction."""
    a, b, gid, seats, v = two
    v = _cmd(a, gid, seats["north"], "end_turn", v).body["version"]
    v = _cmd(a, gid, seats["south"], "step", v).body["version"]  # this process knows south's old token at v
    new = rotate(b, gid, "south", seats["south"])["token"]
    drew = b.command(gid, new, CommandRequest(command={"type": "draw"}, expected_version=v + 1, command_id="c-1"))
    card = next(e["payload"]["card"] for e in drew.body["events"] if e["type"] == "card_drawn")
    if found == "by the append":
        monkeypatch.setattr(a.store, "command_result", lambda *args, **kw: None)
    with pytest.raises(Problem) as exc:
        a.command(gid, seats["south"], CommandRequest(command={"type": "draw"}, expected_version=v, command_id="c-1"))
    assert exc.value.status == 401 and card not in str(exc.value.detail)
    monkeypatch.undo()
    # the new holder's retry is answered its first answer, on this process too
    again = a.command(gid, new, CommandRequest(command={"type": "draw"}, expected_version=v + 1, command_id="c-1"))
    assert again.status == 201 and again.body["events"] == drew.body["events"]
