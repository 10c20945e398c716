"""Army morale, victory, scenario phases and the end of the game (SMOKE-VIC, SMOKE-MP-1/6,
SMOKE-PHASE, GAP-B-09/26/27)."""
from __future__ import annotations

import re
from typing import Any

from domain.kernel import RulingBuilder
from domain.kernel.messages import Message, joined, msg, msg_n

from .events import ArmyAbandoned, ArmyBroken, GameEnded, MoraleLost, PhaseAdvanced, SideSupported, SixesCounted
from .seat_words import seat_words
from .state import SmokeState


#: The reasons a morale loss or a destruction is stored with (an event's ``reason``: English words kept in
#: the log) as messages, so a game stored in English reads in another language; an unknown reason stays as
#: it is.
_REASONS: tuple[tuple["re.Pattern[str]", Any], ...] = (
    (re.compile(r"commander out of action \(level (\d+)\)"),
     lambda m: msg("commander out of action (level {level})", level=int(m[1]))),
    (re.compile(r"lost the battle of (.+)"), lambda m: msg("lost the battle of {markers}", markers=m[1])),
    (re.compile(r"bombardment"), lambda m: msg("bombardment")),
    (re.compile(r"the Elite unit (\S+) retreated"), lambda m: msg("the Elite unit {unit} retreated", unit=m[1])),
    (re.compile(r"(\S+) retreated onto a unit of another formation"),
     lambda m: msg("{unit} retreated onto a unit of another formation", unit=m[1])),
    (re.compile(r"(\S+) destroyed"), lambda m: msg("{unit} destroyed", unit=m[1])),
    (re.compile(r"failed a discipline test"), lambda m: msg("failed a discipline test")),
    (re.compile(r"failed retreat \(SMOKE-FRET-1\)"), lambda m: msg("failed retreat (SMOKE-FRET-1)")),
)


def reason_words(reason: str) -> "str | Message":
    """An event's stored reason (``MoraleLost``, ``UnitDestroyed``) in words of the reader's language."""
    for pattern, said in _REASONS:
        m = pattern.fullmatch(reason)
        if m:
            return said(m)
    return reason


def other_side(state: SmokeState, side: str) -> str:
    return next(s for s in state.sides if s != side)


def lose_morale(out: Any, seat: str, amount: int, rule: str, reason: str) -> None:
    """SMOKE-VIC-4: every loss goes through here; at 0 or below the army breaks (SMOKE-VIC-2)."""
    if amount <= 0 or out.over:
        return
    army = out.state.armies[seat]
    if army.out:
        return
    new = army.morale - amount
    out.emit(MoraleLost(seat=seat, amount=amount, morale=new, reason=reason),
             RulingBuilder().add(rule, msg("{seat} loses {amount} army morale ({reason}): {morale} -> {new}.",
                                           seat=seat_words(seat), amount=amount, reason=reason_words(reason), morale=army.morale,
                                           new=new),
                                 amount=amount, before=army.morale, after=new),
             summary=msg("{seat} -{amount} morale", seat=seat_words(seat), amount=amount))
    if new <= 0:
        army_at_zero(out, seat)


def army_at_zero(out: Any, seat: str) -> None:
    st: SmokeState = out.state
    side = st.armies[seat].side
    allies = [s for s in st.seats_of_side(side) if s != seat]
    winner = other_side(st, side)
    if not allies:
        out.emit(GameEnded(kind="decisive", winner=winner, rule="SMOKE-VIC-2",
                           detail=f"{seat}'s army morale fell to {st.armies[seat].morale}"),
                 RulingBuilder().add("SMOKE-VIC-2", msg("{seat}'s army morale is at or below 0 (GAP-B-26: 0 "
                                                        "counts): {winner} wins a decisive victory at once.",
                                                        seat=seat_words(seat), winner=winner)),
                 summary=msg("{winner} wins a decisive victory", winner=winner))
        return
    if side in st.supported:
        out.emit(GameEnded(kind="decisive", winner=winner, rule="SMOKE-MP-6",
                           detail=f"{seat}'s army broke again after the side chose Support: the side is routed"),
                 RulingBuilder().add("SMOKE-MP-6", msg("Side {side} chose Support before; an army of it is at 0 "
                                                       "again, so the side is routed: {winner} wins a decisive "
                                                       "victory.", side=side, winner=winner)),
                 summary=msg("{winner} wins a decisive victory", winner=winner))
        return
    out.emit(ArmyBroken(seat=seat, side=side),
             RulingBuilder().add("SMOKE-MP-6", msg("{seat}'s army is at 0: side {side} chooses Support (share the "
                                                   "remaining morale) or Abandon (the army leaves the game).",
                                                   seat=seat_words(seat), side=side)),
             summary=msg("{seat}'s army is broken", seat=seat_words(seat)))


