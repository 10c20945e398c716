"""The Clouds of Smoke table as text (``umpire replay``, kernel protocol ``render_text``).

A map one character per UW, north (high y) up: terrain by a letter of its kind (lower case), units by
the number of their seat (``1``, ``2``...) at their centre, commanders ``G``/``C``, battle markers
``*``; then every unit with its printed name, position, facing and state, and each army's morale.
"""
from __future__ import annotations

import math
from typing import Any

from domain.kernel.messages import Message, joined, msg

from .headline import headline
from .seat_words import seat_words
from .state import SmokeState
from .terrain import point_in_ring
from .terrain_words import terrain_word

TERRAIN_CHAR = {"stream": "s", "ravine": "v", "swamp": "w", "village": "h", "hill": "l", "overgrown_hill": "o",
                "dune": "d", "rock": "k", "forest": "f", "grove": "g", "vineyard": "y", "bocage": "b",
                "ploughed_field": "p", "fortification": "x", "road": "="}


def _seat_no(seat: str) -> str:
    return seat.rsplit("-", 1)[-1][-1:]


def _near_line(x: float, y: float, line: Any, width: float) -> bool:
    for (ax, ay), (bx, by) in zip(line, line[1:]):
        dx, dy = bx - ax, by - ay
        ll = dx * dx + dy * dy or 1.0
        t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / ll))
        if math.hypot(ax + t * dx - x, ay + t * dy - y) <= max(width, 0.5):
            return True
    return False


def render_state(state: SmokeState, seat: str | None) -> "str | Message":
    """The table as text; its words are messages (issue 28: ``umpire replay --lang`` renders them), the map's
    characters are the same in every language."""
    b = state.battle
    if b is None or not state.opened:
        return msg("{scenario}: not opened yet", scenario=state.battle_id)
    W, H = int(math.ceil(b.width)), int(math.ceil(b.height))
    rows = [[" "] * W for _ in range(H)]
    for el in b.terrain:
        ch = TERRAIN_CHAR.get(el.kind, "t")
        for r in range(H):
            for c in range(W):
                p = (c + 0.5, r + 0.5)
                if (el.polygon and point_in_ring(p, el.polygon)) or (el.line and _near_line(p[0], p[1], el.line, el.width)):
                    rows[r][c] = ch

    def put(x: float, y: float, ch: str) -> None:
        c, r = int(x), int(y)
        if 0 <= r < H and 0 <= c < W:
            rows[r][c] = ch

    for u in state.units.values():
        put(u.x, u.y, _seat_no(u.seat))
    for cm in state.commanders.values():
        put(cm.x, cm.y, "G" if cm.general else "C")
    for m in state.markers.values():
        put(m.x, m.y, "*")
    names = {sd.id: sd.name for sd in b.sides}
    armies = [msg("{seat} ({side}) morale {morale} of {start}, general level {level}", seat=seat_words(a.seat),
                  side=names.get(a.side, a.side), morale=a.morale, start=a.start_morale, level=a.level)
              if not a.out else
              msg("{seat} ({side}) morale {morale} of {start}, general level {level}, general out", seat=seat_words(a.seat),
                  side=names.get(a.side, a.side), morale=a.morale, start=a.start_morale, level=a.level)
              for a in state.armies.values()]
    lines: list[str | Message] = [headline(state), msg("Armies: {list}", list=joined(armies, "; "))]
    if state.result is not None:
        lines.append(msg("Decided under {rule}.", rule=state.result.rule))  # the winner is in the headline, the morale above
    ruler = "".join(str(c // 10) if c % 10 == 0 else " " for c in range(W))
    lines.append("     " + ruler)
    for r in range(H - 1, -1, -1):
        lines.append(f"{r:>3} |" + "".join(rows[r]) + "|")
    lines.append("     " + "".join(str(c % 10) for c in range(W)))
    lines.append(msg("Map: 1 character per UW, north up; digits: units of Player N at their centre, G/C: general/"
                     "commander, *: battle marker; terrain {legend}.",
                     legend=joined([msg("{a}{sep}{b}", a=v, sep=" ", b=terrain_word(k)) for k, v in TERRAIN_CHAR.items()],
                                   ", ")))
    lines.append(msg("Units:"))
    for u in sorted(state.units.values(), key=lambda u: u.id):
        p = state.profiles[u.profile]
        lines.append(msg("  {unit} {name} ({seat}) at ({x:.1f}, {y:.1f}) facing {facing:.0f}", unit=u.id, name=p.name,
                         seat=seat_words(u.seat), x=u.x, y=u.y, facing=u.facing))
    if state.reserve:
        lines.append(msg("Not deployed yet: {list}", list=joined(
            [msg("{unit} {name}", unit=u.id, name=state.profiles[u.profile].name)
             for u in sorted(state.reserve.values(), key=lambda u: u.id)], ", ")))
    if state.destroyed:
        lines.append(msg("Destroyed: {list}", list=", ".join(state.destroyed)))
    return joined(lines, "\n")

__all__ = ["TERRAIN_CHAR", "render_state"]
