"""syrupy snapshots of the event stream and final state of a short scripted game (fixed seed)."""
from __future__ import annotations

import msgspec

from domain.hoth import commands as C
from domain.hoth.decider import HothRuleset
from domain.kernel import event_type_name

from .fixtures import FixtureCatalog
from .play import Game

_PREFER = (C.Attack, C.Retreat, C.Reroll, C.IgnoreRetreat, C.Breakthrough, C.Move, C.OrderUnit, C.PlayCard)


def _script(cmds):
    """The scripted policy: the first command of the most aggressive kind on offer."""
    for kind in _PREFER:
        for c in cmds:
            if isinstance(c, kind):
                return c
    return cmds[0]


def scripted_game(turns: int = 8) -> Game:
    g = Game(HothRuleset(FixtureCatalog()), "SCN-TAKE-DOWN-THE-SHIELD", seed=bytes(range(32)), game_id="snap")
    while g.state.winner is None and g.state.turn_no <= turns:
        seat = g.to_act()
        g.do(seat, _script(g.rs.legal_commands(g.state, seat)))
    return g


def test_scripted_game_event_stream(snapshot):
    g = scripted_game()
    stream = [
        {"type": event_type_name(em.event), "visibility": em.visibility,
         "payload": {k: v for k, v in msgspec.to_builtins(em.event).items() if k not in ("scenario", "cards")},
         "rolls": [[r.stream, r.index, r.value] for r in em.rolls],
         "rules": em.ruling.rules() if em.ruling else []}
        for em in g.emitted
    ]
    assert stream == snapshot


def test_scripted_game_final_state(snapshot):
    g = scripted_game()
    view = g.rs.view(g.state, None)
    view.pop("terrain", None)
    assert {"status": msgspec.to_builtins(g.rs.status(g.state)), "view": view} == snapshot
