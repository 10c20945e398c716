"""Column deployment (SMOKE-SETUP-3, SMOKE-DEP-2..6, SMOKE-SR-20, SMOKE-TERR-8).

Each player splits its army into as many columns as its commander's level and numbers them in
secret (the one piece of hidden information of the game: only that seat sees its columns until they
are revealed). The players place their fortifications with a unit inside, then their numbered column
markers in their own zone; the columns are revealed; then each player places every unit wholly
within 2 UW of its column's marker (Scouts may instead go anywhere 3 UW from the enemy) and its
commanders anywhere. With a deployment bonus the players without it do all of that first
(SMOKE-DEP-6). Then the markers are removed and the first turn begins.

Over 500 lines on purpose: every placement of the deployment (fortifications, column markers, units,
commanders) shares its zones, its checks and its example search; they are one stage of the game.
"""
from __future__ import annotations

import math
from typing import Any

from shapely.geometry import Point as SPoint
from shapely.geometry import Polygon

from domain.kernel import RuleViolation, RulingBuilder
from domain.kernel.messages import Message, joined, msg, msg_n

from .column_search import candidates
from .commanders import COMMANDER_RADIUS, overlaps_unit, own_edge
from .content import TerrainElement
from .events import (
    ColumnPlaced, ColumnsAssigned, ColumnsRevealed, CommanderDeployed, DeploymentEnded, DeploymentStarted,
    DeploymentStepDone, FortificationPlaced, UnitDeployed,
)
from .geometry import EPS, Box, box_overlap_depth, dist, point_box_distance
from .seat_words import seat_words
from .state import SmokeState, memo
from .turn_start import start_turn

#: SMOKE-DEP-4: every unit of a column within this many UW of its marker (INFERRED: the whole unit,
#: measured from the marker's centre).
COLUMN_RADIUS = 2.0
#: SMOKE-SR-20: a Scout's distance from enemy units, column markers and deployment zone.
SCOUT_DISTANCE = 3.0
#: SMOKE-TERR-8 (PROPOSED, GAP-B-04): a fortification is its unit's base plus this much all round.
FORTIFICATION_MARGIN = 0.2
FACING_TO = {"south": 90.0, "north": 270.0, "west": 0.0, "east": 180.0}
#: SMOKE-DEP-2: the dice stream of the secret salts (two draws of 62 bits each).
SECRET_STREAM = "secret"
SALT_SIDES = 1 << 62


def _r(v: float) -> float:
    return round(v, 4)


def steps_for(state: SmokeState) -> tuple[tuple[tuple[str, str], ...], dict[str, int]]:
    """SMOKE-DEP-3/4/6: the order of the deployment steps."""
    order = [s for side in state.side_order for s in state.seats_of_side(side)]
    preps = {s: state.armies[s].preparations for s in order}
    forts = {s: sum(1 for p in preps[s] if p == "fortification") for s in order}
    bonus = [s for s in order if "deployment_bonus" in preps[s]]
    steps: list[tuple[str, str]] = [("columns", "*")]
    if not bonus:
        steps += [("forts", s) for s in order if forts[s]]
        steps += [("markers", s) for s in order]
        steps += [("reveal", "*")]
        steps += [("units", s) for s in order]
    else:
        for s in [x for x in order if x not in bonus] + bonus:
            if forts[s]:
                steps.append(("forts", s))
            steps += [("markers", s), ("reveal", s), ("units", s)]
    return tuple(steps), forts


def start(out: Any) -> None:
    st: SmokeState = out.state
    steps, forts = steps_for(st)
    rb = RulingBuilder().add("SMOKE-SETUP-3", msg("Each player splits its army into as many columns as its "
                                                  "commander's level, numbered in secret (SMOKE-DEP-2)."))
    if any(forts.values()):
        rb.add("SMOKE-DEP-6", msg("Fortifications are placed first, each with its unit inside."))
    if any(stage == "reveal" and seat != "*" for stage, seat in steps):
        rb.add("SMOKE-DEP-6", msg("A deployment bonus: the players without it deploy completely first."))
    out.emit(DeploymentStarted(steps=steps, forts={k: v for k, v in forts.items() if v}), rb,
             summary=msg("deployment by columns"))


def current(st: SmokeState) -> tuple[str, str] | None:
    d = st.deployment
    if d is None or d.step >= len(d.steps):
        return None
    return d.steps[d.step]


