"""What a seat may do now: discrete choices as concrete commands, continuous ones (moves, rides,
marker positions, unit subsets) as one concrete legal example each plus a template with its
stated bounds (``command_templates``, the kernel's optional protocol method). Any value inside a
template's bounds is either accepted or refused with the rule that forbids it."""
from __future__ import annotations

import math
from itertools import combinations, islice
from typing import Any

import msgspec

from domain.kernel import RuleViolation

from . import commands as C
from . import deployment as D
from . import terrain_gen as G
from .actions import activation_check, ride_check
from .battle import playable, providence_targets, tactic_limit, tactic_units
from .bombardment import bombard_refusal, eligible, retreat_options, targets
from .choices import COMPLEX_PATH, choice
from .commanders import COMMANDER_RADIUS
from .content import Activate, DisciplineBonus, Providence, Ride
from .formations import formations
from .movement import ROAD_BONUS, VIA_MAX, example_moves
from .state import ACTIONS, BATTLE_START, BATTLES, BOMBARD, SmokeState
from .turns import resolve_options, to_act, unfought
from .units import has


#: SMOKE-HIT-3: at most this many ways to pick the hit units are listed (the template bounds them all).
MAX_LISTED = 24


def _dice_by_face(a) -> list[int]:
    """One unplaced die per distinct face (dice of equal faces are interchangeable)."""
    seen: dict[int, int] = {}
    for i, f in enumerate(a.dice):
        if i not in a.used and f not in seen:
            seen[f] = i
    return sorted(seen.values(), key=lambda i: a.dice[i])


def _placed_by_face(a, sid: str) -> list[int]:
    seen: dict[int, int] = {}
    for i in a.placed.get(sid, ()):
        seen.setdefault(a.dice[i], i)
    return sorted(seen.values(), key=lambda i: a.dice[i])


def legal_commands(st: SmokeState, seat: str) -> list[Any]:  # noqa: C901
    if seat not in to_act(st):
        return []
    if st.broken is not None:
        return [C.Support(choice="support"), C.Support(choice="abandon")]
    if st.chooser is not None:
        return [C.ChooseFirst(side=s) for s in st.sides]
    if st.edge_chooser is not None:
        return [C.ChooseEdge(edge=e) for e in ("south", "north", "west", "east")]
    if st.generation is not None:
        return _generation_choices(st, seat)
    if st.deployment is not None:
        return _deployment_choices(st, seat)
    t = st.turn
    assert t is not None
    if t.step == BOMBARD:
        if t.bombard_retreat is not None:
            return [C.Retreat(direction="edge"), C.Retreat(direction="back")]
        pend = [l for l in t.losses if l.left > 0]
        if pend:
            l = pend[0]
            return [C.TakeLoss(unit=None)] + [C.TakeLoss(unit=u) for u in sorted({o[0] for o in retreat_options(st, l)})]
        out: list[Any] = []
        for u in eligible(st, seat):
            if u.id in t.aims:
                continue
            for key in targets(st, u):
                out.append(C.Aim(unit=u.id, target=key))
        return out + ([C.Bombard()] if bombard_refusal(st, seat) is None else [])
    if t.step == ACTIONS:
        a = t.actions
        if a is None:
            return []
        if a.stage in ("risk", "place"):
            out = [C.TakeRisk()] if a.stage == "risk" and a.risk_left > 0 and st.armies[seat].can_risk else []
            board = st.board_of(seat)
            for i in _dice_by_face(a):
                for s in board.slots:
                    out.append(C.PlaceDie(die=i, slot=s.id))
            return out + [C.EndPlacement()]
        if a.stage == "resolve":
            if a.activation is not None:
                act = a.activation
                out = []
                for uid in act.units:
                    if uid in act.moved or uid not in st.units:
                        continue
                    if has(st, st.units[uid], "immobile") and uid in t.bombarded:
                        continue
                    for kind, facing, distance, vector in example_moves(st, st.units[uid], act.simple_bonus,
                                                                        act.simple_only):
                        out.append(C.Move(unit=uid, kind=kind, facing=facing, distance=distance, vector=vector))
                return out + [C.EndActivation()]
            return _action_choices(st, seat) + [C.EndActions()]
        return []
    if t.step == BATTLE_START:
        offer = t.marker_offer
        if offer is None:
            return []
        return [C.PlaceMarker(at=p) for p in offer.points]
    if t.step == BATTLES:
        b = t.battle
        if b is None:
            return [C.Fight(marker=g[0]) for g in unfought(st)]
        if b.step == "tactics":
            out = []
            for slot, d in playable(st, seat):
                if isinstance(slot.effect, Providence):
                    out += [C.PlayTactic(slot=slot.id, target=x) for x in providence_targets(st, seat)]
                elif isinstance(slot.effect, DisciplineBonus):
                    ch, _ = tactic_units(st, seat, slot)
                    out.append(C.PlayTactic(slot=slot.id, units=tuple(sorted(u.id for u in ch))[:tactic_limit(slot, d)]))
                else:
                    out.append(C.PlayTactic(slot=slot.id))
            return out + [C.EndTactics()]
        if b.step == "allocate":
            c = b.choices[0]
            return [C.AllocateHits(units=combo) for combo in islice(combinations(c.among, c.count), MAX_LISTED)]
        if b.retreat is not None:
            return [C.Retreat(direction="edge"), C.Retreat(direction="back")]
        return [C.ResolveHits(unit=u, retreat=r) for u, r in resolve_options(st, seat)]
    return []


