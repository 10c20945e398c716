"""Medals and the victory check run after every change (HOTH-ELIM-*, HOTH-WIN-5, HOTH-OBJ-*)."""
from __future__ import annotations

from collections.abc import Iterable

from domain.kernel import RulingBuilder
from domain.kernel.messages import Message, joined, msg, msg_n

from .events import GameWon, MedalsAwarded, ObjectiveChanged
from .choices import PERM_MEDAL, choice, cite
from .objectives import medal_winner, objective_changes, sudden_death
from .outbox import Outbox
from .board import label
from .terms import hex_text, side, signed
from .scenario import (
    Hex, HexesOccupied, Objective, PermanentMedal, Scenario, StructuresDestroyed, SuddenDeath, TemporaryMedal,
)
from .state import HothState
from .units import UNIT_SPECS


def elimination_medals(out: Outbox, attacker_faction: str, unit_type: str) -> tuple[int, str]:
    """HOTH-WIN-2, HOTH-ELIM-3, HOTH-ELIM-4: medals for eliminating a unit, and the rule that decided."""
    sc = out.state.scenario
    assert sc is not None
    return medals_for(sc, attacker_faction, unit_type)


def medals_for(sc: Scenario, attacker_faction: str, unit_type: str) -> tuple[int, str]:
    """The medals ``attacker_faction`` earns for eliminating a ``unit_type`` in scenario ``sc``, and the rule."""
    side = sc.side(attacker_faction)
    if not side.elimination_medals:
        return 0, "HOTH-ELIM-4"
    if unit_type in side.unit_medal_values:
        return side.unit_medal_values[unit_type], "HOTH-ELIM-4"
    n = UNIT_SPECS[unit_type].medals
    return n, ("HOTH-ELIM-2" if n else "HOTH-ELIM-3")


# HOTH-ELIM-5 / HOTH-WIN-3 / HOTH-OBJ-1: every medal (elimination or objective) counts the same and runs
# the victory check at once.
def award(out: Outbox, faction: str, count: int, reason: Message, rule: str, objective: str | None = None) -> None:
    """``reason``: why (``eliminated R4``); the event keeps its English text."""
    if count == 0:
        return
    total = out.state.medals.get(faction, 0) + count
    rb = RulingBuilder().add(rule, reason, faction=faction, count=count, total=total)
    out.emit(MedalsAwarded(faction=faction, count=count, total=total, reason=reason.english(), objective=objective), rb,
             summary=msg("{faction}: {change} medal(s), {reason}", faction=side(faction), change=signed(count),
                         reason=reason))


def entries(out: Outbox, rb: RulingBuilder, unit_id: str, path: tuple[Hex, ...]) -> list[tuple[str, Hex]]:
    """The hexes of ``path`` that count as entered for a permanent medal (HOTH-OBJ-PERM-1, HOTH-CHOICE-PERM-MEDAL):
    every hex (``pass``) or the last one only (``stop``). When the unit passes over an uncaptured permanent medal
    of its faction without stopping there, ``rb`` gets a step saying which reading decided it."""
    st = out.state
    u = st.units.get(unit_id)
    option = choice(st, PERM_MEDAL)
    if u is not None and st.scenario is not None and path:
        over = [ob for ob in st.scenario.objectives if isinstance(ob, PermanentMedal) and ob.id not in st.captured
                and ob.faction == u.faction and tuple(ob.hex) in {tuple(h) for h in path[:-1]}]
        for ob in over:
            cite(rb, PERM_MEDAL, option, msg("{unit} passes through the permanent medal's hex {hex} without "
                                             "stopping: entering the hex captures it.", unit=unit_id,
                                             hex=label(tuple(ob.hex))) if option == "pass" else
                 msg("{unit} passes through the permanent medal's hex {hex} without stopping: only the hex where it "
                     "stops counts, so it is not captured.", unit=unit_id, hex=label(tuple(ob.hex))))
    return [(unit_id, h) for h in (path if option == "pass" else path[-1:])]