def to_act(st: SmokeState) -> tuple[str, ...]:
    cur = current(st)
    if cur is None:
        return ()
    stage, seat = cur
    if stage == "columns":
        return tuple(s for s in st.seats if s not in st.deployment.columns)  # type: ignore[union-attr]
    if stage == "reveal":
        return ()
    return (seat,)


def advance(out: Any) -> bool:
    """Close finished steps; True when the deployment has ended (or there is none)."""
    for _ in range(1000):
        st: SmokeState = out.state
        d = st.deployment
        if d is None:
            return True
        cur = current(st)
        if cur is None:
            out.emit(DeploymentEnded(), RulingBuilder().add("SMOKE-DEP-4", msg("Deployment is complete: the column markers are "
                                                                               "removed.")), summary=msg("deployment ends"))
            start_turn(out, out.state.side_order[0])
            return True
        stage, seat = cur
        done = False
        if stage == "columns":
            done = all(s in d.columns for s in st.seats)
        elif stage == "forts":
            done = d.forts.get(seat, 0) <= 0
        elif stage == "markers":
            done = len([m for m in d.markers if m.seat == seat]) >= len(d.columns.get(seat, ()))
        elif stage == "reveal":
            seats = tuple(s for s in st.seats if s not in d.revealed) if seat == "*" else (seat,)
            out.emit(ColumnsRevealed(columns={s: d.columns[s] for s in seats}),
                     RulingBuilder().add("SMOKE-DEP-3", msg("The players reveal which column each number is: "
                                                            "{columns}.", columns=joined([msg("{seat}: {columns}", seat=seat_words(s), columns=joined(
                                             [msg_n("{number} = {count} unit(s)", "{number} = {count} unit(s)", "count",
                                                    number=i + 1, count=len(c)) for i, c in enumerate(d.columns[s])],
                                             ", ")) for s in seats], "; "))),
                     summary=msg("columns revealed"))
            done = True
        elif stage == "units":
            done = (not any(u.seat == seat for u in st.reserve.values())
                    and not any(c.seat == seat for c in st.reserve_commanders.values()))
        if not done:
            return False
        out.emit(DeploymentStepDone(stage=stage, seat=seat), RulingBuilder().add(
            "SMOKE-DEP-4" if stage == "units" else "SMOKE-DEP-3",
            msg("Deployment: {stage} of {seat} done.", stage=stage, seat=seat_words(seat)) if seat != "*"
            else msg("Deployment: {stage} done.", stage=stage)), summary=msg("{stage} done", stage=stage))
    return False


def _stage(st: SmokeState, seat: str, stage: str) -> None:
    cur = current(st)
    if cur is None or cur[0] != stage or (cur[1] != "*" and cur[1] != seat):
        now = f"{cur[0]} ({cur[1]})" if cur else "over"
        raise RuleViolation("SMOKE-SETUP-1", msg("The deployment step now is {now}, not {stage} for {seat}.",
                                                 now=now, stage=stage, seat=seat_words(seat)))


# -- columns (SMOKE-SETUP-3, SMOKE-DEP-2) --------------------------------------------------------
def assign_columns(out: Any, seat: str, columns: tuple[tuple[str, ...], ...]) -> None:
    st: SmokeState = out.state
    _stage(st, seat, "columns")
    if seat in st.deployment.columns:  # type: ignore[union-attr]
        raise RuleViolation("SMOKE-DEP-2", msg("Your columns are already numbered."))
    level = st.armies[seat].level
    if len(columns) != level:
        raise RuleViolation("SMOKE-SETUP-3", msg("The number of columns equals your commander's level: {level} "
                                                 "({count} given).", level=level, count=len(columns)), columns=len(columns))
    mine = sorted(u.id for u in st.reserve.values() if u.seat == seat)
    given = [u for c in columns for u in c]
    if sorted(given) != mine:
        missing = sorted(set(mine) - set(given))
        extra = sorted(set(given) - set(mine))
        twice = sorted({u for u in given if given.count(u) > 1})
        faults = ([msg("missing: {units}", units=", ".join(missing))] if missing else []) \
            + ([msg("not yours: {units}", units=", ".join(extra))] if extra else []) \
            + ([msg("twice: {units}", units=", ".join(twice))] if twice else [])
        raise RuleViolation("SMOKE-SETUP-3", msg("Every unit goes into exactly one column{faults}.",
                                                 faults=joined(["", *faults], "; ")))
    cols = tuple(tuple(c) for c in columns)
    # a secret salt drawn from the game's seed: the log's public hash chain covers this event, and without
    # it an opponent could hash every possible split of the columns and find the one recorded
    salt = "".join(f"{out.dice.value(SALT_SIDES, SECRET_STREAM):016x}" for _ in range(2))
    out.emit(ColumnsAssigned(seat=seat, count=len(cols), columns=cols, salt=salt),
             RulingBuilder().add("SMOKE-DEP-2", msg("{seat} numbers its {count} columns in secret.",
                                                    seat=seat_words(seat), count=len(cols))),
             summary=msg("{seat} numbers its columns", seat=seat_words(seat)), visibility=seat, reveals=True)


