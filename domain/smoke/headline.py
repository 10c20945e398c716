"""The state of a Clouds of Smoke game in one line for people: the battle, the turn, the scenario phase of the
game's last one (GAP-B-09), who is to act and in which step, or the result in words. The board picture's
header (``board.svg``) and the text replay (``umpire replay``) both lead with it. Its words are messages
(issue 28): rendered in the reader's language at the edge; :func:`domain.kernel.messages.text_of` gives the
English line.

A side is named as printed with its players by their names ("Karl (Player 1)"), never by its id.
"""
from __future__ import annotations

from domain.kernel.messages import Message, joined, msg

from .seat_words import seat_words
from .state import ACTIONS, BATTLE_START, BATTLES, BOMBARD, DEPLOY, SmokeState

STEP_WORDS = {DEPLOY: msg("deployment"), BOMBARD: msg("bombardment step"), ACTIONS: msg("action step"),
              BATTLE_START: msg("battle start step"), BATTLES: msg("battles step")}
RESULT_WORDS = {"decisive": msg("decisive victory"), "marginal": msg("marginal victory")}


def side_words(state: SmokeState, side: str | None) -> "str | Message":
    """"Karl (Player 1)": a side's printed name and its players by their names (``seat_words``), in the reader's
    language."""
    b = state.battle
    name = next((s.name for s in b.sides if s.id == side), side) if b is not None else side
    seats = sorted(a.seat for a in state.armies.values() if a.side == side)
    return msg("{title} ({seats})", title=str(name), seats=joined([seat_words(s) for s in seats], ", ")) if seats \
        else str(name)


def _phase(state: SmokeState) -> Message:
    last = state.battle.end.phase if state.battle is not None else None
    if last and state.phase > last:  # sixes may carry the count past the last phase in the last turn
        return msg("phase {last} of {last}, the last, is over", last=last)
    return msg("phase {phase} of {last}", phase=state.phase, last=last) if last else msg("phase {phase}",
                                                                                          phase=state.phase)


def headline(state: SmokeState) -> "str | Message":
    """"Crossroads of four armies · turn 3, phase 2 of 6 · Karl (Player 1) to act, action step"; a finished game
    ends with its result ("Vertumn (Player 2) wins, marginal victory" or "a draw")."""
    b = state.battle
    return joined([b.title if b is not None else state.battle_id, status_words(state)], " · ")


def status_words(state: SmokeState) -> "str | Message":
    """The headline without the battle's title: "turn 3, phase 2 of 6 · Karl (Player 1) to act, action step"."""
    parts: list[str | Message] = []
    if state.turn_no:
        parts.append(msg("turn {turn}, {phase}", turn=state.turn_no, phase=_phase(state)))
    if state.result is not None:
        r = state.result
        parts.append(msg("finished: {side} wins, {result}", side=side_words(state, r.winner),
                         result=RESULT_WORDS.get(r.kind, r.kind.replace("_", " "))) if r.winner
                     else msg("finished: a draw"))
    elif state.turn is not None:
        parts.append(msg("{side} to act, {step}", side=side_words(state, state.turn.side),
                         step=STEP_WORDS.get(state.turn.step, state.turn.step.replace("_", " "))))
    elif state.generation is not None:
        parts.append(msg("setting up: terrain generation"))
    elif state.deployment is not None or state.reserve:
        parts.append(msg("setting up: deployment"))
    else:
        parts.append(msg("setting up"))
    return joined(parts, " · ")


__all__ = ["RESULT_WORDS", "STEP_WORDS", "headline", "side_words", "status_words"]