def _generation_choices(st: SmokeState, seat: str) -> list[Any]:
    g = st.generation
    assert g is not None
    if not g.chosen:
        return [C.ChooseQuarters(diagonal="sw_ne"), C.ChooseQuarters(diagonal="nw_se")]
    if not g.options or not g.queue:
        return []
    x0, y0, x1, y1 = G.quarter_box(st, g.queue[0][1])
    out = []
    for kind in g.options:
        for fx, fy in ((0.5, 0.5), (0.3, 0.5), (0.7, 0.5)):
            p = (round(x0 + (x1 - x0) * fx, 3), round(y0 + (y1 - y0) * fy, 3))
            try:
                G.place_check(st, seat, kind, p, 0.0)
            except RuleViolation:
                continue
            out.append(C.PlaceTerrain(kind=kind, at=p, rotation=0.0))
            break
    return out


def _generation_templates(st: SmokeState, seat: str) -> list[dict[str, Any]]:
    g = st.generation
    if g is None or not g.options or not g.queue:
        return []
    x0, y0, x1, y1 = G.quarter_box(st, g.queue[0][1])
    ex = _generation_choices(st, seat)
    return [{"command": {"type": "place_terrain"},
             "bounds": {"kind": {"one_of": list(g.options)}, "at": {"x": {"min": x0, "max": x1}, "y": {"min": y0, "max": y1}},
                        "rotation": {"min": 0, "max": 360}},
             "rules": ["SMOKE-TGEN-2", "SMOKE-TGEN-3"], "example": msgspec.to_builtins(ex[0]) if ex else None}]


def _deployment_choices(st: SmokeState, seat: str) -> list[Any]:
    """One concrete legal example of each deployment decision (the values are continuous)."""
    cur = D.current(st)
    if cur is None:
        return []
    stage = cur[0]
    if stage == "columns":
        return [C.AssignColumns(columns=D.example_columns(st, seat))]
    if stage == "forts":
        ex = D.example_fortification(st, seat)
        return [C.PlaceFortification(at=ex[0], facing=ex[1], unit=ex[2])] if ex else []
    if stage == "markers":
        ex = D.example_column(st, seat)
        return [C.PlaceColumn(column=ex[0], at=ex[1])] if ex else []
    if stage == "units":
        out: list[Any] = []
        for u in sorted((u for u in st.reserve.values() if u.seat == seat), key=lambda u: u.id):
            ex = D.example_unit(st, seat, u.id)
            if ex is not None:
                out.append(C.DeployUnit(unit=u.id, at=ex[0], facing=ex[1]))
                break  # one unit at a time keeps the list short; the template covers the rest
        for c in sorted((c for c in st.reserve_commanders.values() if c.seat == seat), key=lambda c: c.id):
            ex = D.example_commander(st, seat, c.id)
            if ex is not None:
                out.append(C.DeployCommander(commander=c.id, at=ex))
        return out
    return []