def example_columns(st: SmokeState, seat: str) -> tuple[tuple[str, ...], ...]:
    level = st.armies[seat].level
    mine = sorted(u.id for u in st.reserve.values() if u.seat == seat)
    return tuple(tuple(mine[i::level]) for i in range(level))


# -- fortifications (SMOKE-DEP-6, SMOKE-TERR-8) ----------------------------------------------------
def zone_of(st: SmokeState, seat: str) -> Polygon:
    assert st.battle is not None
    side = st.battle.side(st.armies[seat].side)
    assert side is not None
    return Polygon(side.zone)


def fort_polygon(b: Box) -> tuple[tuple[float, float], ...]:
    g = Box(b.cx, b.cy, b.theta, b.w + 2 * FORTIFICATION_MARGIN, b.d + 2 * FORTIFICATION_MARGIN)
    return tuple((_r(x), _r(y)) for x, y in g.corners())


def fortification_check(st: SmokeState, seat: str, at, facing: float, uid: str) -> tuple[Box, tuple]:
    _stage(st, seat, "forts")
    u = st.reserve.get(uid)
    if u is None or u.seat != seat:
        raise RuleViolation("SMOKE-DEP-6", msg("{unit} is not one of your units still to deploy.", unit=repr(uid)), unit=uid)
    x, y, f = float(at[0]), float(at[1]), float(facing)
    if not all(math.isfinite(v) for v in (x, y, f)):
        raise RuleViolation("SMOKE-DEP-6", msg("The position must be finite numbers."), field="at")
    b = Box(x, y, f % 360.0, u.w, u.d)
    poly = fort_polygon(b)
    if not zone_of(st, seat).buffer(EPS).contains(Polygon(poly)):
        raise RuleViolation("SMOKE-DEP-6", msg("A fortification is placed in your own deployment zone (INFERRED)."),
                            at=[x, y])
    g = Box(x, y, f % 360.0, u.w + 2 * FORTIFICATION_MARGIN, u.d + 2 * FORTIFICATION_MARGIN)
    for o in st.units.values():
        if box_overlap_depth(g, o.box()) > EPS:
            raise RuleViolation("SMOKE-TERR-8", msg("The fortification would overlap {id}.", id=o.id), other=o.id)
    return b, poly


def place_fortification(out: Any, seat: str, at, facing: float, uid: str) -> None:
    st: SmokeState = out.state
    b, poly = fortification_check(st, seat, at, facing, uid)
    n = sum(1 for e in st.battle.terrain if e.kind == "fortification") + 1  # type: ignore[union-attr]
    el = TerrainElement(id=f"FORT-{seat[-1]}-{n}", kind="fortification", polygon=poly)
    out.emit(FortificationPlaced(seat=seat, element=el, unit=uid, x=_r(b.cx), y=_r(b.cy), facing=_r(b.theta)),
             RulingBuilder().add("SMOKE-DEP-6", msg("{seat} places a fortification with {unit} inside it.",
                                                    seat=seat_words(seat), unit=uid))
             .add("SMOKE-TERR-8", msg("A fortification holds exactly one unit.")), summary=msg("{seat} fortifies {unit}",
                                                                                          seat=seat_words(seat), unit=uid))


