"""Clouds of Smoke played by a rule-based bot (``greedy``): it reads the seat's view only and scores each legal
command (the best wins, ties broken by the bot's own stream):

- bombardment: every artillery unit aims at the nearest enemy formation, then fires;
- action dice: place every die (highest first), never expose the commander (no risk), activate every formation
  it can, and move each activated unit the way that closes most on the nearest enemy (the example moves the
  engine offers go straight ahead, so a formation moved together keeps its line);
- battles: play every tactic it has, cancel a hit by retreating when it may, retreat straight back;
- losses: a unit retreats rather than the army losing morale; a broken army's side supports it;
- deployment and terrain: the engine's own legal examples (the first).
"""
from __future__ import annotations

import math
import random
from typing import Any, ClassVar

from ..protocol import Choice, SeatInput


class _Field:
    def __init__(self, view: dict[str, Any], seat: str):
        self.units = {u["id"]: u for u in view.get("units") or () if "x" in u}
        self.mine = {i for i, u in self.units.items() if u.get("seat") == seat}
        self.enemies = [u for i, u in self.units.items() if i not in self.mine]
        turn = view.get("turn") or {}
        acts = turn.get("actions") or {}
        self.dice = acts.get("dice") or []

    def nearest(self, x: float, y: float) -> float:
        return min((math.hypot(e["x"] - x, e["y"] - y) for e in self.enemies), default=0.0)


def _after_move(u: dict[str, Any], cmd: dict[str, Any]) -> tuple[float, float]:
    """Where a move takes the unit's centre (facing in degrees: 0 along +x, 90 along +y)."""
    if cmd.get("kind") == "complex" and cmd.get("vector"):
        dx, dy = cmd["vector"]
        return u["x"] + dx, u["y"] + dy
    f = math.radians(cmd.get("facing") if cmd.get("facing") is not None else u.get("facing", 0.0))
    d = cmd.get("distance") or 0.0
    return u["x"] + d * math.cos(f), u["y"] + d * math.sin(f)


def _score(f: _Field, cmd: dict[str, Any]) -> tuple[float, str]:  # noqa: C901
    t = cmd["type"]
    if t == "aim":
        gun, tgt = f.units.get(cmd["unit"]), f.units.get(cmd["target"])
        d = math.hypot(gun["x"] - tgt["x"], gun["y"] - tgt["y"]) if gun and tgt else 10.0
        return 5.0 - 0.01 * d, f"aims {cmd['unit']} at the formation of {cmd['target']} ({d:.1f} away)"
    if t == "bombard":
        return 1.0, "fires the bombardment"
    if t == "place_die":
        face = f.dice[cmd["die"]] if 0 <= cmd["die"] < len(f.dice) else 1
        return 3.0 + face / 10, f"places a {face} on {cmd['slot']}"
    if t == "take_risk":
        return -1.0, "risks its commander"
    if t == "end_placement":
        return 0.0, "ends the placement"
    if t == "activate":
        return 3.0, f"activates the formation of {cmd.get('unit') or cmd.get('commander')} with {cmd['slot']}"
    if t == "ride":
        return 0.5, f"rides {cmd['commander']}"
    if t == "end_actions":
        return 0.0, "ends its actions"
    if t == "move":
        u = f.units.get(cmd["unit"])
        if u is None:
            return 1.0, f"moves {cmd['unit']}"
        x, y = _after_move(u, cmd)
        gain = f.nearest(u["x"], u["y"]) - f.nearest(x, y)
        return 1.0 + gain + (0.1 if cmd.get("kind") == "simple" else 0.0), \
            f"moves {cmd['unit']} {gain:+.1f} toward the nearest enemy"
    if t == "end_activation":
        return 0.8, "ends the activation"
    if t == "play_tactic":
        return 3.0, f"plays the tactic on {cmd['slot']}"
    if t == "end_tactics":
        return 0.0, "plays no more tactics"
    if t == "resolve_hits":
        return (2.0 if cmd.get("retreat") else 1.0), \
            f"resolves the hits on {cmd['unit']}" + (" retreating to cancel one" if cmd.get("retreat") else "")
    if t == "retreat":
        return (1.0 if cmd["direction"] == "back" else 0.5), f"retreats {cmd['direction']}"
    if t == "take_loss":
        return (2.0 if cmd.get("unit") else 1.0), \
            f"retreats {cmd['unit']} for a full 10" if cmd.get("unit") else "loses 1 army morale"
    if t == "support":
        return (1.0 if cmd["choice"] == "support" else 0.0), f"{cmd['choice']}s the broken army"
    return 0.0, t.replace("_", " ")


class GreedyBot:
    id: ClassVar[str] = "greedy"
    title: ClassVar[str] = ("Greedy: bombards the nearest formations, uses every action die, advances on the "
                            "nearest enemy in line, plays every tactic (fast)")
    levels: ClassVar[tuple[int, ...]] = (1,)

    def choose(self, seat_input: SeatInput, rng: random.Random, level: int, playouts: int | None = None) -> Choice:
        f = _Field(seat_input.view, seat_input.seat)
        scored = [(_score(f, c), -i if c["type"] in _FIRST else rng.random(), i) for i, c in enumerate(seat_input.legal)]
        (best, why), _, i = max(scored, key=lambda s: (s[0][0], s[1]))
        return Choice(command=seat_input.legal[i], explanation=f"greedy: {why}")


#: Decisions where the engine's first legal example is taken (deployment, terrain, markers, battle order).
_FIRST = frozenset({"choose_first", "choose_quarters", "place_terrain", "assign_columns", "place_fortification",
                    "place_column", "deploy_unit", "deploy_commander", "place_marker", "fight"})

BOTS = (GreedyBot(),)
