"""Undo property (issue 10, DESIGN 5), through the real HTTP API on the toy ruleset: over random games
with random undo attempts (any ``to_version``, either seat) and random answers, no seat ever obtains
a second outcome for the same random draw without an accepted request.

The toy's once-a-turn draws are the roll (``rolled``) and the throw (``dice_thrown`` + ``throw_scored``,
two events of one command, like a Hoth attack). For each seat and turn, every outcome of such a draw
beyond the first must be covered by an accepted undo (``consented_by``) of a range that held one; every
undo lands on a command boundary; a free undo never took back anything that revealed something."""
from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from service.store import EventStore

from .toy_ruleset import register

DRAWS = ("rolled", "dice_thrown")


#: One move of a game, as plain numbers that the test body maps onto the live game: what to do (play, undo or
#: answer), which seat asks for the undo and how far back, the answer, and which legal command to play. The
#: drawn data never depends on the server's state (the game ids, hence the dice, differ from run to run), so
#: hypothesis can replay and shrink it.
MOVE = st.tuples(st.sampled_from(["play", "play", "play", "undo", "undo", "answer"]), st.integers(0, 1),
                 st.integers(0, 6), st.sampled_from(["undo_accept", "undo_decline"]), st.integers(0, 2**16 - 1))


def _run(data, tmp_path_factory) -> None:
    register()
    d = tmp_path_factory.mktemp("undo-prop")
    seed = data.draw(st.sampled_from(["0f" * 32, "a1" * 32, "5e" * 32]))
    moves = data.draw(st.lists(MOVE, min_size=5, max_size=28))
    with TestClient(create_app(Settings(data_dir=str(d)), read_models=None)) as c:
        g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": seed}).json()
        gid, tokens = g["game_id"], g["seats"]
        auth = {s: {"Authorization": f"Bearer {t}"} for s, t in tokens.items()}
        boundaries = {g["version"]}
        for kind, asker, back, answer, pick in moves:
            view = c.get(f"/games/{gid}").json()
            if view["status"] == "finished":
                break
            version = view["version"]
            if kind == "undo":
                seat = sorted(tokens)[asker]
                to = version - back % (min(6, version) + 1)  # any of max(0, version - 6)..version
                r = c.post(f"/games/{gid}/undo", json={"to_version": to}, headers=auth[seat])
                assert r.status_code in (201, 202, 422), r.text
                if r.status_code == 422:
                    assert r.json()["rule"].startswith("UMPIRE-UNDO-")
            elif kind == "answer" and view["undo_request"] is not None:
                other = next(s for s in tokens if s != view["undo_request"]["by"])
                r = c.post(f"/games/{gid}/commands", headers=auth[other],
                           json={"command": {"type": answer}, "expected_version": version})
                assert r.status_code == 201, r.text
            else:
                seat = view["to_act"][0]
                cmds = [x for x in c.get(f"/games/{gid}/legal-commands", headers=auth[seat]).json()["commands"]
                        if not x["type"].startswith("undo")]
                r = c.post(f"/games/{gid}/commands", headers=auth[seat],
                           json={"command": cmds[pick % len(cmds)], "expected_version": version})
                assert r.status_code == 201, r.text
            if r.status_code in (201, 202):
                boundaries.add(r.json()["version"])
    store = EventStore(d)
    events = store.load(gid)
    store.close()
    by_seq = {e.seq: e for e in events}
    undos = [(e.seq, msgspec.json.decode(e.payload)) for e in events if e.type == "undone"]
    for seq, u in undos:
        assert u["first"] - 1 in boundaries, (seq, u, sorted(boundaries))  # a command boundary
        if u["consented_by"] is None:  # free: nothing revealed in the range or since
            assert not any(by_seq[s].reveals for s in range(u["first"], seq)), (seq, u)
    outcomes: dict[tuple[str, str, int], list[int]] = {}
    for e in events:
        if e.type in DRAWS:
            outcomes.setdefault((e.type, e.actor, e.turn), []).append(e.seq)
    for key, seqs in outcomes.items():
        agreed = [u for _s, u in undos if u["consented_by"] is not None
                  and any(u["first"] <= s <= u["last"] for s in seqs)]
        assert len(seqs) <= 1 + len(agreed), (key, seqs, undos)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_no_second_outcome_of_a_draw_without_an_accepted_request(data, tmp_path_factory):
    _run(data, tmp_path_factory)