# -- column markers (SMOKE-DEP-3) -----------------------------------------------------------------
def column_check(st: SmokeState, seat: str, n: int, at) -> tuple[float, float]:
    _stage(st, seat, "markers")
    level = len(st.deployment.columns.get(seat, ()))  # type: ignore[union-attr]
    if not 1 <= n <= level:
        raise RuleViolation("SMOKE-DEP-3", msg("Your columns are numbered 1..{level}.", level=level), column=n)
    if any(m.seat == seat and m.number == n for m in st.deployment.markers):  # type: ignore[union-attr]
        raise RuleViolation("SMOKE-DEP-3", msg("Column {n}'s marker is already placed.", n=n), column=n)
    x, y = float(at[0]), float(at[1])
    if not (math.isfinite(x) and math.isfinite(y)) or not zone_of(st, seat).buffer(EPS).contains(SPoint(x, y)):
        raise RuleViolation("SMOKE-DEP-3", msg("A column marker goes in your own deployment zone."), at=[at[0], at[1]])
    return x, y


def place_column(out: Any, seat: str, n: int, at) -> None:
    x, y = column_check(out.state, seat, n, at)
    out.emit(ColumnPlaced(seat=seat, number=n, x=x, y=y),
             RulingBuilder().add("SMOKE-DEP-3", msg("{seat} places the marker of column {n}.", seat=seat_words(seat), n=n)),
             summary=msg("{seat}: column {n} marker", seat=seat_words(seat), n=n))


def example_column(st: SmokeState, seat: str, number: int | None = None) -> tuple[int, tuple[float, float]] | None:
    """A legal place for the marker of column ``number`` (default: the first not placed yet), None when none is
    left to place."""
    d = st.deployment
    assert d is not None
    level = len(d.columns.get(seat, ()))
    done = {m.number for m in d.markers if m.seat == seat}
    todo = [n for n in range(1, level + 1) if n not in done]
    if not todo or (number is not None and number not in todo):
        return None
    z = zone_of(st, seat)
    x0, y0, x1, y1 = z.bounds
    n = todo[0] if number is None else number
    p = (round(x0 + (x1 - x0) * (n - 0.5) / level, 3), round((y0 + y1) / 2, 3))
    if not z.contains(SPoint(p)):
        c = z.representative_point()
        p = (round(c.x, 3), round(c.y, 3))
    return n, p


# -- units and commanders (SMOKE-DEP-4, SMOKE-SR-20) -------------------------------------------------
def _column_of(st: SmokeState, uid: str) -> int | None:
    u = st.reserve.get(uid) or st.units.get(uid)
    cols = st.deployment.columns.get(u.seat, ()) if u and st.deployment else ()
    for i, c in enumerate(cols):
        if uid in c:
            return i + 1
    return None


def deploy_check(st: SmokeState, seat: str, uid: str, at, facing: float) -> tuple[Box, dict[str, Any]]:
    _stage(st, seat, "units")
    u = st.reserve.get(uid)
    if u is None or u.seat != seat:
        raise RuleViolation("SMOKE-DEP-4", msg("{unit} is not one of your units still to deploy.", unit=repr(uid)), unit=uid)
    x, y, f = float(at[0]), float(at[1]), float(facing)
    if not all(math.isfinite(v) for v in (x, y, f)):
        raise RuleViolation("SMOKE-DEP-4", msg("The position must be finite numbers."), field="at")
    b = Box(x, y, f % 360.0, u.w, u.d)
    assert st.battle is not None and st.deployment is not None
    W, H = st.battle.width, st.battle.height
    if any(cx < -1e-9 or cy < -1e-9 or cx > W + 1e-9 or cy > H + 1e-9 for cx, cy in b.corners()):
        raise RuleViolation("SMOKE-GEO-1", msg("{unit} must lie on the table.", unit=uid), unit=uid)
    for o in st.units.values():
        if box_overlap_depth(b, o.box()) > EPS:
            raise RuleViolation("SMOKE-GEO-4", msg("{unit} would overlap {id}.", unit=uid, id=o.id), unit=uid, other=o.id)
    terrain = st.terrain()
    fort = terrain.fortification_of(b)
    if fort is not None and any(terrain.fortification_of(o.box()) == fort for o in st.units.values()):
        raise RuleViolation("SMOKE-TERR-8", msg("The fortification {fort} holds exactly one unit.", fort=fort), unit=uid)
    n = _column_of(st, uid)
    marker = next((m for m in st.deployment.markers if m.seat == seat and m.number == n), None)
    measure: dict[str, Any] = {"column": n}
    if marker is not None:
        far = max(dist((marker.x, marker.y), c) for c in b.corners())
        measure.update(marker=[marker.x, marker.y], farthest_corner=_r(far))
        if far <= COLUMN_RADIUS + EPS:
            return b, measure
    if "scout" in st.profiles[u.profile].traits:
        why = scout_problem(st, seat, b)
        if why is None:
            measure["scout"] = True
            return b, measure
        raise RuleViolation("SMOKE-SR-20", msg("{unit} is neither within {radius:g} UW of its column's marker nor "
                                               "{scout:g} UW from the enemy ({why}).",
                                               unit=uid, radius=COLUMN_RADIUS, scout=SCOUT_DISTANCE, why=why), unit=uid)
    if column_spot(st, seat, uid) is None and zone_of(st, seat).buffer(EPS).contains(Polygon(b.corners())):
        measure["no_room"] = True  # INFERRED: a full column's unit goes anywhere in the own zone
        return b, measure
    said = (msg("{unit} (column {column}) must lie wholly within {radius:g} UW of its column's marker (its farthest "
                "corner is {distance:.3f} UW away).", unit=uid, column=n, radius=COLUMN_RADIUS,
                distance=measure["farthest_corner"]) if marker else
            msg("{unit} (column {column}) must lie wholly within {radius:g} UW of its column's marker.", unit=uid,
                column=n, radius=COLUMN_RADIUS))
    raise RuleViolation("SMOKE-DEP-4", said, unit=uid, **measure)