def settle(out: Outbox, entered: Iterable[tuple[str, Hex]] = (), by_retreat: bool = False) -> bool:
    """Objectives, sudden death and medal victory after any change; True when the game is over.

    ``by_retreat``: the hexes were entered by a retreat (HOTH-RETREAT-9 is cited in a capture's ruling).
    """
    if out.over:
        return True
    for ch in objective_changes(out.state, entered):
        if ch[0] == "temp":
            ob, held = ch[1], ch[2]
            rule = "HOTH-OBJ-TEMP-1" if held else "HOTH-OBJ-TEMP-2"
            text = (msg("A unit of {faction} occupies the temporary medal's hex {hex}: the medal is held.",
                        faction=side(ob.faction), hex=hex_text(ob.hex)) if held
                    else msg("No unit of {faction} occupies the temporary medal's hex {hex} any more: the medal goes "
                             "back.", faction=side(ob.faction), hex=hex_text(ob.hex)))
            rb = RulingBuilder().add(rule, text, hex=list(ob.hex), label=label(tuple(ob.hex)))
            rb.add("HOTH-OBJ-TEMP-3", msg("Occupation is continuous: the medal follows who occupies the hex now."))
            if by_retreat and not held:
                rb.add("HOTH-RETREAT-9", msg("Retreating off the hex loses the medal."))
            out.emit(ObjectiveChanged(objective=ob.id, faction=ob.faction, held=held), rb, summary=text)
            award(out, ob.faction, ob.medals if held else -ob.medals, objective_said(ob), rule, ob.id)
        else:
            ob = ch[1]
            text = msg("A unit of {faction} entered the permanent medal's hex {hex}: the medal is won for good.",
                       faction=side(ob.faction), hex=hex_text(ob.hex))
            rb = RulingBuilder().add("HOTH-OBJ-PERM-1", text, hex=list(ob.hex), label=label(tuple(ob.hex)))
            rb.add("HOTH-OBJ-PERM-2", msg("It is never lost, even if the unit leaves the hex."))
            rb.add("HOTH-OBJ-PERM-3", msg("Any entry counts (ordered move, retreat or breakthrough)."))
            if by_retreat:
                rb.add("HOTH-RETREAT-9", msg("A retreat triggers objective effects: entering the hex captures it."))
            out.emit(ObjectiveChanged(objective=ob.id, faction=ob.faction, held=True, permanent=True), rb,
                     summary=text)
            award(out, ob.faction, ob.medals, objective_said(ob), "HOTH-OBJ-PERM-1", ob.id)
        if check_victory(out):
            return True
    return check_victory(out)


def objective_said(ob: Objective, sc: Scenario | None = None) -> Message:
    """An objective as a player reads it on the board (its id is the scenario's data, printed nowhere): a medal by
    its kind and hex, a sudden death by its condition (``sc``: the scenario, for its structures' kinds)."""
    if isinstance(ob, TemporaryMedal):
        return msg("the temporary medal at {hex}", hex=hex_text(ob.hex))
    if isinstance(ob, PermanentMedal):
        return msg("the permanent medal at {hex}", hex=hex_text(ob.hex))
    c = ob.condition
    if isinstance(c, StructuresDestroyed):
        kinds = {s.id: s.kind.replace("_", " ") for s in (sc.structures if sc is not None else ())}
        return msg("every {structures} destroyed", structures=[kinds.get(s, s) for s in c.structures])
    if isinstance(c, HexesOccupied):
        return msg("{hexes} occupied at once", hexes=joined([hex_text(h) for h in c.hexes], ", "))
    if c.unit_types:
        return msg("no enemy {units} left", units=[UNIT_SPECS[t].name for t in c.unit_types])
    return msg("no enemy unit left")


def sudden_death_text(sd: SuddenDeath, sc: Scenario | None) -> Message:
    """HOTH-OBJ-SUDDEN-1: why ``sd.faction`` wins at once (a ruling's step, the event's ``reason`` in English)."""
    return msg("Sudden death: {faction} met its objective ({objective}), a win at once.", faction=side(sd.faction),
               objective=objective_said(sd, sc))


def medal_win_text(faction: str, medals: int, need: int) -> Message:
    """HOTH-WIN-1: why ``faction`` wins on medals (a ruling's step, the event's ``reason`` in English)."""
    return msg_n("{side}: {count} medal(s), the {need} the scenario asks: a win.",
                 "{side}: {count} medal(s), the {need} the scenario asks: a win.", "count", side=side(faction),
                 count=medals, need=need)


def win_message(state: HothState) -> Message | None:
    """The message of a finished game's ``win_reason`` (the English text its ``game_won`` event keeps), made again
    from the final state, so a view says it in the reader's language; None when the stored text is not one of
    these (a game stored with other words keeps its words)."""
    sc = state.scenario
    if state.winner is None or not state.win_reason or sc is None:
        return None
    said: list[Message] = []
    sd = sudden_death(state)
    if sd is not None:
        said.append(sudden_death_text(sd, sc))
    need = sc.side(state.winner).victory_medals
    if need is not None:
        said.append(medal_win_text(state.winner, state.medals.get(state.winner, 0), need))
    return next((m for m in said if m.english() == state.win_reason), None)


def check_victory(out: Outbox) -> bool:
    if out.over:
        return True
    sd = sudden_death(out.state)
    if sd is not None:
        text = sudden_death_text(sd, out.state.scenario)
        out.emit(GameWon(winner=sd.faction, reason=text.english(), rule="HOTH-OBJ-SUDDEN-1"),
                 RulingBuilder().add("HOTH-OBJ-SUDDEN-1", text, objective=sd.id), summary=text)
        return True
    w = medal_winner(out.state)
    if w is not None:
        sc = out.state.scenario
        assert sc is not None
        need = sc.side(w).victory_medals
        assert need is not None  # medal_winner: only a side with a medal count wins on medals
        text = medal_win_text(w, out.state.medals[w], need)
        out.emit(GameWon(winner=w, reason=text.english(), rule="HOTH-WIN-5"),
                 RulingBuilder().add("HOTH-WIN-1", text, medals=out.state.medals[w], needed=need)
                 .add("HOTH-WIN-5", msg("Victory is checked at once on every medal change (HOTH-GAP-11).")), summary=text)
        return True
    return False