def _deployment_templates(st: SmokeState, seat: str) -> list[dict[str, Any]]:
    cur = D.current(st)
    if cur is None:
        return []
    assert st.battle is not None
    W, H = st.battle.width, st.battle.height
    zone = [list(p) for p in st.battle.side(st.armies[seat].side).zone]  # type: ignore[union-attr]
    stage = cur[0]
    ex = _deployment_choices(st, seat)
    out: list[dict[str, Any]] = []
    if stage == "columns":
        out.append({"command": {"type": "assign_columns"},
                    "bounds": {"columns": {"count": st.armies[seat].level,
                                           "partition_of": sorted(u.id for u in st.reserve.values() if u.seat == seat)}},
                    "rules": ["SMOKE-SETUP-3", "SMOKE-DEP-2"], "example": msgspec.to_builtins(ex[0])})
    elif stage == "forts":
        out.append({"command": {"type": "place_fortification"},
                    "bounds": {"at": {"within_zone": zone}, "facing": {"min": 0, "max": 360},
                               "unit": {"one_of": sorted(u.id for u in st.reserve.values() if u.seat == seat)}},
                    "rules": ["SMOKE-DEP-6", "SMOKE-TERR-8"], "example": msgspec.to_builtins(ex[0]) if ex else None})
    elif stage == "markers":
        done = {m.number for m in st.deployment.markers if m.seat == seat}  # type: ignore[union-attr]
        for n in range(1, len(st.deployment.columns.get(seat, ())) + 1):  # type: ignore[union-attr]
            if n not in done:
                at = D.example_column(st, seat, n)
                out.append({"command": {"type": "place_column", "column": n}, "bounds": {"at": {"within_zone": zone}},
                            "rules": ["SMOKE-DEP-3"],
                            "example": msgspec.to_builtins(C.PlaceColumn(column=n, at=at[1])) if at else None})
    elif stage == "units":
        markers = {m.number: [m.x, m.y] for m in st.deployment.markers if m.seat == seat}  # type: ignore[union-attr]
        for u in sorted((u for u in st.reserve.values() if u.seat == seat), key=lambda u: u.id):
            n = D._column_of(st, u.id)
            scout = "scout" in st.profiles[u.profile].traits
            e = next((c for c in ex if isinstance(c, C.DeployUnit) and c.unit == u.id), None)
            if e is None:  # the choices name one unit at a time: the others' examples are made here
                spot = D.example_unit(st, seat, u.id)
                e = C.DeployUnit(unit=u.id, at=spot[0], facing=spot[1]) if spot is not None else None
            out.append({"command": {"type": "deploy_unit", "unit": u.id},
                        "bounds": {"at": {"within": D.COLUMN_RADIUS, "of_marker": markers.get(n), "whole_unit": True,
                                          "or_scout_anywhere_from_enemy": D.SCOUT_DISTANCE if scout else None},
                                   "facing": {"min": 0, "max": 360}},
                        "rules": ["SMOKE-DEP-4"] + (["SMOKE-SR-20"] if scout else []),
                        "example": msgspec.to_builtins(e) if e else None})
        for c in sorted((c for c in st.reserve_commanders.values() if c.seat == seat), key=lambda c: c.id):
            e = next((x for x in ex if isinstance(x, C.DeployCommander) and x.commander == c.id), None)
            out.append({"command": {"type": "deploy_commander", "commander": c.id},
                        "bounds": {"at": {"x": {"min": COMMANDER_RADIUS, "max": W - COMMANDER_RADIUS},
                                          "y": {"min": COMMANDER_RADIUS, "max": H - COMMANDER_RADIUS}}},
                        "rules": ["SMOKE-DEP-4"], "example": msgspec.to_builtins(e) if e else None})
    return out