def scout_clearance(st: SmokeState, seat: str, b: Box) -> tuple[float, str]:
    """For the ruling (SMOKE-SR-20): the scout's distance to the nearest enemy unit, enemy column marker or
    enemy deployment zone, rectangle to rectangle (to the marker's centre, to the zone's edge), and what it is."""
    side = st.armies[seat].side
    poly = Polygon(b.corners())
    found: list[tuple[float, str]] = []
    for o in st.units.values():
        if st.armies[o.seat].side != side:
            found.append((poly.distance(Polygon(o.box().corners())), o.id))
    for m in st.deployment.markers if st.deployment else ():
        if st.armies[m.seat].side != side:
            found.append((point_box_distance((m.x, m.y), b), f"the marker of {m.seat}'s column {m.number}"))
    assert st.battle is not None
    for s in st.battle.sides:
        if s.id != side:
            found.append((Polygon(s.zone).distance(poly), f"the deployment zone of side {s.id}"))
    return min(found, default=(math.inf, "nothing"))


def scout_problem(st: SmokeState, seat: str, b: Box) -> "Message | None":
    side = st.armies[seat].side
    poly = Polygon(b.corners())
    for o in st.units.values():
        if st.armies[o.seat].side != side and poly.distance(Polygon(o.box().corners())) < SCOUT_DISTANCE:
            return msg("{unit} is nearer", unit=o.id)
    for m in st.deployment.markers if st.deployment else ():
        if st.armies[m.seat].side != side and point_box_distance((m.x, m.y), b) < SCOUT_DISTANCE:
            return msg("the marker of {seat}'s column {number} is nearer", seat=seat_words(m.seat), number=m.number)
    assert st.battle is not None
    for s in st.battle.sides:
        if s.id != side and Polygon(s.zone).distance(poly) < SCOUT_DISTANCE:
            return msg("the enemy deployment zone is nearer")
    return None


def deploy_unit(out: Any, seat: str, uid: str, at, facing: float) -> None:
    st: SmokeState = out.state
    b, m = deploy_check(st, seat, uid, at, facing)
    rb = RulingBuilder()
    if m.get("scout"):
        gap, what = scout_clearance(st, seat, b)
        far = (msg("its farthest corner is {distance:.3f} UW from its column {column}'s marker at ({x:.3f}, "
                   "{y:.3f}), beyond {radius:g} UW, but ", distance=m["farthest_corner"], column=m["column"],
                   x=m["marker"][0], y=m["marker"][1], radius=COLUMN_RADIUS) if "marker" in m else "")
        rb.add("SMOKE-SR-20", msg("{unit} is a Scout: {far}it is {gap:.3f} UW from the nearest enemy ({what}, "
                                  "rectangle to rectangle), at least {scout_distance:g} UW.",
                                  unit=uid, far=far, gap=gap, what=what, scout_distance=SCOUT_DISTANCE))
    else:
        if "marker" in m and not m.get("no_room"):
            rb.add("SMOKE-DEP-4", msg("{unit} is wholly within {column_radius:g} UW of its column {column}'s "
                                      "marker at ({marker_x:.3f}, {marker_y:.3f}) (its farthest corner "
                                      "{farthest_corner:.3f} UW from the marker's centre).",
                                      unit=uid, column_radius=COLUMN_RADIUS, column=m['column'], marker_x=m['marker'][0], marker_y=m['marker'][1], farthest_corner=m['farthest_corner']), **m)
        else:
            rb.add("SMOKE-DEP-4", msg("{unit} goes in its own deployment zone: its column {column} has no room "
                                      "left (INFERRED).", unit=uid, column=m['column']), **m)
    out.emit(UnitDeployed(seat=seat, unit=uid, x=_r(b.cx), y=_r(b.cy), facing=_r(b.theta), measure=m), rb,
             summary=msg("{seat} deploys {unit}", seat=seat_words(seat), unit=uid))


