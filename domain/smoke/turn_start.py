"""The start of a side's turn (SMOKE-TURN-1) and the reinforcements that arrive with it
(SMOKE-PHASE-1). Started after the opening (:mod:`domain.smoke.turns`), at the end of the deployment
(:mod:`domain.smoke.deployment`) and after each turn."""
from __future__ import annotations

from typing import Any

from domain.kernel import RulingBuilder
from domain.kernel.messages import joined, msg

from .commanders import after_unit_stops
from .events import ReinforcementsArrived, TurnStarted
from .geometry import overlaps
from .seat_words import seat_words
from .state import SmokeState


def start_turn(out: Any, side: str) -> None:
    st: SmokeState = out.state
    players = st.seats_of_side(side)
    out.emit(TurnStarted(turn=st.turn_no + 1, side=side, players=players),
             RulingBuilder().add("SMOKE-TURN-1", msg("Turn {turn}: side {side} is active (players {players} in order, "
                                                     "GAP-B-16).", turn=st.turn_no + 1, side=side,
                                                     players=joined([seat_words(p) for p in players], ", ")) if len(players) > 1
                                 else msg("Turn {turn}: side {side} is active.", turn=st.turn_no + 1, side=side),
                                 players=list(players)),
             summary=msg("turn {turn}: {side}", turn=st.turn_no + 1, side=side))
    arrive(out)


def arrive(out: Any) -> None:
    """SMOKE-PHASE-1: the active side's reinforcements due by the current scenario phase enter the
    table at their places; one whose place is taken (a unit overlaps it) waits for a later turn of
    its side (INFERRED). Commanders they land on are displaced or risked as for a move (SMOKE-CMD-3/4)."""
    st: SmokeState = out.state
    t = st.turn
    if t is None or not st.arrivals:
        return
    due = [a for a in st.arrivals if a.phase <= st.phase and a.unit.seat in t.players]
    if not due:
        return
    came, waiting, blocked = [], [], {}
    for a in due:
        b = a.unit.box()
        on = next((o.id for o in list(st.units.values()) + came if overlaps(b, o.box())), None)
        if on is None:
            came.append(a.unit)
        else:
            waiting.append(a.unit.id)
            blocked[a.unit.id] = on
    rb = RulingBuilder()
    for u in came:
        rb.add("SMOKE-PHASE-1", msg("Phase {phase}: the reinforcement {id} ({seat}) enters at ({x:g}, {y:g}) "
                                    "facing {facing:g}.",
                                    phase=st.phase, id=u.id, seat=seat_words(u.seat), x=u.x, y=u.y, facing=u.facing), unit=u.id, at=[u.x, u.y, u.facing])
    for uid in waiting:
        rb.add("SMOKE-PHASE-1", msg("{unit}'s place is taken by {other}: it waits for a later turn of its side "
                                    "(INFERRED).", unit=uid, other=blocked[uid]), unit=uid, blocked_by=blocked[uid])
    out.emit(ReinforcementsArrived(phase=st.phase, units=tuple(came), waiting=tuple(waiting), blocked_by=blocked), rb,
             summary=(msg("reinforcements arrive") if came else msg("reinforcements wait")))
    for u in came:
        if out.over:
            return
        after_unit_stops(out, u.id)
