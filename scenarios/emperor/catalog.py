"""Load the Emperor content into the engine's types (domain/emperor/content.py).

Layout of a content directory (default: this package's directory)::

    heroes/*.json        one hero per file (cards in action-row order, star abilities, helper)
    solo/*.json          one solo card per file (the Emperor's card for that hero)
    orders/*.json        one order deck per file
    battlefields/*.json  one battlefield per file (grid, locations, hazards)
    setups/*.json        one setup (a playable game: battlefield, deck, both heroes and cells)

Every file is decoded (msgspec, unknown fields reported), then the semantic checks run; every
problem of every file is collected, each naming the file, the field and the problem
(``scenarios/loader.py``).
"""
from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

from domain.emperor.cards import CARD_POLICIES
from domain.emperor.content import (
    Ability, Battlefield, Catalog, Direction, Hero, OrderDeck, Setup, SoloCard,
)
from domain.emperor.grid import valid_label
from scenarios.loader import ContentError, Problem, convert, read_json, unknown_fields

DEFAULT_ROOT = Path(__file__).resolve().parent
KINDS: dict[str, Any] = {"heroes": Hero, "solo": SoloCard, "orders": OrderDeck, "battlefields": Battlefield,
                         "setups": Setup}
MAX_SIDE = 26


def _display(path: Path) -> str:
    try:
        r = os.path.relpath(path)
    except ValueError:
        return path.as_posix()
    return Path(r).as_posix() if not r.startswith("..") else path.as_posix()


def read_catalog(path: str | os.PathLike[str] | None = None) -> tuple[Catalog, list[Problem]]:
    """Decode and check every content file under ``path``; the catalog of what decoded, and every problem."""
    root = Path(path) if path is not None else DEFAULT_ROOT
    if not root.is_dir():
        return Catalog(), [Problem(file=_display(root), field="", message="is not a content directory.")]
    if not any((root / kind).is_dir() for kind in KINDS):
        folders = ", ".join(f"{k}/" for k in KINDS)
        return Catalog(), [Problem(file=_display(root), field="",
                                   message=f"holds none of {folders}: not an Emperor content directory.")]
    problems: list[Problem] = []
    found: dict[str, list[tuple[str, Any]]] = {k: [] for k in KINDS}
    for kind, type_ in KINDS.items():
        d = root / kind
        for f in sorted(d.glob("*.json")) if d.is_dir() else []:
            name = _display(f)
            raw, ps = read_json(f, root)
            if ps:
                problems += [Problem(file=name, field=p.field, message=p.message) for p in ps]
                continue
            if not isinstance(raw, dict):
                problems.append(Problem(file=name, field="", message=f"a {kind} file holds one JSON object."))
                continue
            obj, ps = convert(name, raw, type_)
            problems += ps + unknown_fields(name, raw, type_)
            if obj is not None:
                found[kind].append((name, obj))
    cat, ps = check(found)
    return cat, problems + ps


def check(found: dict[str, list[tuple[str, Any]]]) -> tuple[Catalog, list[Problem]]:
    """The semantic checks: ids unique, references known, cells inside the grid and free."""
    problems: list[Problem] = []
    P = problems.append
    ids: dict[str, dict[str, Any]] = {k: {} for k in KINDS}
    sources: dict[str, str] = {}
    for kind, items in found.items():
        for file, obj in items:
            key = obj.hero if kind == "solo" else obj.id
            if key in ids[kind]:
                P(Problem(file=file, field="hero" if kind == "solo" else "id",
                          message=f"{key!r} is defined twice (also in {sources[f'{kind}:{key}']})."))
                continue
            ids[kind][key] = obj
            sources[f"{kind}:{key}"] = file
    card_owner: dict[str, str] = {}
    for hid, h in ids["heroes"].items():
        problems += _check_hero(sources[f"heroes:{hid}"], h, card_owner)
    for bid, bf in ids["battlefields"].items():
        problems += _check_battlefield(sources[f"battlefields:{bid}"], bf)
    all_locations = {lo.id for bf in ids["battlefields"].values() for lo in bf.locations}
    for hid, s in ids["solo"].items():
        problems += _check_solo(sources[f"solo:{hid}"], s, ids["heroes"], all_locations)
    for did, deck in ids["orders"].items():
        problems += _check_deck(sources[f"orders:{did}"], deck)
    for sid, su in ids["setups"].items():
        problems += _check_setup(sources[f"setups:{sid}"], su, ids)
    cat = Catalog(heroes=ids["heroes"], solo=ids["solo"], decks=ids["orders"], battlefields=ids["battlefields"],
                  setups=ids["setups"], sources=sources)
    return cat, problems


