"""Load the Battle of Hoth content (scenarios, cards, campaigns) into the engine's types.

Layout of a content directory (default: this package's directory)::

    scenarios/*.json   one scenario per file: domain.hoth.scenario.Scenario + "provenance"
    cards/*.json       {"cards": [domain.hoth.cards.Card, ...]} (one file per faction and kind)
    campaigns/*.json   one campaign per file: domain.hoth.campaign.graph.Campaign

Loading decodes every file (msgspec), then runs the semantic checks of
:mod:`scenarios.hoth.checks`; every problem of every file is collected, each
naming the file, the field and a sentence. :func:`load_catalog` raises
:class:`~scenarios.loader.ContentError` with all of them; :func:`lint`
returns them.
"""
from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

import msgspec

from domain.hoth.campaign.graph import Campaign
from domain.hoth.cards import Card, Condition, Effect
from domain.hoth.scenario import ContentStatus, Scenario
from scenarios.hoth.checks import check_catalog
from scenarios.hoth.content_set import Catalog
from scenarios.loader import ContentError, Problem, convert, read_json, unknown_fields

#: The shipped content: this package's directory.
DEFAULT_ROOT = Path(__file__).resolve().parent
KINDS = ("scenarios", "cards", "campaigns")


def _tags(union: Any) -> dict[str, str]:
    """``{tag: tag_field}`` of the members of a tagged union type."""
    info = msgspec.inspect.type_info(union)
    return {t.tag: t.tag_field for t in info.types if isinstance(t, msgspec.inspect.StructType)}


#: The card-effect and support-condition kinds the engine knows (domain/hoth/cards.py).
EFFECT_KINDS: tuple[str, ...] = tuple(_tags(Effect))
CONDITION_KINDS: tuple[str, ...] = tuple(_tags(Condition))


def _display(path: Path) -> str:
    """A file name for messages: relative to the working directory when inside it."""
    try:
        r = os.path.relpath(path)
    except ValueError:
        return path.as_posix()
    return Path(r).as_posix() if not r.startswith("..") else path.as_posix()


def _files(root: Path, kind: str) -> list[Path]:
    d = root / kind
    return sorted(d.glob("*.json")) if d.is_dir() else []


def _known_tag(file: str, field: str, raw: Any, tag_field: str, known: tuple[str, ...], what: str) -> list[Problem]:
    if not isinstance(raw, dict):
        return []
    tag = raw.get(tag_field)
    if tag is None:
        return [Problem(file=file, field=f"{field}.{tag_field}",
                        message=f"every {what} names its kind in `{tag_field}` (one of: {', '.join(known)}).")]
    if tag not in known:
        return [Problem(file=file, field=f"{field}.{tag_field}",
                        message=f"`{tag}` is not a {what} the engine knows; known kinds: {', '.join(known)}.")]
    return []


def _load_scenario(file: str, raw: Any, out: dict[str, Any]) -> list[Problem]:
    if not isinstance(raw, dict):
        return [Problem(file=file, field="", message="a scenario file holds one JSON object (a scenario).")]
    raw = dict(raw)
    problems: list[Problem] = []
    prov_raw = raw.pop("provenance", None)
    provenance: dict[str, str] = {}
    if prov_raw is None:
        problems.append(Problem(file=file, field="provenance",
                                message="say which parts come from the source and which are proposed, "
                                        "e.g. {\"briefing\": \"source\", \"layout\": \"proposed\"}."))
    else:
        prov, ps = convert(file, prov_raw, dict[str, ContentStatus], "provenance")
        problems += ps
        provenance = prov or {}
    scenario, ps = convert(file, raw, Scenario)
    problems += ps + unknown_fields(file, raw, Scenario)
    if scenario is not None:
        out.setdefault("scenarios", []).append((file, scenario, provenance))
    return problems


def _load_cards(file: str, raw: Any, out: dict[str, Any]) -> list[Problem]:
    if not isinstance(raw, dict) or not isinstance(raw.get("cards"), list):
        return [Problem(file=file, field="cards", message="a card file holds {\"cards\": [card, ...]}.")]
    problems = [Problem(file=file, field=k, message=f"`{k}` is not a known field here (a typo?).")
                for k in raw if k != "cards"]
    for i, card in enumerate(raw["cards"]):
        field = f"cards[{i}]"
        tag_problems: list[Problem] = []
        if isinstance(card, dict):
            for j, eff in enumerate(card.get("effects") or []):
                tag_problems += _known_tag(file, f"{field}.effects[{j}]", eff, "effect", EFFECT_KINDS, "card effect")
            for j, cond in enumerate(card.get("conditions") or []):
                tag_problems += _known_tag(file, f"{field}.conditions[{j}]", cond, "condition", CONDITION_KINDS,
                                           "support-card condition")
        if tag_problems:
            problems += tag_problems
            continue
        parsed, ps = convert(file, card, Card, field)
        problems += ps + unknown_fields(file, card, Card, field)
        if parsed is not None:
            out.setdefault("cards", []).append((f"{file}", field, parsed))
    return problems


def _load_campaign(file: str, raw: Any, out: dict[str, Any]) -> list[Problem]:
    if not isinstance(raw, dict):
        return [Problem(file=file, field="", message="a campaign file holds one JSON object (a campaign).")]
    parsed, ps = convert(file, raw, Campaign)
    ps += unknown_fields(file, raw, Campaign)
    if parsed is not None:
        out.setdefault("campaigns", []).append((file, parsed))
    return ps


_LOADERS = {"scenarios": _load_scenario, "cards": _load_cards, "campaigns": _load_campaign}


def read_catalog(path: str | os.PathLike[str] | None = None) -> tuple[Catalog, list[Problem]]:
    """Decode and check every content file under ``path``; the catalog of what decoded, and every problem."""
    root = Path(path) if path is not None else DEFAULT_ROOT
    problems: list[Problem] = []
    if not root.is_dir():
        return Catalog(root=_display(root)), [Problem(file=_display(root), field="",
                                                       message="is not a content directory.")]
    decoded: dict[str, Any] = {}
    for kind in KINDS:
        for f in _files(root, kind):
            name = _display(f)
            raw, ps = read_json(f, root)
            if ps:
                problems += [Problem(file=name, field=p.field, message=p.message) for p in ps]
                continue
            problems += _LOADERS[kind](name, raw, decoded)
    catalog, ps = check_catalog(_display(root), decoded)
    return catalog, problems + ps


def lint(path: str | os.PathLike[str] | None = None) -> list[Problem]:
    """Every problem in the content under ``path`` (empty: all good)."""
    return read_catalog(path)[1]


def summary(path: str | os.PathLike[str] | None = None) -> str:
    """What ``umpire scenarios lint`` checked, in a few words."""
    c = read_catalog(path)[0]
    return f"{len(c.scenarios)} scenarios, {len(c.cards)} cards, {len(c.campaigns)} campaigns"


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
