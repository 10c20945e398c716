"""Seats and sides (DESIGN section 4): who may consent to whose undo (UMPIRE-SIDE-1, UMPIRE-UNDO-13).

A game's seats belong to **sides**; the ruleset declares them with the optional method
``sides(setup) -> dict[seat, side]`` (Hoth teams: ``imperial`` + ``imperial-2`` against ``rebel`` +
``rebel-2``; Smoke: the battle line-up's sides; without the method every seat is a side of its own,
as for the Emperor's single ``human`` seat). Consent to an undo comes from the *other* sides: one
seat of every side except the asker's (UMPIRE-UNDO-13), never a teammate.
"""
from __future__ import annotations

from typing import Any

from .decider import Setup


def setup_of(header: Any) -> Setup:
    """A :class:`Setup` from a game's ``game_created`` header (or a Setup itself)."""
    if isinstance(header, Setup):
        return header
    return Setup(game_id=header.game_id, ruleset=header.ruleset, scenario=header.scenario,
                 seats=tuple(header.seats), options=dict(header.options))


def seat_sides(ruleset: Any, setup: Any) -> dict[str, str]:
    """seat -> side for a game (``setup``: a Setup or the ``game_created`` header). UMPIRE-SIDE-1: the
    ruleset's ``sides(setup)`` when it has one, covering every seat; else each seat its own side."""
    st = setup_of(setup)
    own = getattr(ruleset, "sides", None)
    got = own(st) if callable(own) else None
    if not got:
        return {s: s for s in st.seats}
    missing = [s for s in st.seats if s not in got]
    if missing:  # a ruleset bug: never let a seat without a side answer for another's
        raise ValueError(f"{ruleset.id}.sides leaves out seats {missing}")
    return {s: got[s] for s in st.seats}


def other_sides(sides: dict[str, str], seat: str) -> tuple[str, ...]:
    """The sides, other than ``seat``'s, that must consent to ``seat``'s undo (in seat order)."""
    mine = sides.get(seat, seat)
    out: list[str] = []
    for s in sides.values():
        if s != mine and s not in out:
            out.append(s)
    return tuple(out)


__all__ = ["other_sides", "seat_sides", "setup_of"]