_ALLOWED_ON_CARD = ("ATTACK", "PUSH", "MARCH", "HELPER_ATTACK", "STAR", "SWAP")
_ALLOWED_STAR = ("ATTACK", "PUSH", "MARCH")
_ALLOWED_FALLBACK = ("WOUND", "HEAL", "ATTACK", "PUSH", "MARCH")


def _check_ability(file: str, field: str, a: Ability, allowed: tuple[str, ...], hero: Hero | None) -> list[Problem]:
    out = []
    if a.kind not in allowed:
        out.append(Problem(file=file, field=f"{field}.kind", message=f"{a.kind} is not allowed here; use one of: "
                                                                     f"{', '.join(allowed)}."))
        return out
    if a.kind in ("ATTACK", "PUSH") and a.range is None:
        out.append(Problem(file=file, field=f"{field}.range", message=f"{a.kind} needs a range symbol (MELEE, RANGED "
                                                                      "or AREA, BASE-RANGE-1)."))
    if a.kind == "PUSH" and a.range == "AREA":  # GAP-A-30
        out.append(Problem(file=file, field=f"{field}.range", message="PUSH AREA is not part of the PROPOSED model "
                                                                      "(BASE-PUSH-1 gives a push one target and one "
                                                                      "path); use MELEE or RANGED."))
    if a.kind in ("MARCH", "HELPER_ATTACK", "STAR", "SWAP", "WOUND", "HEAL") and a.range is not None:
        out.append(Problem(file=file, field=f"{field}.range", message=f"{a.kind} takes no range symbol."))
    if a.kind not in ("STAR", "SWAP") and a.value < 1:
        out.append(Problem(file=file, field=f"{field}.value", message=f"{a.kind} needs a value of at least 1."))
    if a.kind == "HELPER_ATTACK" and hero is not None and hero.helper is None:
        out.append(Problem(file=file, field=f"{field}.kind", message=f"HELPER_ATTACK needs a helper; {hero.name} has "
                                                                     "none."))
    if a.boost is not None and a.boost.amount < 1:
        out.append(Problem(file=file, field=f"{field}.boost.amount", message="a crest boost adds at least 1."))
    return out


def _check_hero(file: str, h: Hero, card_owner: dict[str, str]) -> list[Problem]:
    out = []
    if h.health < 1 or h.movement < 0:
        out.append(Problem(file=file, field="health", message="a hero needs health >= 1 and movement >= 0."))
    if not h.cards:
        out.append(Problem(file=file, field="cards", message="a hero needs at least one action card (BASE-CARD-1)."))
    for i, c in enumerate(h.cards):
        if c.id in card_owner:
            out.append(Problem(file=file, field=f"cards[{i}].id", message=f"card id {c.id!r} is also used by "
                                                                          f"{card_owner[c.id]}; card ids are unique "
                                                                          "across the content."))
        card_owner[c.id] = h.id
        if c.defense < 0:
            out.append(Problem(file=file, field=f"cards[{i}].defense", message="a defense value is never negative."))
        if not c.abilities:
            out.append(Problem(file=file, field=f"cards[{i}].abilities", message="a card has at least one ability."))
        for j, a in enumerate(c.abilities):
            out += _check_ability(file, f"cards[{i}].abilities[{j}]", a, _ALLOWED_ON_CARD, h)
    names = set()
    for i, s in enumerate(h.stars):
        if s.name in names:
            out.append(Problem(file=file, field=f"stars[{i}].name", message=f"star ability {s.name!r} is listed twice."))
        names.add(s.name)
        out += _check_ability(file, f"stars[{i}].ability", s.ability, _ALLOWED_STAR, h)
    if h.helper is not None and (h.helper.health < 1 or h.helper.defense < 0):
        out.append(Problem(file=file, field="helper", message="a helper needs health >= 1 and defense >= 0."))
    return out


