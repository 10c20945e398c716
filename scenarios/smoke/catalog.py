"""Load the Clouds of Smoke content into the engine's types (domain/smoke/content.py).

Layout of a content directory (default: this package's directory)::

    profiles.json       {"profiles": [Profile, ...]}        unit profiles (SMOKE-STAT)
    boards.json         {"boards": [Board, ...]}            action boards (SMOKE-ACT, SMOKE-TAC)
    factions.json       {"factions": [Faction, ...]}        faction lists (SMOKE-ARMY-1/2)
    preparations.json   {"preparations": [Preparation, ...]} (SMOKE-ARMY-5, GAP-B-04)
    terrain.json        {"kinds": [TerrainKind, ...]}       (SMOKE-TERR-7)
    armies/*.json       one ArmyList per file               (SMOKE-ARMY)
    battles/*.json      one Battle per file                 (SMOKE-SETUP, GAP-B-09)

Every file is decoded (msgspec), then checked against the rules it must obey: army building
(points, rare <= core, preparations), the table (zones, terrain, units on it and in their zone,
not overlapping), line-ups (seats player-1..n, two sides). Every problem names the file, the field
and what is wrong; :func:`read_content` returns them all, :func:`load_content` raises
:class:`~scenarios.loader.ContentError` listing them.
"""
from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
from shapely.geometry import LineString, Polygon

from domain.smoke import army as A
from domain.smoke.commanders import COMMANDER_RADIUS
from domain.smoke.content import (
    TRAITS, ArmyList, Battle, Board, Content, Faction, Preparation, Profile, TerrainKind, TerrainRow,
)
from domain.smoke.geometry import EPS, Box, overlap_depth, point_box_distance
from domain.smoke.units import parse_retreat
from scenarios.loader import ContentError, Problem, convert, read_json, rel, unknown_fields

DEFAULT_ROOT = Path(__file__).resolve().parent


class _Profiles(msgspec.Struct):
    profiles: list[Profile]


class _Boards(msgspec.Struct):
    boards: list[Board]


class _Factions(msgspec.Struct):
    factions: list[Faction]


class _Preparations(msgspec.Struct):
    preparations: list[Preparation]


class _Kinds(msgspec.Struct):
    kinds: list[TerrainKind]
    table: list[TerrainRow] = []


def _decode(path: Path, root: Path, type_: Any, problems: list[Problem]) -> Any:
    name = rel(path, root)
    raw, probs = read_json(path, root)
    if probs:
        problems += probs
        return None
    value, probs = convert(name, raw, type_)
    problems += probs
    if value is None:
        return None
    problems += unknown_fields(name, raw, type_)
    return value


