"""Helpers to run Clouds of Smoke games in process (tests and ops/bench_smoke.py)."""
from __future__ import annotations

import math
import random
import time
from typing import Any

import msgspec

from domain.kernel import RuleViolation, runner
from domain.smoke import commands as C
from domain.smoke.decider import SmokeRuleset
from scenarios.smoke import shipped


def ruleset() -> SmokeRuleset:
    return SmokeRuleset(shipped())


class Game(runner.Game):
    """A Clouds of Smoke game folded in memory: the kernel's runner (:class:`domain.kernel.runner.Game`)."""

    def __init__(self, rs: SmokeRuleset, battle: str, seed: bytes = b"\x07" * 32, options: dict | None = None,
                 game_id: str = "g1"):
        super().__init__(rs, battle, seed, options, game_id)

    @property
    def over(self) -> bool:
        return self.state.result is not None


def sample_template(rng: random.Random, t: dict[str, Any]) -> dict[str, Any]:
    """A random command inside a template's bounds."""
    cmd = dict(t["command"])
    b = t["bounds"]
    if cmd["type"] == "move" and cmd["kind"] == "simple":
        cmd["facing"] = rng.uniform(0, 360) if rng.random() < 0.5 else t["example"]["facing"]
        cmd["distance"] = rng.uniform(0, b["distance"]["speed"])
    elif cmd["type"] == "move":
        r = b["vector"]["max_length"] * math.sqrt(rng.random())
        a = rng.uniform(0, 2 * math.pi)
        cmd["vector"] = [r * math.cos(a), r * math.sin(a)]
        if rng.random() < 0.5:
            cmd["facing"] = rng.uniform(0, 360)
    elif cmd["type"] == "ride":
        c = b["to"]["center"]
        r = b["to"]["max_distance"] * math.sqrt(rng.random())
        a = rng.uniform(0, 2 * math.pi)
        cmd["to"] = [c[0] + r * math.cos(a), c[1] + r * math.sin(a)]
    elif cmd["type"] == "place_marker":
        cmd["at"] = [rng.uniform(b["at"]["x"]["min"], b["at"]["x"]["max"]),
                     rng.uniform(b["at"]["y"]["min"], b["at"]["y"]["max"])]
    elif cmd["type"] == "place_terrain":
        cmd["kind"] = rng.choice(b["kind"]["one_of"])
        cmd["at"] = [rng.uniform(b["at"]["x"]["min"], b["at"]["x"]["max"]),
                     rng.uniform(b["at"]["y"]["min"], b["at"]["y"]["max"])]
        cmd["rotation"] = rng.uniform(0, 360)
    elif cmd["type"] == "assign_columns":
        units = list(b["columns"]["partition_of"])
        rng.shuffle(units)
        n = b["columns"]["count"]
        cmd["columns"] = [units[i::n] for i in range(n)]
    elif cmd["type"] in ("place_fortification", "place_column"):
        zone = b["at"]["within_zone"]
        xs, ys = [p[0] for p in zone], [p[1] for p in zone]
        cmd["at"] = [rng.uniform(min(xs), max(xs)), rng.uniform(min(ys), max(ys))]
        if cmd["type"] == "place_fortification":
            cmd["facing"] = rng.choice([0, 90, 180, 270, rng.uniform(0, 360)])
            cmd["unit"] = rng.choice(b["unit"]["one_of"])
    elif cmd["type"] == "deploy_unit":
        m = b["at"]["of_marker"]
        r = b["at"]["within"] * math.sqrt(rng.random())
        a = rng.uniform(0, 2 * math.pi)
        cmd["at"] = [m[0] + r * math.cos(a), m[1] + r * math.sin(a)] if m else [rng.uniform(0, 30), rng.uniform(0, 22)]
        cmd["facing"] = rng.choice([90, 270, rng.uniform(0, 360)])
    elif cmd["type"] == "deploy_commander":
        cmd["at"] = [rng.uniform(b["at"]["x"]["min"], b["at"]["x"]["max"]),
                     rng.uniform(b["at"]["y"]["min"], b["at"]["y"]["max"])]
    elif cmd["type"] == "allocate_hits":
        cmd["units"] = rng.sample(list(b["units"]["subset_of"]), b["units"]["items"])
    elif cmd["type"] == "play_tactic":
        pool = list(b["units"]["subset_of"])
        k = rng.randint(0, min(len(pool), b["units"]["max_items"]))
        cmd["units"] = rng.sample(pool, k)
    return cmd