def _action_choices(st: SmokeState, seat: str) -> list[Any]:
    t = st.turn
    assert t is not None and t.actions is not None
    a = t.actions
    board = st.board_of(seat)
    out: list[Any] = []
    commanders = sorted(c.id for c in st.commanders.values() if c.seat == seat)
    for s in board.slots:
        if s.kind != "action" or not a.placed.get(s.id):
            continue
        for die in _placed_by_face(a, s.id):
            if isinstance(s.effect, Activate):
                seen: set[str] = set()
                for key, members in sorted(formations(st).items()):
                    owner = st.units[members[0]].seat
                    if owner != seat and not (st.options.get("allied_command")
                                              and st.armies[owner].side == st.armies[seat].side):
                        continue
                    for cid in commanders:
                        if key in seen:
                            break
                        try:
                            activation_check(st, seat, s.id, die, cid, key)
                        except RuleViolation:
                            continue
                        seen.add(key)
                        out.append(C.Activate(slot=s.id, die=die, commander=cid, unit=key))
            elif isinstance(s.effect, Ride):
                for cid in commanders:
                    to = ride_example(st, seat, s.id, die, cid)
                    if to is not None:
                        out.append(C.Ride(slot=s.id, die=die, commander=cid, to=to))
    return out


def ride_example(st: SmokeState, seat: str, sid: str, die: int, cid: str) -> tuple[float, float] | None:
    """A legal destination: toward the nearest own unit, else any free spot in reach."""
    c = st.commanders[cid]
    slot = st.board_of(seat).slot(sid)
    assert slot is not None
    limit = slot.effect.distance.value(st.turn.actions.dice[die])  # type: ignore[union-attr]
    own = sorted((u for u in st.units.values() if u.seat == seat), key=lambda u: math.hypot(u.x - c.x, u.y - c.y))
    tries = []
    for u in own[:3]:
        dx, dy = u.x - c.x, u.y - c.y
        dd = math.hypot(dx, dy) or 1.0
        for k in (1.0, 0.75, 0.5, 0.25):
            s = min(limit, dd) * k
            tries.append((c.x + dx / dd * s, c.y + dy / dd * s))
    for ang in range(0, 360, 45):
        for k in (1.0, 0.5, 0.25):
            tries.append((c.x + math.cos(math.radians(ang)) * limit * k, c.y + math.sin(math.radians(ang)) * limit * k))
    for x, y in tries:
        p = (round(x, 3), round(y, 3))
        try:
            ride_check(st, seat, sid, die, cid, p)
        except RuleViolation:
            continue
        return p
    return None


def command_templates(st: SmokeState, seat: str) -> list[dict[str, Any]]:
    """Templates: ``command`` (the fixed fields), ``bounds`` (the free fields and their ranges),
    ``example`` (a concrete legal command). A template with no concrete legal example is not listed."""
    return [t for t in _templates(st, seat) if t.get("example") is not None]