def read_content(path: str | Path | None = None) -> tuple[Content, list[Problem]]:
    """Everything that loads, and every problem found (file, field, sentence)."""
    root = Path(path) if path is not None else DEFAULT_ROOT
    problems: list[Problem] = []
    files: dict[str, str] = {}

    def table(fname: str, type_: Any, attr: str) -> dict[str, Any]:
        p = root / fname
        out: dict[str, Any] = {}
        if not p.exists():
            problems.append(Problem(file=fname, field="", message="the file is missing."))
            return out
        doc = _decode(p, root, type_, problems)
        if doc is None:
            return out
        for i, item in enumerate(getattr(doc, attr)):
            if item.id in out:
                problems.append(Problem(file=fname, field=f"{attr}[{i}].id", message=f"duplicate id {item.id!r}."))
                continue
            out[item.id] = item
            files[item.id] = fname
        return out

    profiles = table("profiles.json", _Profiles, "profiles")
    boards = table("boards.json", _Boards, "boards")
    factions = table("factions.json", _Factions, "factions")
    preps = table("preparations.json", _Preparations, "preparations")
    kinds = table("terrain.json", _Kinds, "kinds")

    def many(folder: str, type_: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for p in sorted((root / folder).glob("*.json")) if (root / folder).is_dir() else []:
            doc = _decode(p, root, type_, problems)
            if doc is None:
                continue
            name = rel(p, root)
            if doc.id in out:
                problems.append(Problem(file=name, field="id", message=f"duplicate id {doc.id!r} (also in "
                                                                         f"{files[doc.id]})."))
                continue
            out[doc.id] = doc
            files[doc.id] = name
        return out

    table: tuple[TerrainRow, ...] = ()
    if (root / "terrain.json").exists():
        kd = _decode(root / "terrain.json", root, _Kinds, [])
        if kd is not None:
            table = tuple(kd.table)
            covered = sorted(t for r in table for t in range(r.low, r.high + 1))
            if table and covered != list(range(2, 13)):
                problems.append(Problem(file="terrain.json", field="table", message="the 2d6 rows cover 2..12 once "
                                                                                     "each (SMOKE-TGEN-3)."))
            for i, r in enumerate(table):
                for k in r.kinds:
                    if k not in kinds:
                        problems.append(Problem(file="terrain.json", field=f"table[{i}].kinds",
                                                message=f"unknown terrain kind {k!r}."))
    armies = many("armies", ArmyList)
    battles = many("battles", Battle)
    content = Content(profiles=profiles, boards=boards, factions=factions, preparations=preps, armies=armies,
                      terrain_kinds=kinds, battles=battles, terrain_table=table)
    problems += _check_profiles(content, files)
    problems += _check_boards(content, files)
    problems += _check_factions(content, files)
    for a in armies.values():
        for field, msg in A.problems(a, content):
            problems.append(Problem(file=files[a.id], field=field, message=msg))
    for b in battles.values():
        problems += _check_battle(b, content, files[b.id])
    return content, sorted(set(problems))


def _check_profiles(c: Content, files: dict[str, str]) -> list[Problem]:
    out = []
    for i, p in enumerate(c.profiles.values()):
        f = files[p.id]
        where = f"profiles[{i}]"
        for t in p.traits:
            if t not in TRAITS:
                out.append(Problem(file=f, field=f"{where}.traits", message=f"unknown trait {t!r} (SMOKE-SR; known: "
                                                                           f"{', '.join(TRAITS)})."))
        try:
            parse_retreat(p.retreat)
        except ValueError as exc:
            out.append(Problem(file=f, field=f"{where}.retreat", message=str(exc) + "."))
        if p.width <= 0 or p.depth <= 0:
            out.append(Problem(file=f, field=f"{where}.width", message="a base has a positive width and depth."))
        if p.speed[0] < 0 or p.speed[1] < 0:
            out.append(Problem(file=f, field=f"{where}.speed", message="speeds are 0 or more UW."))
        if p.discipline < 1 or p.discipline > 7:
            out.append(Problem(file=f, field=f"{where}.discipline", message="discipline is a d6 target (1..7)."))
        for j, w in enumerate(p.fire):
            if w.range <= 0 or w.dice < 1:
                out.append(Problem(file=f, field=f"{where}.fire[{j}]", message="a weapon has a positive range and dice."))
        if p.bombardment is not None and (p.bombardment.range <= 0 or p.bombardment.dice < 1):
            out.append(Problem(file=f, field=f"{where}.bombardment", message="positive range and dice."))
        for msg in A.bases_problems(p):
            out.append(Problem(file=f, field=f"{where}.bases", message=msg))
    return out


def _check_boards(c: Content, files: dict[str, str]) -> list[Problem]:
    out = []
    for b in c.boards.values():
        ids = [s.id for s in b.slots]
        for sid, n in Counter(ids).items():
            if n > 1:
                out.append(Problem(file=files[b.id], field=f"boards.{b.id}.slots", message=f"duplicate slot id {sid!r}."))
        for i, s in enumerate(b.slots):
            tag = type(s.effect).__struct_config__.tag
            action_kinds = ("activate", "ride")
            if (s.kind == "action") != (tag in action_kinds):
                out.append(Problem(file=files[b.id], field=f"boards.{b.id}.slots[{i}].effect",
                                   message=f"a {s.kind} cannot have the effect {tag!r}."))
            if s.kind == "action" and s.when != "any":
                out.append(Problem(file=files[b.id], field=f"boards.{b.id}.slots[{i}].when",
                                   message="only tactics are marked active/passive player (SMOKE-TAC-2)."))
    return out


def _check_factions(c: Content, files: dict[str, str]) -> list[Problem]:
    out = []
    for f in c.factions.values():
        if f.board not in c.boards:
            out.append(Problem(file=files[f.id], field=f"factions.{f.id}.board", message=f"unknown board {f.board!r}."))
        for pid in f.units:
            if pid not in c.profiles:
                out.append(Problem(file=files[f.id], field=f"factions.{f.id}.units.{pid}",
                                   message=f"unknown unit profile {pid!r}."))
    return out


def _within(poly: Polygon, b: Box) -> bool:
    return poly.buffer(EPS).contains(Polygon(b.corners()))


def own_edges(zone: Polygon, width: float, height: float) -> list[str]:
    """SMOKE-DEP-5 (FAQ-20): the table edge(s) a deployment zone overlaps most (the length of the edge
    inside the zone); a zone touching no edge: the nearest edge(s)."""
    lines = {"south": LineString([(0, 0), (width, 0)]), "north": LineString([(0, height), (width, height)]),
             "west": LineString([(0, 0), (0, height)]), "east": LineString([(width, 0), (width, height)])}
    grown = zone.buffer(EPS)
    over = {k: grown.intersection(ln).length for k, ln in lines.items()}
    best = max(over.values())
    if best > 2 * EPS:
        return [k for k, v in over.items() if v >= best - EPS]
    near = {k: zone.distance(ln) for k, ln in lines.items()}
    low = min(near.values())
    return [k for k, v in near.items() if v <= low + EPS]


def _check_battle(b: Battle, c: Content, f: str) -> list[Problem]:  # noqa: C901
    out: list[Problem] = []

    def bad(field: str, msg: str) -> None:
        out.append(Problem(file=f, field=field, message=msg))

    if b.width <= 0 or b.height <= 0:
        bad("width", "the table has a positive size.")
        return out
    table = Polygon([(0, 0), (b.width, 0), (b.width, b.height), (0, b.height)])
    if len(b.sides) != 2:
        bad("sides", "a battle has exactly two sides (several players may share a side, SMOKE-MP).")
    sids = [s.id for s in b.sides]
    if len(set(sids)) != len(sids):
        bad("sides", "side ids are unique.")
    if "draw" in sids:
        bad("sides", "\"draw\" is reserved for the result of a drawn game.")
    zones: dict[str, Polygon] = {}
    for i, s in enumerate(b.sides):
        if len(s.zone) < 3 or not Polygon(s.zone).is_valid:
            bad(f"sides[{i}].zone", "a deployment zone is a valid polygon of 3 or more points.")
            continue
        z = Polygon(s.zone)
        if not table.buffer(EPS).contains(z):
            bad(f"sides[{i}].zone", "the deployment zone lies on the table.")
        zones[s.id] = z
        if not b.confusion:
            most = own_edges(z, b.width, b.height)
            if s.edge not in most:
                bad(f"sides[{i}].edge", f"the own table edge is the one the deployment zone overlaps most "
                                        f"(SMOKE-DEP-5): {' or '.join(most)}, not {s.edge}.")
    for i, e in enumerate(b.terrain):
        k = c.terrain_kinds.get(e.kind)
        if k is None:
            bad(f"terrain[{i}].kind", f"unknown terrain kind {e.kind!r} (known: {', '.join(sorted(c.terrain_kinds))}).")
            continue
        if k.road:
            if len(e.line) < 2 or e.width <= 0:
                bad(f"terrain[{i}].line", "a road is a polyline of 2 or more points with a positive width.")
            elif not table.buffer(EPS).contains(LineString(e.line)):
                bad(f"terrain[{i}].line", "the road lies on the table.")
            continue
        if len(e.polygon) < 3 or not Polygon(e.polygon).is_valid:
            bad(f"terrain[{i}].polygon", "a terrain element is a valid (non self-crossing) polygon of 3 or more points.")
            continue
        if not table.buffer(EPS).contains(Polygon(e.polygon)):
            bad(f"terrain[{i}].polygon", "the terrain element lies on the table.")
    ids = [e.id for e in b.terrain]
    for eid, n in Counter(ids).items():
        if n > 1:
            bad("terrain", f"duplicate terrain id {eid!r}.")
    if b.first_side is not None and b.first_side not in sids:
        bad("first_side", f"{b.first_side!r} is not a side ({', '.join(sids)}).")
    if b.end.phase < 1:
        bad("end.phase", "the last phase is 1 or more.")
    if b.generate_terrain and b.deployment != "columns":
        bad("generate_terrain", "terrain is generated before the armies deploy (SMOKE-SETUP-1): only with a column "
                                "deployment.")
    counts = [lu.players for lu in b.line_ups]
    if not b.line_ups:
        bad("line_ups", "a battle has at least one line-up.")
    for n, k in Counter(counts).items():
        if k > 1:
            bad("line_ups", f"two line-ups for {n} players.")
    forts = [Polygon(e.polygon) for e in b.terrain if e.kind in c.terrain_kinds and c.terrain_kinds[e.kind].fortification
             and len(e.polygon) >= 3]
    for li, lu in enumerate(b.line_ups):
        base = f"line_ups[{li}]"
        if lu.players < 2:
            bad(f"{base}.players", "two or more players.")
        seats = [a.seat for a in lu.armies]
        if seats != [f"player-{i}" for i in range(1, len(seats) + 1)] or len(seats) != lu.players:
            bad(f"{base}.armies", f"the seats are player-1..player-{lu.players} in order.")
        for s in sids:
            if not any(a.side == s for a in lu.armies):
                bad(f"{base}.armies", f"side {s!r} has no army.")
        boxes: list[tuple[str, Box, str]] = []
        for ai, slot in enumerate(lu.armies):
            where = f"{base}.armies[{ai}]"
            if slot.side not in sids:
                bad(f"{where}.side", f"{slot.side!r} is not a side ({', '.join(sids)}).")
                continue
            al = c.armies.get(slot.army)
            if al is None:
                bad(f"{where}.army", f"unknown army list {slot.army!r}.")
                continue
            need = 1 + A.additional_commanders(al, c.preparations)
            if b.deployment == "columns":
                if slot.units or slot.commanders:
                    bad(f"{where}.units", "in a column deployment the players place the units and commanders "
                                          "(SMOKE-DEP-4): leave `units` and `commanders` empty.")
                continue
            want = Counter(A.expanded(al))
            got = Counter([p.profile for p in slot.units] + [p.profile for ev in lu.events if ev.seat == slot.seat
                                                             for p in ev.units])
            if not slot.units:
                bad(f"{where}.units", "this battle deploys its armies (SMOKE-ARMY-6): every unit of the army list is "
                                      "placed; a column deployment (SMOKE-DEP-2..4) is not supported yet.")
            elif want != got:
                missing = want - got
                extra = got - want
                bad(f"{where}.units", "the placed units differ from the army list " + slot.army
                    + (f" (missing: {dict(missing)})" if missing else "") + (f" (extra: {dict(extra)})" if extra else "")
                    + ".")
            for p in al.preparations:
                prep = c.preparations.get(p)
                if prep is not None and prep.effect != "additional_commander":
                    bad(f"{where}.army", f"the preparation {p} ({prep.effect}) needs a column deployment (SMOKE-DEP-6), "
                                         "which this battle does not use.")
            if len(slot.commanders) != need:
                bad(f"{where}.commanders", f"{need} commander figure(s): the general and one per additional commander "
                                           "(SMOKE-ARMY-3, SMOKE-CMDR-1).")
            for ci, cm in enumerate(slot.commanders):
                if not (COMMANDER_RADIUS <= cm.x <= b.width - COMMANDER_RADIUS
                        and COMMANDER_RADIUS <= cm.y <= b.height - COMMANDER_RADIUS):
                    bad(f"{where}.commanders[{ci}]", "the commander figure lies on the table.")
            zone = zones.get(slot.side)
            for ui, pl in enumerate(slot.units):
                prof = c.profiles.get(pl.profile)
                if prof is None:
                    bad(f"{where}.units[{ui}].profile", f"unknown unit profile {pl.profile!r}.")
                    continue
                bx = Box(pl.x, pl.y, pl.facing, prof.width, prof.depth)
                if not _within(table, bx):
                    bad(f"{where}.units[{ui}]", "the unit lies on the table.")
                elif zone is not None and not _within(zone, bx) and not prof.has("scout"):
                    bad(f"{where}.units[{ui}]", "the unit lies in its side's deployment zone (SMOKE-DEP-4).")
                boxes.append((f"{where}.units[{ui}]", bx, slot.side))
                for cm in slot.commanders:
                    if point_box_distance((cm.x, cm.y), bx) < COMMANDER_RADIUS - EPS:
                        bad(f"{where}.commanders", "a commander may not stand on a unit (SMOKE-CMD-2).")
            for ui, pl in enumerate(slot.units):
                prof = c.profiles.get(pl.profile)
                if prof is None or not prof.has("scout"):
                    continue
                bx = Box(pl.x, pl.y, pl.facing, prof.width, prof.depth)
                for s2, z2 in zones.items():
                    if s2 != slot.side and z2.distance(Polygon(bx.corners())) < 3:
                        bad(f"{where}.units[{ui}]", "a Scout is at least 3 UW from the enemy deployment zone "
                                                    "(SMOKE-SR-20).")
        for ei, ev in enumerate(lu.events):  # SMOKE-PHASE-1: scenario events by phase
            where = f"{base}.events[{ei}]"
            if ev.phase < 2:
                bad(f"{where}.phase", "a scenario event comes in phase 2 or later (the game starts in phase 1, "
                                      "SMOKE-PHASE-1).")
            if ev.phase > b.end.phase:
                bad(f"{where}.phase", f"the game ends with phase {b.end.phase}: phase {ev.phase} never comes.")
            if ev.seat not in seats:
                bad(f"{where}.seat", f"{ev.seat!r} is not a seat of this line-up.")
            if b.deployment == "columns":
                bad(f"{where}", "reinforcements take their places from the battle: only with a fixed deployment.")
            if not ev.units:
                bad(f"{where}.units", "reinforcements bring at least one unit.")
            for ui, pl in enumerate(ev.units):
                prof = c.profiles.get(pl.profile)
                if prof is None:
                    bad(f"{where}.units[{ui}].profile", f"unknown unit profile {pl.profile!r}.")
                    continue
                bx = Box(pl.x, pl.y, pl.facing, prof.width, prof.depth)
                if not _within(table, bx):
                    bad(f"{where}.units[{ui}]", "the unit lies on the table.")
                boxes.append((f"{where}.units[{ui}]", bx, ""))
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                if overlap_depth(boxes[i][1].corners(), boxes[j][1].corners()) > EPS:
                    bad(boxes[j][0], f"the unit overlaps {boxes[i][0]} (SMOKE-GEO-4).")
        for fi, fp in enumerate(forts):
            inside = [w for w, bx, _ in boxes if fp.contains(Polygon(bx.corners()).centroid)]
            if len(inside) > 1:
                bad(f"{base}", f"a fortification holds exactly one unit (SMOKE-TERR-8): {', '.join(inside)}.")
    return out


def load_content(path: str | Path | None = None) -> Content:
    content, problems = read_content(path)
    if problems:
        raise ContentError(problems)
    return content


@functools.lru_cache(maxsize=1)
def shipped() -> Content:
    """The shipped content, loaded once."""
    return load_content(None)


def lint(path: str | Path | None = None) -> list[Problem]:
    return read_content(path)[1]


def summary(path: str | Path | None = None) -> str:
    """The one-line "ok" summary of ``umpire scenarios lint`` for this content."""
    content, _ = read_content(path)
    return (f"{len(content.battles)} battles, {len(content.armies)} armies, {len(content.profiles)} unit profiles, "
            f"{len(content.boards)} action boards")
