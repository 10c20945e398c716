"""Short scripted games for the rules tests: two armies where the test puts them, dice forced."""
from __future__ import annotations

from typing import Any

from domain.smoke import commands as C
from domain.smoke import events as E

from .fixtures import Scripted, battle_content

INF = "line_infantry"


def duel(units1, units2, **kw) -> Scripted:
    """player-1 (south, first) and player-2 (north) with these (profile, x, y, facing) units."""
    opts = kw.pop("options", None)
    faces = kw.pop("faces", None)
    choices = kw.pop("choices", None)
    return Scripted(battle_content(list(units1), list(units2), **kw), options=opts, faces=faces, choices=choices)


def of(items: list[Any], kind: type) -> list[Any]:
    """The events of one type among emitted items (or events)."""
    out = []
    for it in items:
        ev = getattr(it, "event", it)
        if isinstance(ev, kind):
            out.append(ev)
    return out


def rules(items: list[Any]) -> set[str]:
    return {r for it in items if getattr(it, "ruling", None) for r in it.ruling.rules()}


def ruling_text(items: list[Any]) -> str:
    return " | ".join(s.text for it in items if getattr(it, "ruling", None) for s in it.ruling.steps)


def end_actions(g: Scripted, seat: str | None = None) -> list[Any]:
    """Place no dice: the actions phase of the acting player ends."""
    seat = seat or g.to_act()
    out = []
    t = g.state.turn
    if t.actions is not None and t.actions.stage in ("risk", "place"):
        out += g.do(seat, C.EndPlacement())
    t = g.state.turn
    if t.step == "actions" and t.actions is not None and t.actions.stage == "resolve":
        out += g.do(seat, C.EndActions())
    return out


def place_marker(g: Scripted) -> list[Any]:
    offer = g.state.turn.marker_offer
    assert offer is not None, "a marker offer is expected"
    return g.do(offer.seat, C.PlaceMarker(at=offer.points[0]))


def refused(g: Scripted, seat: str, cmd: Any):
    from domain.kernel import RuleViolation

    try:
        g.do(seat, cmd)
    except RuleViolation as exc:
        return exc
    raise AssertionError(f"{cmd!r} by {seat} was accepted; a refusal was expected")


def activate_first(g: Scripted, seat: str, unit: str, face: int = 4, slot: str = "A1") -> list[Any]:
    """Put the die showing ``face`` on ``slot``, end placement, activate ``unit``'s formation."""
    a = g.state.turn.actions
    die = a.dice.index(face)
    out = g.do(seat, C.PlaceDie(die=die, slot=slot))
    out += g.do(seat, C.EndPlacement())
    cid = next(c.id for c in g.state.commanders.values() if c.seat == seat)
    out += g.do(seat, C.Activate(slot=slot, die=die, commander=cid, unit=unit))
    return out


__all__ = ["C", "E", "INF", "duel", "of", "rules", "ruling_text", "end_actions", "place_marker", "refused",
           "activate_first"]
