"""How the automaton's rulings write what it looked at: cell sets, bonus scores, distances and the
compass's tie-break (SOLO-MOVE-4..8, SOLO-TGT-3, SOLO-TIE-1..3)."""
from __future__ import annotations

from typing import Any

from domain.kernel import RulingBuilder
from domain.kernel.messages import Message, joined, msg

from ..grid import INF
from ..targeting import SYM_ALL, SYM_FARTHEST, SYM_NEAREST

#: BASE-RANGE-2: each targeting rule, in words.
WHO = {SYM_NEAREST: msg("the nearest enemy warrior"), SYM_FARTHEST: msg("the farthest enemy warrior"),
       SYM_ALL: msg("every enemy warrior, your hero first")}
#: What the compass chooses among equally valid attack or push targets (SOLO-TIE-2).
TARGET = msg("target")


def cell_set(cells: Any) -> str:
    return "{" + ", ".join(cells) + "}" if cells else "∅"


def bonus_scores(bonus: Any) -> str:
    """``B(c)=n`` for each cell: the location bonus symbols of each (SOLO-MOVE-6), as the rules write them."""
    return ", ".join(f"B({c})={bonus[c]}" for c in sorted(bonus))


def enemy_distances(st: Any, d: Any) -> "str | Message":
    """Each enemy's name and its distance (``Rebel 2``, ``unreachable``), nearest rule SOLO-TGT-3."""
    return joined([msg("{warrior} {distance}", warrior=st.warriors[i].name, distance=distance(v))
                   for i, v in sorted(d.items())], ", ")


def distance(v: int) -> "int | Message":
    """A distance (BASE-GRID-3 ``dist``), in words when there is none (no path: ``unreachable``)."""
    return msg("unreachable") if v >= INF else v


def tie_steps(rb: RulingBuilder, compass: str, arrows: Any, to: str, what: Message) -> None:
    """SOLO-TIE-1..3 (and SOLO-FAQ-2) as ruling steps; ``what``: the kind of thing chosen, in words."""
    rb.add("SOLO-TIE-1", msg("Otherwise equal options: the compass of the current order card ({compass}) decides.",
                             compass=compass),
           compass=compass)
    rb.add("SOLO-TIE-2", msg("The {what} farthest {compass} on the battlefield as a whole is {to} (not relative to "
                             "any warrior or location, SOLO-FAQ-2).", what=what, compass=compass, to=to), chosen=to)
    if len(arrows) > 1:
        rb.add("SOLO-TIE-3", msg("Tie on that axis: the arrow turns clockwise to {value} (PROPOSED, GAP-A-10).",
                                 value=', '.join(arrows[1:])), arrows=list(arrows))
