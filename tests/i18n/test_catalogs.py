"""The catalogs (service/locales, ops/i18n-extract): the template is what the code says, every catalog
compiles with its language's plural forms and keeps each message's placeholders, and what is converted
to messages is translated where this issue promises it (an honest list of what is not)."""
from __future__ import annotations

import io
import re

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import i18n_catalogs
from service.i18n import po_path, template_path

LANGS = ("uk", "ru", "cs", "it", "en")
PLACEHOLDER = re.compile(r"\{(\w+)[^{}]*\}")


def _catalog(lang):
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def test_the_template_holds_exactly_the_ids_the_code_uses():
    assert i18n_catalogs.update(check_only=True) == 0, "run ops/i18n-extract"


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalog_has_every_template_id_and_nothing_else(lang):
    with template_path().open("rb") as f:
        tpl = {(m.context, m.id) for m in read_po(f) if m.id}
    cat = _catalog(lang)
    assert {(m.context, m.id) for m in cat if m.id} == tpl
    write_mo(io.BytesIO(), cat)  # compiles
    assert [(m.id, errs) for m, errs in cat.check() if any(m.string if isinstance(m.string, tuple) else (m.string,))] == []


@pytest.mark.parametrize("lang, forms", [("uk", 3), ("ru", 3), ("cs", 3), ("it", 3), ("en", 2)])
def test_plural_forms_are_the_languages_own(lang, forms):
    assert _catalog(lang).num_plurals == forms


@pytest.mark.parametrize("lang", ("uk", "ru", "cs", "it"))
def test_a_translation_keeps_the_placeholders_of_its_message(lang):
    for m in _catalog(lang):
        if not m.id or not m.string:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        want = set(PLACEHOLDER.findall(ids[0]))
        for s in strings:
            if s:
                assert set(PLACEHOLDER.findall(s)) == want, (lang, m.id, s)


#: Where each language's translation is complete (every message of these sources has a text), and the
#: sources converted to messages whose translation is still missing in a language: an honest list that
#: shrinks. Hoth's messages are translated in its rulebooks' languages (uk, cs, it) and in ru; Clouds of Smoke's
#: in ru (its rulebook's) and in uk, cs, it; the Emperor's in uk (its rulebook's) and in ru, cs, it.
COMPLETE = {"uk": ("domain/kernel", "projections", "service", "domain/emperor", "domain/hoth", "domain/smoke"),
            "ru": ("domain/kernel", "projections", "service", "domain/emperor", "domain/hoth", "domain/smoke"),
            "cs": ("domain/kernel", "projections", "service", "domain/emperor", "domain/hoth", "domain/smoke"),
            "it": ("domain/kernel", "projections", "service", "domain/emperor", "domain/hoth", "domain/smoke")}
PROBLEM_TITLES_AND_KERNEL = ("ru", "cs", "it")


def _sources(m) -> set[str]:
    return {loc for loc, _ in m.locations}


@pytest.mark.parametrize("lang, prefixes", COMPLETE.items())
def test_each_language_speaks_every_converted_message_of_its_sources(lang, prefixes):
    """Every language: the kernel, the service, the Emperor, Hoth and Clouds of Smoke (the Emperor's Russian,
    Czech and Italian terms are chosen from its Ukrainian rulebook's, each noted in the catalog)."""
    missing = [m.id for m in _catalog(lang) if m.id and m.context is None
               and any(s.startswith(prefixes) for s in _sources(m))
               and not (all(m.string) if isinstance(m.string, tuple) else m.string)]
    assert missing == []


@pytest.mark.parametrize("lang", PROBLEM_TITLES_AND_KERNEL)
def test_problem_titles_are_translated(lang):
    from service.problems import TYPES

    cat = _catalog(lang)
    missing = [t for t in TYPES.values() if not cat.get(t) or not cat.get(t).string]
    assert missing == []


def test_printed_names_come_from_the_rulebooks_or_say_they_were_chosen():
    """A name translated without a translator's note is one the rulebook prints (docs/languages.md)."""
    for lang, names in {"uk": ("Snowtroopers", "Snowspeeders", "Echo Base Troopers", "Rebel"),
                        "cs": ("Snowtroopers", "Echo Base Troopers"), "it": ("Snowtroopers",),
                        "ru": ("Line infantry", "Providence")}.items():
        cat = _catalog(lang)
        for n in names:
            m = cat.get(n, context="name")
            assert m is not None and m.string and not m.user_comments, (lang, n)
    chosen = _catalog("ru").get("Cossacks", context="name")
    assert chosen.string == "Казаки" and "no printed name" in chosen.user_comments[0]