def _check_battlefield(file: str, bf: Battlefield) -> list[Problem]:
    out = []
    if not (2 <= bf.columns <= MAX_SIDE and 2 <= bf.rows <= 99):
        out.append(Problem(file=file, field="columns", message=f"a battlefield is 2..{MAX_SIDE} columns and 2..99 rows."))
        return out
    used: dict[str, str] = {}
    loc_ids = set()
    for i, lo in enumerate(bf.locations):
        if lo.id in loc_ids:
            out.append(Problem(file=file, field=f"locations[{i}].id", message=f"location {lo.id!r} is listed twice."))
        loc_ids.add(lo.id)
        if not valid_label(lo.cell, bf.columns, bf.rows):
            out.append(Problem(file=file, field=f"locations[{i}].cell", message=f"{lo.cell!r} is not a cell of this "
                                                                                f"{bf.columns}x{bf.rows} grid."))
        elif lo.cell in used:
            out.append(Problem(file=file, field=f"locations[{i}].cell", message=f"{lo.cell} already holds {used[lo.cell]}."))
        used[lo.cell] = lo.id
        for j, b in enumerate(lo.bonuses):
            if b.count not in (1, 2):
                out.append(Problem(file=file, field=f"locations[{i}].bonuses[{j}].count",
                                   message="a bonus symbol is single (1) or double (2)."))
        if lo.ability is not None:
            out += _check_ability(file, f"locations[{i}].ability.ability", lo.ability.ability, _ALLOWED_STAR, None)
    hz_ids = set()
    for i, hz in enumerate(bf.hazards):
        if hz.id in hz_ids:
            out.append(Problem(file=file, field=f"hazards[{i}].id", message=f"hazard {hz.id!r} is listed twice."))
        hz_ids.add(hz.id)
        if not valid_label(hz.cell, bf.columns, bf.rows):
            out.append(Problem(file=file, field=f"hazards[{i}].cell", message=f"{hz.cell!r} is not a cell of this "
                                                                              f"{bf.columns}x{bf.rows} grid."))
        elif hz.cell in used:
            out.append(Problem(file=file, field=f"hazards[{i}].cell", message=f"{hz.cell} already holds "
                                                                              f"{used[hz.cell]} (hazards lie on "
                                                                              "ordinary empty cells, BASE-HAZ-1)."))
        used[hz.cell] = hz.id
        if hz.active_while is not None and hz.active_while not in loc_ids:
            out.append(Problem(file=file, field=f"hazards[{i}].active_while",
                               message=f"{hz.active_while!r} is not a location of this battlefield."))
    return out


def _check_direction(file: str, field: str, d: Direction) -> list[Problem]:
    out = []
    for r, f in [(d.requirement, f"{field}.requirement")] + [(o.requirement, f"{field}.overrides[{i}].requirement")
                                                             for i, o in enumerate(d.overrides)]:
        if r.kind == "DIST_ENEMY_HERO" and r.distance < 1:
            out.append(Problem(file=file, field=f"{f}.distance", message="DIST_ENEMY_HERO needs a distance >= 1."))
    return out


def _check_solo(file: str, s: SoloCard, heroes: dict[str, Hero], locations: set[str]) -> list[Problem]:
    out = []
    h = heroes.get(s.hero)
    if h is None:
        return [Problem(file=file, field="hero", message=f"no hero {s.hero!r} in heroes/.")]
    out += _check_direction(file, "direction", s.direction)
    if s.helper_direction is not None:
        out += _check_direction(file, "helper_direction", s.helper_direction)
        if h.helper is None:
            out.append(Problem(file=file, field="helper_direction", message=f"{h.name} has no helper."))
    stars = {x.name for x in h.stars}
    for i, e in enumerate(s.star_priority):
        if e.kind == "hero_star" and e.name not in stars:
            out.append(Problem(file=file, field=f"star_priority[{i}].name",
                               message=f"{e.name!r} is not a star ability of {h.name} ({', '.join(sorted(stars))})."))
        if e.kind == "location" and e.name not in locations:
            out.append(Problem(file=file, field=f"star_priority[{i}].name",
                               message=f"{e.name!r} is not a location of any battlefield."))
    out += _check_ability(file, "fallback.ability", s.fallback.ability, _ALLOWED_FALLBACK, h)
    return out