def commander_check(st: SmokeState, seat: str, cid: str, at) -> tuple[float, float]:
    _stage(st, seat, "units")
    c = st.reserve_commanders.get(cid)
    if c is None or c.seat != seat:
        raise RuleViolation("SMOKE-DEP-4", msg("{commander} is not one of your commanders still to deploy.",
                                               commander=repr(cid)), commander=cid)
    x, y = float(at[0]), float(at[1])
    assert st.battle is not None
    r = COMMANDER_RADIUS
    if not (math.isfinite(x) and math.isfinite(y)) or not (r <= x <= st.battle.width - r
                                                          and r <= y <= st.battle.height - r):
        raise RuleViolation("SMOKE-GEO-16", msg("{commander}'s figure must stay on the table.", commander=cid), at=[at[0], at[1]])
    on = [u.id for u in st.units.values() if overlaps_unit((x, y), u)]
    if on:
        raise RuleViolation("SMOKE-CMD-2", msg("A commander may not stand on a unit ({on}).", on=', '.join(on)), units=on)
    return x, y


def deploy_commander(out: Any, seat: str, cid: str, at) -> None:
    x, y = commander_check(out.state, seat, cid, at)
    out.emit(CommanderDeployed(seat=seat, commander=cid, x=x, y=y),
             RulingBuilder().add("SMOKE-DEP-4", msg("{commander} may be placed anywhere.", commander=cid)), summary=msg("{seat} places {commander}",
                                                                                               seat=seat_words(seat), commander=cid))


class _Room:
    """What a placement must not hit, computed once per search: the units' boxes with their bounding
    boxes, and the fortifications already holding a unit (SMOKE-TERR-8)."""

    def __init__(self, st: SmokeState, near: list | None = None):
        assert st.battle is not None
        self.W, self.H = st.battle.width, st.battle.height
        self.boxes = [(ob, ob.bbox()) for ob in (o.box() for o in (st.units.values() if near is None else near))]
        self.terrain = st.terrain()
        self.forts = self.terrain.has_fortifications()
        self.held = ({self.terrain.fortification_of(o.box()) for o in st.units.values()} - {None}
                     if self.forts else set())

    def fits(self, b: Box) -> bool:
        """On the table, overlapping no unit, and not in an occupied fortification."""
        W, H = self.W, self.H
        if any(cx < -1e-9 or cy < -1e-9 or cx > W + 1e-9 or cy > H + 1e-9 for cx, cy in b.corners()):
            return False
        x0, y0, x1, y1 = b.bbox()
        cx, cy = b.cx, b.cy
        for ob, (a0, b0, a1, b1) in self.boxes:
            if x1 < a0 or a1 < x0 or y1 < b0 or b1 < y0:
                continue  # bounding boxes apart: no overlap
            if (a0 < cx < a1 and b0 < cy < b1 and point_box_distance((cx, cy), ob) == 0.0
                    and min(b.w, b.d) > 2 * EPS and min(ob.w, ob.d) > EPS):
                return False  # its centre is in the unit: they overlap by min(its half size, the unit's size)
            if box_overlap_depth(b, ob) > EPS:
                return False
        if not self.forts:
            return True
        fort = self.terrain.fortification_of(b)
        return fort is None or fort not in self.held