def _templates(st: SmokeState, seat: str) -> list[dict[str, Any]]:
    if seat not in to_act(st):
        return []
    if st.generation is not None:
        return _generation_templates(st, seat)
    if st.deployment is not None:
        return _deployment_templates(st, seat)
    if st.turn is None:
        return []
    t = st.turn
    out: list[dict[str, Any]] = []
    assert st.battle is not None
    W, H = st.battle.width, st.battle.height
    if t.step == ACTIONS and t.actions is not None and t.actions.stage == "resolve":
        a = t.actions
        if a.activation is not None:
            act = a.activation
            for uid in act.units:
                if uid in act.moved or uid not in st.units:
                    continue
                u = st.units[uid]
                p = st.profiles[u.profile]
                ex = {k: (kd, f, d, v) for kd, f, d, v in example_moves(st, u, act.simple_bonus, act.simple_only)
                      for k in [kd]}
                if p.speed[0] > 0:
                    top = p.speed[0] + act.simple_bonus
                    # SMOKE-TERR-6: the road bonus only for a move that starts touching a road
                    road = ROAD_BONUS if st.terrain().touches_road(u.box()) else 0.0
                    kd, f, d, v = ex.get("simple", ("simple", u.facing, 0.0, None))
                    out.append({
                        "command": {"type": "move", "unit": uid, "kind": "simple"},
                        "bounds": {"facing": {"min": 0, "max": 360, "unit": "degrees"},
                                   "distance": {"min": 0, "max": top + road, "unit": "UW",
                                                "speed": top, "road_bonus": road}},
                        "rules": ["SMOKE-MOVE-3", "SMOKE-GEO-17", "SMOKE-TERR-1", "SMOKE-TERR-2", "SMOKE-TERR-6"],
                        "example": msgspec.to_builtins(C.Move(unit=uid, kind="simple", facing=f, distance=d)),
                    })
                if not act.simple_only and p.speed[1] > 0:
                    kd, f, d, v = ex.get("complex", ("complex", None, None, (0.0, 0.0)))
                    bounds: dict[str, Any] = {"vector": {"max_length": p.speed[1], "unit": "UW"},
                                              "facing": {"min": 0, "max": 360, "unit": "degrees", "optional": True}}
                    rules = ["SMOKE-MOVE-4", "SMOKE-MOVE-6", "SMOKE-GEO-17"]
                    if choice(st, COMPLEX_PATH) == "path":  # the points on the way, offsets from the start
                        bounds["via"] = {"max_points": VIA_MAX, "unit": "UW", "optional": True,
                                         "path_length": p.speed[1]}
                        rules.append(COMPLEX_PATH)
                    out.append({
                        "command": {"type": "move", "unit": uid, "kind": "complex"},
                        "bounds": bounds,
                        "rules": rules,
                        "example": msgspec.to_builtins(C.Move(unit=uid, kind="complex", vector=v)),
                    })
        else:
            board = st.board_of(seat)
            for s in board.slots:
                if s.kind != "action" or not isinstance(s.effect, Ride):
                    continue
                for die in _placed_by_face(a, s.id):
                    for c in sorted((c for c in st.commanders.values() if c.seat == seat), key=lambda c: c.id):
                        to = ride_example(st, seat, s.id, die, c.id)
                        limit = s.effect.distance.value(a.dice[die])
                        out.append({
                            "command": {"type": "ride", "slot": s.id, "die": die, "commander": c.id},
                            "bounds": {"to": {"center": [c.x, c.y], "max_distance": limit,
                                              "x": {"min": COMMANDER_RADIUS, "max": W - COMMANDER_RADIUS},
                                              "y": {"min": COMMANDER_RADIUS, "max": H - COMMANDER_RADIUS}}},
                            "rules": ["SMOKE-CMD-2", "SMOKE-GEO-16"],
                            "example": msgspec.to_builtins(C.Ride(slot=s.id, die=die, commander=c.id, to=to))
                            if to else None,
                        })
    if t.step == BATTLE_START and t.marker_offer is not None:
        o = t.marker_offer
        out.append({
            "command": {"type": "place_marker"},
            "bounds": {"at": {"x": {"min": 0, "max": W}, "y": {"min": 0, "max": H},
                              "must_cover": o.best, "of": list(o.eligible), "radius": 2.0,
                              "excluding_seats": list(o.forbidden)}},
            "rules": ["SMOKE-MARK-3", "SMOKE-GEO-15", "SMOKE-MP-4"],
            "example": msgspec.to_builtins(C.PlaceMarker(at=o.points[0])),
        })
    if t.step == BATTLES and t.battle is not None and t.battle.step == "allocate" and t.battle.choices:
        c = t.battle.choices[0]
        out.append({
            "command": {"type": "allocate_hits"},
            "bounds": {"units": {"subset_of": list(c.among), "items": c.count}},
            "rules": ["SMOKE-HIT-3"],
            "example": msgspec.to_builtins(C.AllocateHits(units=c.among[:c.count])),
        })
    if t.step == BATTLES and t.battle is not None and t.battle.step == "tactics":
        for slot, d in playable(st, seat):
            if isinstance(slot.effect, DisciplineBonus):
                ch, vets = tactic_units(st, seat, slot)
                lim = tactic_limit(slot, d)
                ids = sorted(u.id for u in ch)
                out.append({
                    "command": {"type": "play_tactic", "slot": slot.id},
                    "bounds": {"units": {"subset_of": ids, "max_items": lim, "veterans_always": sorted(v.id for v in vets)}},
                    "rules": ["SMOKE-TAC-3", "SMOKE-SR-7"],
                    "example": msgspec.to_builtins(C.PlayTactic(slot=slot.id, units=tuple(ids[:lim]))),
                })
    return out