def _check_deck(file: str, deck: OrderDeck) -> list[Problem]:
    out = []
    if not deck.cards:
        out.append(Problem(file=file, field="cards", message="an order deck needs at least one card."))
    if deck.card_policy not in CARD_POLICIES:
        out.append(Problem(file=file, field="card_policy", message=f"{deck.card_policy!r} is not a card-choice policy "
                                                                   f"the engine knows ({', '.join(CARD_POLICIES)})."))
    seen = set()
    for i, c in enumerate(deck.cards):
        if c.id in seen:
            out.append(Problem(file=file, field=f"cards[{i}].id", message=f"order card {c.id!r} is listed twice."))
        seen.add(c.id)
        if not c.steps:
            out.append(Problem(file=file, field=f"cards[{i}].steps", message="an order card lists at least one step."))
        if c.refresh_value < 0:
            out.append(Problem(file=file, field=f"cards[{i}].refresh_value", message="never negative."))
    return out


def _check_setup(file: str, su: Setup, ids: dict[str, dict[str, Any]]) -> list[Problem]:
    out = []
    bf = ids["battlefields"].get(su.battlefield)
    if bf is None:
        out.append(Problem(file=file, field="battlefield", message=f"no battlefield {su.battlefield!r}."))
    if su.order_deck not in ids["orders"]:
        out.append(Problem(file=file, field="order_deck", message=f"no order deck {su.order_deck!r}."))
    cells: dict[str, str] = {}
    for side in ("human", "emperor"):
        pl = getattr(su, side)
        h = ids["heroes"].get(pl.hero)
        if h is None:
            out.append(Problem(file=file, field=f"{side}.hero", message=f"no hero {pl.hero!r} in heroes/."))
            continue
        if side == "emperor" and pl.hero not in ids["solo"]:
            out.append(Problem(file=file, field="emperor.hero", message=f"the Emperor needs {h.name}'s solo card "
                                                                        "(solo/) to play it (SOLO-GAME-3)."))
        if h.helper is not None and not pl.helper_cell:
            out.append(Problem(file=file, field=f"{side}.helper_cell", message=f"{h.name}'s helper {h.helper.name} "
                                                                               "needs a starting cell."))
        if h.helper is None and pl.helper_cell:
            out.append(Problem(file=file, field=f"{side}.helper_cell", message=f"{h.name} has no helper."))
        for f, cell in (("cell", pl.cell), ("helper_cell", pl.helper_cell)):
            if not cell or bf is None:
                continue
            if not valid_label(cell, bf.columns, bf.rows):
                out.append(Problem(file=file, field=f"{side}.{f}", message=f"{cell!r} is not a cell of {bf.id} "
                                                                           f"({bf.columns}x{bf.rows})."))
            elif any(lo.cell == cell for lo in bf.locations):
                out.append(Problem(file=file, field=f"{side}.{f}", message=f"{cell} holds a location; warriors stand "
                                                                           "on free cells (BASE-LOC-1)."))
            elif cell in cells:
                out.append(Problem(file=file, field=f"{side}.{f}", message=f"{cell} already holds {cells[cell]}."))
            cells[cell] = f"{side}.{f}"
        if bf is not None:
            loc_ids = {lo.id for lo in bf.locations}
            for x in h.stars:
                if x.name in loc_ids:
                    out.append(Problem(file=file, field=f"{side}.hero", message=f"{h.name}'s star ability {x.name!r} has "
                                                                                "the id of a location of this battlefield."))
    if ids["heroes"].get(su.human.hero) is not None and su.human.hero == su.emperor.hero:
        out.append(Problem(file=file, field="emperor.hero", message="both sides play the same hero."))
    return out


def lint(path: str | os.PathLike[str] | None = None) -> list[Problem]:
    """Every problem in the content under ``path`` (empty: all good); ``umpire scenarios lint`` prints them."""
    return read_catalog(path)[1]


def summary(path: str | os.PathLike[str] | None = None) -> str:
    """What ``umpire scenarios lint`` checked, in a few words."""
    c = read_catalog(path)[0]
    return (f"{len(c.setups)} setups, {len(c.heroes)} heroes, {len(c.solo)} solo cards, {len(c.decks)} order "
            f"deck(s), {len(c.battlefields)} battlefields")


def load_catalog(path: str | os.PathLike[str] | None = None) -> Catalog:
    """The content under ``path`` (default: the shipped content); ContentError lists every problem."""
    catalog, problems = read_catalog(path)
    if problems:
        raise ContentError(problems)
    return catalog


@functools.lru_cache(maxsize=1)
def shipped() -> Catalog:
    """The shipped content, loaded once (for the engine and the service)."""
    return load_catalog(None)