def support(out: Any, choice: str) -> None:
    """SMOKE-MP-6: the broken army's player answers for its side (INFERRED: that player chooses)."""
    st: SmokeState = out.state
    seat = st.broken
    assert seat is not None
    side = st.armies[seat].side
    members = st.seats_of_side(side)
    if choice == "support":
        pool = sum(max(0, st.armies[s].morale) for s in members)
        share = pool // len(members)  # GAP-B-27: rounded down, the remainder is lost
        shares = {s: share for s in members}
        out.emit(SideSupported(side=side, shares=shares),
                 RulingBuilder().add("SMOKE-MP-6", msg("Support: the side's remaining morale {pool} is split "
                                                       "equally among {count} armies: {share} each (GAP-B-27: "
                                                       "rounded down, {lost} lost).",
                                                       pool=pool, count=len(members), share=share, lost=pool - share * len(members)),
                                     pool=pool, share=share),
                 summary=msg("side {side}: Support ({share} each)", side=side, share=share))
        if share <= 0:
            army_at_zero(out, seat)
        return
    removed = tuple(sorted(u.id for u in st.units.values() if u.seat == seat))
    out.emit(ArmyAbandoned(seat=seat, removed=removed),
             RulingBuilder().add("SMOKE-MP-6", msg("Abandon: {seat}'s units are removed and {seat} leaves the game.",
                                                   seat=seat_words(seat)),
                                 removed=list(removed)),
             summary=msg("{seat} abandons", seat=seat_words(seat)))
    if not out.state.seats_of_side(side):
        winner = other_side(out.state, side)
        out.emit(GameEnded(kind="decisive", winner=winner, rule="SMOKE-MP-6", detail=f"side {side} has no army left"),
                 RulingBuilder().add("SMOKE-MP-6", msg("Side {side} has no army left: {winner} wins.",
                                                       side=side, winner=winner)),
                 summary=msg("{winner} wins a decisive victory", winner=winner))


def count_sixes(out: Any, seat: str, sixes: int) -> None:
    """SMOKE-ACT-3, SMOKE-PHASE-2: each side needs as many 6s as it has players to advance one phase;
    its 6s are kept until then."""
    if sixes <= 0:
        return
    st: SmokeState = out.state
    side = st.armies[seat].side
    need = max(1, len(st.seats_of_side(side)))
    out.emit(SixesCounted(side=side, sixes=sixes),
             RulingBuilder().add("SMOKE-ACT-3", msg_n("{sixes} six(es) count toward the scenario phase ({need} per "
                                                      "phase for side {side}, SMOKE-PHASE-2).",
                                                      "{sixes} six(es) count toward the scenario phase ({need} per "
                                                      "phase for side {side}, SMOKE-PHASE-2).", "sixes", sixes=sixes, need=need, side=side), sixes=sixes),
             summary=msg_n("{sixes} six(es) for side {side}",
                           "{sixes} six(es) for side {side}", "sixes", sixes=sixes, side=side))
    assert out.state.battle is not None
    last = out.state.battle.end.phase
    while out.state.sixes.get(side, 0) >= need:
        new = out.state.phase + 1
        left = out.state.sixes[side] - need
        ending = new > last
        rb = RulingBuilder().add("SMOKE-PHASE-2", msg_n("Side {side} has {need} six(es): phase {phase} -> {new}.",
                                                        "Side {side} has {need} six(es): phase {phase} -> {new}.", "need", side=side, need=need, phase=out.state.phase, new=new),
                                 phase=new)
        if ending and not out.state.ending:
            rb.add("GAP-B-09", msg("Phase {last} has ended: the game ends at the end of this turn (PROPOSED "
                                   "default).", last=last),
                   last_phase=last)
        out.emit(PhaseAdvanced(side=side, phase=new, sixes_left=left, ending=ending), rb, summary=msg("phase {new}",
                                                                                                      new=new))


def fractions(state: SmokeState) -> dict[str, float]:
    out = {}
    for side, seats in state.sides.items():
        start = sum(state.armies[s].start_morale for s in seats)
        left = sum(max(0, state.armies[s].morale) for s in seats if not state.armies[s].out)
        out[side] = round(left / start, 6) if start else 0.0
    return out


def end_by_scenario(out: Any) -> None:
    """SMOKE-VIC-3, GAP-B-09 (PROPOSED default): higher remaining morale fraction wins a marginal
    victory; equal fractions are a draw."""
    fr = fractions(out.state)
    ranked = sorted(fr.items(), key=lambda kv: -kv[1])
    text = ", ".join(f"{s} {v:.3f}" for s, v in ranked)  # the log's detail (data, not read by a person)
    listed = joined([msg("{side} {fraction:.3f}", side=s, fraction=v) for s, v in ranked], ", ")
    if len(ranked) >= 2 and ranked[0][1] > ranked[1][1]:
        winner = ranked[0][0]
        out.emit(GameEnded(kind="marginal", winner=winner, rule="SMOKE-VIC-3", detail=f"morale fractions {text}",
                           fractions=fr),
                 RulingBuilder().add("SMOKE-VIC-3", msg("The scenario ends: {winner} wins an uncertain (marginal) "
                                                        "victory.", winner=winner)).add("GAP-B-09", msg("Remaining morale fractions: {text}.",
                                                                                    text=listed),
                                                                     fractions=fr),
                 summary=msg("{winner} wins a marginal victory", winner=winner))
    else:
        out.emit(GameEnded(kind="draw", winner=None, rule="SMOKE-VIC-3", detail=f"morale fractions {text}",
                           fractions=fr),
                 RulingBuilder().add("SMOKE-VIC-3", msg("The scenario ends in a draw."))
                 .add("GAP-B-09", msg("Equal remaining morale fractions: {text}.", text=listed), fractions=fr),
                 summary=msg("draw"))
