"""ops/i18n-extract: one template from the code and the web client, one catalog per language (Babel).

* Python (domain/, service/, projections/, bots/): ``msg("...")``, ``msg_n("...", "...", ...)`` (the
  kernel's messages, domain/kernel/messages.py) and ``N_("...")`` (a plain string marked for the catalog).
* The web client (web/js/): ``t("...")`` and ``tn("...", "...", n)`` (web/js/i18n.js).
* The printed names of every ruleset's units, cards, warriors, locations and terrain (``names(state)``
  of a game of every scenario; a name that is a message is found in the code like any message) and the printed words of its content a view shows (titles, briefings, card
  texts, action board slots: ``printed_paths``, domain/kernel/printed.py), in the message context ``name``.
* The rulesets' own texts that ``GET /rulesets`` lists (titles of rulesets, scenarios, campaigns and bots,
  rule choices' questions, readings and reasons, options' titles and descriptions: service/ruleset_listing.py
  ``texts``), in the message context ``content``.

Babel's own functions do the work (``extract_from_dir``, ``Catalog.update``, ``write_po``, ``write_mo``
and ``Catalog.check``), so a translator may equally use ``pybabel update``/``compile`` by hand.
"""
from __future__ import annotations

import ast
import io
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "service" / "locales"
LANGUAGES = ("uk", "ru", "cs", "it", "en")
PY_KEYWORDS = {"msg": None, "msg_n": (1, 2), "N_": None}
JS_KEYWORDS = {"t": None, "tn": (1, 2)}
PY_DIRS = ("domain", "service", "projections", "bots")
NAME_CONTEXT = "name"
CONTENT_CONTEXT = "content"
HEADER = "umpire: the referee's words (docs/languages.md)"


def _add(catalog: Catalog, found: object, base: Path) -> None:
    for filename, lineno, message, comments, context in found:  # type: ignore[misc]
        if not message or (isinstance(message, tuple) and not message[0]):
            continue
        catalog.add(message, None, [(str(Path(base.name) / filename), lineno)], auto_comments=comments,
                    context=context)


def printed_names() -> dict[str, set[str]]:
    """ruleset id -> the printed names a game of any of its scenarios may cite, and those its options offer by name."""
    sys.path.insert(0, str(ROOT))
    from domain.kernel import printed, registry
    from domain.kernel.campaign import campaign_rules_of
    from domain.kernel.runner import Game
    from scenarios.content import hand_to_rulesets
    from service.ruleset_listing import listing
    from service.ruleset_listing import printed as offered

    hand_to_rulesets()  # this script is its own composition root: the rulesets get their content here
    out: dict[str, set[str]] = {}
    for rs in registry.all_rulesets():
        for sc in rs.scenarios():
            try:
                g = Game(rs, sc.id, seed=bytes(32), game_id="names")
            except Exception:  # noqa: BLE001 -- a scenario that needs options: its names come from another
                continue
            fn = getattr(rs, "names", None)
            if fn is not None:  # a name composed of words ("Karl of player-1") is a message: extracted from the code
                out.setdefault(rs.id, set()).update(v for v in fn(g.state).values() if isinstance(v, str))
            # the printed words of its content a view shows (domain/kernel/printed.py), everything revealed
            out.setdefault(rs.id, set()).update(printed.collect(rs.view(g.state, None, reveal_all=True),
                                                                printed.printed_paths_of(rs)))
        for owner in (rs, campaign_rules_of(rs)):  # a ruleset's views and its campaigns' views
            samples = getattr(owner, "printed_samples", None)
            for view in samples() if samples is not None else ():
                out.setdefault(rs.id, set()).update(printed.collect(view, printed.printed_paths_of(owner)))
    for e in listing():  # the printed names its options offer by name (GET /rulesets ``x-items``: Hoth's leaders)
        if e["id"] in out:
            out[e["id"]].update(offered(e))
    return out


def listed_texts() -> dict[str, list[str]]:
    """ruleset id -> the texts ``GET /rulesets`` shows of it, in English (service/ruleset_listing.py)."""
    sys.path.insert(0, str(ROOT))
    from domain.kernel import registry
    from scenarios.content import hand_to_rulesets
    from service.ruleset_listing import listing, texts

    hand_to_rulesets()
    # the rulesets of domain/ only: a test may register one of its own (the toy) in the same process
    ours = {rs.id for rs in registry.all_rulesets() if type(rs).__module__.startswith("domain.")}
    return {e["id"]: list(texts(e)) for e in listing() if e["id"] in ours}