def column_spot(st: SmokeState, seat: str, uid: str) -> tuple[tuple[float, float], float] | None:
    """A free place wholly within 2 UW of the unit's column marker, if there is one (a deterministic
    search: rings 0.1 UW apart, four facings; the first candidate in that order that is on the table,
    overlaps no unit and is not in an occupied fortification); None means the column is full."""
    def find() -> tuple[tuple[float, float], float] | None:
        u = st.reserve[uid]
        facing = FACING_TO[own_edge(st, seat)]
        n = _column_of(st, uid)
        marker = next((m for m in st.deployment.markers if m.seat == seat and m.number == n), None)  # type: ignore[union-attr]
        if marker is None:
            return None
        assert st.battle is not None
        cands = candidates(marker.x, marker.y, facing, u.w, u.d, COLUMN_RADIUS)
        near = [o.box() for o in st.units.values() if abs(o.x - marker.x) < 4 and abs(o.y - marker.y) < 4]
        terrain = st.terrain()
        held = frozenset({terrain.fortification_of(o.box()) for o in st.units.values()} - {None}
                         if terrain.has_fortifications() else ())
        W, H = st.battle.width, st.battle.height
        # Units are only added during a deployment: a candidate found taken stays taken (one unit's overlap
        # does not depend on the others; an occupied fortification stays occupied), so the search resumes
        # where the last one for these candidates stopped when that table held a subset of today's.
        rkey = (marker.x, marker.y, facing, u.w, u.d, W, H, st.battle.terrain)
        boxes = frozenset(near)
        start = 0
        prev = _RESUME.get(rkey)
        if prev is not None and prev[1] <= boxes and prev[2] <= held:
            start = prev[0]
        i = cands.first_free(near, W, H, (lambda i: terrain.fortification_of(cands.spot(i)[2]) not in held)
                             if held else None, start)
        if len(_RESUME) >= 4096:
            _RESUME.clear()
        _RESUME[rkey] = (len(cands) if i is None else i, boxes, held)
        if i is None:
            return None
        p, f, _ = cands.spot(i)
        return p, f

    markers = st.deployment.markers if st.deployment else ()
    return memo(st, "column_spot", find, uid, markers)


#: Where the last search of a marker's candidates (and table) stopped, and the units and occupied
#: fortifications it saw (bounded).
_RESUME: dict[tuple, tuple[int, frozenset, frozenset]] = {}


def zone_spot(st: SmokeState, seat: str, uid: str) -> tuple[tuple[float, float], float] | None:
    u = st.reserve[uid]
    facing = FACING_TO[own_edge(st, seat)]
    z = zone_of(st, seat)
    x0, y0, x1, y1 = z.bounds
    zz = z.buffer(EPS)
    room = _Room(st)
    y = y0 + 0.5
    while y < y1:
        x = x0 + 0.6
        while x < x1:
            b = Box(round(x, 3), round(y, 3), facing, u.w, u.d)
            if zz.contains(Polygon(b.corners())) and room.fits(b):
                return (b.cx, b.cy), facing
            x += 0.5
        y += 0.5
    return None


def example_unit(st: SmokeState, seat: str, uid: str) -> tuple[tuple[float, float], float] | None:
    """A legal spot for ``uid``: near its column's marker, or (a full column) in the own zone."""
    return column_spot(st, seat, uid) or zone_spot(st, seat, uid)


def example_commander(st: SmokeState, seat: str, cid: str) -> tuple[float, float] | None:
    z = zone_of(st, seat)
    x0, y0, x1, y1 = z.bounds
    for fy in (0.15, 0.5, 0.85):
        for fx in (0.5, 0.3, 0.7, 0.1, 0.9):
            p = (round(x0 + (x1 - x0) * fx, 3), round(y0 + (y1 - y0) * fy, 3))
            try:
                commander_check(st, seat, cid, p)
            except RuleViolation:
                continue
            return p
    return None


def example_fortification(st: SmokeState, seat: str) -> tuple[tuple[float, float], float, str] | None:
    facing = FACING_TO[own_edge(st, seat)]
    mine = sorted(u.id for u in st.reserve.values() if u.seat == seat)
    if not mine:
        return None
    z = zone_of(st, seat)
    x0, y0, x1, y1 = z.bounds
    for fx in (0.5, 0.3, 0.7, 0.15, 0.85):
        p = (round(x0 + (x1 - x0) * fx, 3), round((y0 + y1) / 2, 3))
        try:
            fortification_check(st, seat, p, facing, mine[0])
        except RuleViolation:
            continue
        return p, facing, mine[0]
    return None