def toward_enemy(state, raw: dict[str, Any]) -> dict[str, Any]:
    """Point a simple move at the nearest enemy unit, at full speed (random play that meets the enemy)."""
    if raw.get("type") != "move" or raw.get("kind") != "simple":
        return raw
    u = state.units[raw["unit"]]
    enemies = [e for e in state.units.values() if state.enemy(u, e)]
    if not enemies:
        return raw
    e = min(enemies, key=lambda e: math.hypot(e.x - u.x, e.y - u.y))
    raw = dict(raw)
    raw["facing"] = math.degrees(math.atan2(e.y - u.y, e.x - u.x)) % 360
    return raw


def random_game(rs: SmokeRuleset, battle: str, seed: int, options: dict | None = None, max_commands: int = 20000,
                template_share: float = 0.5, check: Any = None, timings: dict[str, list[float]] | None = None) -> Game:
    """Random legal play: a listed command, or (``template_share`` of the time when there are templates)
    a random value inside a template's bounds; a refused template value is fine (it names its rule).
    ``timings``: the CPU seconds of the calling thread (``time.thread_time``: on a shared machine a call's
    wall time is mostly the scheduler's) of each ``legal_commands`` call and of each command's decide+evolve
    (``Game.do``, refused ones included) are appended to its lists "legal_commands" and "decide_evolve"; each
    decide+evolve also to "decide_evolve:<command type>" (which kinds of command make the tail)."""
    rng = random.Random(seed)
    g = Game(rs, battle, seed=seed.to_bytes(32, "big"), options=options, game_id=f"r{seed}")
    if timings is not None:
        g = _Timed(g, timings)
    dec = msgspec.convert
    while not g.over and g.commands < max_commands:
        seat = g.to_act()
        assert seat is not None, "a game that is not over has someone to act"
        if timings is not None:
            t0 = time.thread_time()
            cmds = rs.legal_commands(g.state, seat)
            timings.setdefault("legal_commands", []).append(time.thread_time() - t0)
        else:
            cmds = rs.legal_commands(g.state, seat)
        assert cmds, f"no legal command for {seat}"
        temps = rs.command_templates(g.state, seat)
        if temps and rng.random() < template_share:
            t = rng.choice(temps)
            raw = sample_template(rng, t)
            if rng.random() < 0.6:
                raw = toward_enemy(g.state, raw)
            cmd = dec(raw, rs.command_type)
            try:
                if check is not None:
                    check(g, seat, cmd, cmds)
                g.do(seat, cmd)
                continue
            except RuleViolation as exc:
                assert exc.rule.startswith("SMOKE-"), exc.rule
        cmd = _pick(rng, cmds)
        if check is not None:
            check(g, seat, cmd, cmds)
        g.do(seat, cmd)
    return g


class _Timed(Game):
    """A game whose ``do`` (decide + evolve) is timed (thread CPU time) into ``timings["decide_evolve"]``."""

    def __init__(self, g: Game, timings: dict[str, list[float]]):
        self.__dict__.update(g.__dict__)
        self._timings = timings.setdefault("decide_evolve", [])
        self._all = timings

    def do(self, seat, command):
        t0 = time.thread_time()
        try:
            return super().do(seat, command)
        finally:
            dt = time.thread_time() - t0
            self._timings.append(dt)
            self._all.setdefault(f"decide_evolve:{type(command).__name__}", []).append(dt)


def _pick(rng: random.Random, cmds: list[Any]) -> Any:
    """Prefer doing things over ending steps (so that random armies meet)."""
    enders = (C.EndActivation, C.EndActions, C.EndTactics, C.EndPlacement, C.Bombard)
    busy = [c for c in cmds if not isinstance(c, enders)]
    if busy and rng.random() < 0.85:
        return rng.choice(busy)
    return rng.choice(cmds)