def nested_messages(base: Path) -> Iterator[tuple[str, int, str | tuple[str, str], list[str], None]]:
    """Every ``msg``/``msg_n`` call with literal texts under ``base``, found with ``ast``, in the shape Babel's
    extraction yields. Babel's Python extractor misses a call nested in a comprehension that is itself an
    argument of another call; this pass finds those (and every other literal call: Babel's finds stay first)."""
    for path in sorted(base.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("msg", "msg_n")):
                continue
            texts = [a.value for a in node.args[:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if node.func.id == "msg" and texts:
                yield str(path.relative_to(base)), node.lineno, texts[0], [], None
            elif node.func.id == "msg_n" and len(texts) == 2:
                yield str(path.relative_to(base)), node.lineno, (texts[0], texts[1]), [], None


def template() -> Catalog:
    cat = Catalog(project="umpire", header_comment="# " + HEADER, fuzzy=False)
    for d in PY_DIRS:
        _add(cat, extract_from_dir(str(ROOT / d), method_map=[("**.py", "python")], keywords=PY_KEYWORDS,
                                   comment_tags=("TRANSLATORS:",), strip_comment_tags=True), ROOT / d)
    for d in PY_DIRS:
        _add(cat, (m for m in nested_messages(ROOT / d) if (m[2][0] if isinstance(m[2], tuple) else m[2]) not in cat),
             ROOT / d)
    _add(cat, extract_from_dir(str(ROOT / "web" / "js"), method_map=[("**.js", "javascript")], keywords=JS_KEYWORDS,
                               options_map={"**.js": {"parse_template_string": True}},  # t() inside `${...}`
                               comment_tags=("TRANSLATORS:",), strip_comment_tags=True), ROOT / "web" / "js")
    for rid, names in sorted(printed_names().items()):
        for name in sorted(names):
            cat.add(name, None, [(f"names/{rid}", 0)], context=NAME_CONTEXT)
    for rid, found in sorted(listed_texts().items()):
        for text in found:
            cat.add(text, None, [(f"content/{rid}", 0)], context=CONTENT_CONTEXT)
    return cat


def _write(catalog: Catalog, path: Path) -> bytes:
    buf = io.BytesIO()
    write_po(buf, catalog, width=120, omit_header=False, sort_output=True, ignore_obsolete=True,
             include_previous=False, include_lineno=False)
    return buf.getvalue()


def _ids(catalog: Catalog) -> set[tuple[str | None, object]]:
    return {(m.context, m.id) for m in catalog if m.id}


def update(check_only: bool = False) -> int:
    tpl = template()
    pot = LOCALES / "umpire.pot"
    if check_only:
        with pot.open("rb") as f:
            on_disk = read_po(f)
        missing, extra = _ids(tpl) - _ids(on_disk), _ids(on_disk) - _ids(tpl)
        for what, ids in (("not in the template", missing), ("no longer used", extra)):
            for i in sorted(ids, key=str):
                print(f"{what}: {i}")
        return 1 if missing or extra else 0
    LOCALES.mkdir(parents=True, exist_ok=True)
    pot.write_bytes(_write(tpl, pot))
    bad = 0
    for lang in LANGUAGES:
        path = LOCALES / f"{lang}.po"
        if path.exists():
            with path.open("rb") as f:
                cat = read_po(f, locale=lang)
            cat.update(tpl, no_fuzzy_matching=True)
        else:
            cat = Catalog(locale=lang, project="umpire", header_comment="# " + HEADER, fuzzy=False)
            cat.update(tpl, no_fuzzy_matching=True)
        cat.obsolete.clear()
        for m in cat:  # an untranslated plural entry holds one empty form per plural form of the language
            if isinstance(m.id, tuple) and not any(m.string or ()):
                m.string = ("",) * cat.num_plurals
        path.write_bytes(_write(cat, path))
        write_mo(io.BytesIO(), cat)  # compiles: a catalog Babel cannot compile fails here
        errors = [(m.id, e) for m, es in cat.check() if any(m.string if isinstance(m.string, tuple) else (m.string,))
                  for e in es]
        for mid, e in errors:
            print(f"{lang}: {mid!r}: {e}")
        bad += len(errors)
        done = sum(1 for m in cat if m.id and m.string and (not isinstance(m.string, tuple) or all(m.string)))
        total = sum(1 for m in cat if m.id)
        print(f"{lang}: {done}/{total} translated ({cat.num_plurals} plural forms: {cat.plural_expr})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(update(check_only="--check" in sys.argv[1:]))
