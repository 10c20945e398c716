"""The printed words of a game's own content in a view: the texts of its content files (a battle's title and
briefing, a card's title and text, an action board's slots, a warrior's or a location's name) that a view
shows as they stand in the data (issue 28).

The data and the log keep them in English. A ruleset names where its view holds them (``printed_paths``: a
path of keys, ``*`` for every value of a mapping or every item of a list); :func:`apply` gives a copy of a
view with each of those strings passed through ``say`` (the service: the catalog's printed name in the
reader's language; ops/i18n-extract: a collector). Only strings the view already holds are touched: nothing
is looked up, so a text the view hides (a card in another seat's hand) can never appear.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

#: A place of a view: keys, ``*`` for every value of a mapping or item of a list.
Path = tuple[str, ...]
EVERY = "*"


def _at(node: Any, path: Path, say: Callable[[str], str]) -> Any:
    if not path:
        return say(node) if isinstance(node, str) and node else node
    key, rest = path[0], path[1:]
    if isinstance(node, dict):
        if key == EVERY:
            return {k: _at(v, rest, say) for k, v in node.items()}
        if key not in node:
            return node
        return {**node, key: _at(node[key], rest, say)}
    if isinstance(node, (list, tuple)) and key == EVERY:
        return [_at(v, rest, say) for v in node]
    return node


def apply(view: Any, paths: Iterable[Path], say: Callable[[str], str]) -> Any:
    """A copy of ``view`` (only the containers on the paths are copied) with each printed string said."""
    for path in paths:
        view = _at(view, path, say)
    return view


def printed_paths_of(ruleset: Any) -> tuple[Path, ...]:
    """The ruleset's places of printed words in its view (none: a ruleset that names none)."""
    return tuple(getattr(ruleset, "printed_paths", ()) or ())


def collect(view: Any, paths: Iterable[Path]) -> set[str]:
    """Every printed string of ``view`` on ``paths`` (what ops/i18n-extract puts in the template)."""
    out: set[str] = set()

    def keep(text: str) -> str:
        out.add(text)
        return text

    apply(view, paths, keep)
    return out


__all__ = ["EVERY", "Path", "apply", "collect", "printed_paths_of"]
