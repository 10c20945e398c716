"""The Emperor's human seat played by a rule-based bot (``greedy``): it reads the seat's view only (the
Emperor's automaton is part of the rules, not a bot; its order deck is hidden from the seat and from the bot).

Each legal command gets a score from what the view shows, the best wins (ties broken by the bot's own stream):

- attack the Emperor's hero first (with every bonus it may use), then a helper that the attack can finish;
- push an enemy into an active hazard;
- move or march the human's warriors toward the Emperor's hero, never onto an active hazard;
- activate a card whose attack reaches the Emperor's hero now, else one that brings the hero closer;
- defend with the prepared card of the highest defense; refresh when at most one card is prepared;
- end the turn when nothing scores better.
"""
from __future__ import annotations

import random
from typing import Any, ClassVar

from domain.emperor.grid import INF, grid_for

from ..protocol import Choice, SeatInput

#: Distances of the attack ranges (BASE-RANGE-1: MELEE 1, RANGED 1-3, AREA within 2).
REACH = {"MELEE": 1, "RANGED": 3, "AREA": 2}
HUMAN = "human"


class _Board:
    def __init__(self, view: dict[str, Any]):
        bf = view["battlefield"]
        self.grid = grid_for(bf["columns"], bf["rows"], frozenset(lo["cell"] for lo in bf["locations"]))
        self.hazards = {h["cell"] for h in bf["hazards"] if h.get("active")}
        self.warriors = {w["id"]: w for w in view["warriors"] if w.get("cell") and w.get("left", 1) > 0}
        self.enemy_hero = next((w for w in self.warriors.values() if w["side"] != HUMAN and w["kind"] == "hero"), None)
        self.my_hero = next((w for w in self.warriors.values() if w["side"] == HUMAN and w["kind"] == "hero"), None)
        hero = view["heroes"][HUMAN]
        self.cards = {c["id"]: c for c in hero["cards"]}
        self.stars = {s["name"]: s["text"] for s in hero.get("stars", ())}
        self.abilities = {lo["id"]: lo["ability"]["text"] for lo in bf["locations"] if lo.get("ability")}

    def dist(self, a: str, b: str) -> int:
        d = self.grid.dist(a, b)
        return 99 if d >= INF else d

    def to_enemy(self, cell: str) -> int:
        return self.dist(cell, self.enemy_hero["cell"]) if self.enemy_hero else 0


def _attack_reach(text: str) -> int | None:
    """``"ATTACK 2 RANGED"`` -> 3; None for an ability that is not an attack."""
    parts = text.replace("HELPER ", "").split()
    if not parts or parts[0] != "ATTACK":
        return None
    return next((REACH[p] for p in parts if p in REACH), 1)


def _score(b: _Board, cmd: dict[str, Any]) -> tuple[float, str]:
    t = cmd["type"]
    bonuses = len(cmd.get("bonuses") or ())
    if t == "attack":
        tgt = b.warriors.get(cmd.get("target") or "")
        if tgt is None:  # AREA: every enemy within 2
            return 8.0 + bonuses, "an area attack"
        if tgt["kind"] == "hero":
            return 12.0 + bonuses, f"attacks the Emperor's hero {tgt['name']}"
        return 6.0 + bonuses + (2.0 if tgt.get("left", 9) <= 2 else 0.0), f"attacks {tgt['name']}"
    if t == "push":
        end = cmd["path"][-1]
        tgt = b.warriors.get(cmd["target"])
        name = tgt["name"] if tgt else cmd["target"]
        if end in b.hazards:
            return 10.0, f"pushes {name} into a hazard"
        return 3.0 - 0.1 * bonuses, f"pushes {name}"
    if t in ("move", "march"):
        w = b.warriors.get(cmd.get("warrior") or "") or b.my_hero
        if w is None:
            return 0.0, "moves"
        to = cmd["to"]
        if to in b.hazards:
            return -20.0, f"would step onto a hazard at {to}"
        gain = b.to_enemy(w["cell"]) - b.to_enemy(to)
        near = 0.5 if b.to_enemy(to) >= 1 else -1.0
        return 1.0 + gain + near - 0.2 * bonuses, f"moves {w['name']} to {to} ({gain:+d} toward the Emperor's hero)"
    if t == "activate":
        card = b.cards.get(cmd["card"], {})
        abil = card.get("abilities", [])
        if b.my_hero is not None and b.enemy_hero is not None:
            d = b.to_enemy(b.my_hero["cell"])
            reaches = [r for r in (_attack_reach(a) for a in abil) if r is not None]
            if any(d <= r for r in reaches):
                return 9.0, f"activates {card.get('name', cmd['card'])}: its attack reaches the Emperor's hero"
            if any(a.startswith("MARCH") for a in abil) and reaches:
                return 5.0, f"activates {card.get('name', cmd['card'])} to march and attack"
            if any(a.startswith("MARCH") for a in abil):
                return 2.5, f"activates {card.get('name', cmd['card'])} to march"
        return 1.5, f"activates {card.get('name', cmd['card'])}"
    if t == "star":
        text = b.stars.get(cmd["choice"]) or b.abilities.get(cmd["choice"], "")
        reach = _attack_reach(text)
        if reach is not None and b.my_hero and b.enemy_hero and b.to_enemy(b.my_hero["cell"]) <= reach:
            return 7.0, f"uses {cmd['choice']} ({text}) on the Emperor's hero"
        return 2.0 if text.startswith(("MARCH", "PUSH")) else 1.0, f"uses {cmd['choice']} ({text})"
    if t == "defend":
        card = b.cards.get(cmd.get("card") or "")
        return (card.get("defense", 0) if card else 0) + 0.5 * bonuses, \
            f"defends with {card['name']}" if card else "defends without a card"
    if t == "refresh":
        prepared = sum(1 for c in b.cards.values() if c.get("prepared"))
        return (4.0 if prepared <= 1 else -1.0), "refreshes its cards"
    if t == "swap":
        return 0.2, "swaps places"
    if t == "skip":
        return 0.1, "skips the ability"
    if t == "end_turn":
        return 0.5, "ends the turn"
    return 0.0, t


class GreedyBot:
    id: ClassVar[str] = "greedy"
    title: ClassVar[str] = ("Greedy: attacks the Emperor's hero whenever it can, pushes enemies into hazards, "
                            "closes in without stepping on one (fast)")
    levels: ClassVar[tuple[int, ...]] = (1,)

    def choose(self, seat_input: SeatInput, rng: random.Random, level: int, playouts: int | None = None) -> Choice:
        b = _Board(seat_input.view)
        scored = [(_score(b, c), rng.random(), i) for i, c in enumerate(seat_input.legal)]
        (best, why), _, i = max(scored, key=lambda s: (s[0][0], s[1]))
        return Choice(command=seat_input.legal[i], explanation=f"greedy: {why}")  # UMPIRE-BOT-3: no score


BOTS = (GreedyBot(),)
