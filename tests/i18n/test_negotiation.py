"""Which language an answer speaks: ?lang=, then Accept-Language, then English (service/language.py)."""
import pytest

from service.language import BadLanguage, choose, from_accept_language, from_scope


@pytest.mark.parametrize("header, want", [
    ("uk-UA,uk;q=0.9,en-US;q=0.8,en;q=0.7", "uk"),
    ("de-DE, cs;q=0.5, it;q=0.4", "cs"),
    ("en;q=0.2, ru;q=0.9", "ru"),
    ("it;q=0, cs;q=0.1", "cs"),
    ("de, fr", None),
    ("*", "en"),
    ("", None),
    ("x-pseudo", None),  # only when the server allows it
    ("ru;q=abc, it", "it"),
])
def test_accept_language(header, want):
    assert from_accept_language(header) == want


def test_query_overrides_header_and_unknown_falls_back():
    assert choose("cs", "uk") == "cs"
    assert choose("uk-UA", None) == "uk"
    assert choose("de", "ru;q=0.5") == "ru"
    assert choose("de", None) == "en"
    assert choose(None, None) == "en"


@pytest.mark.parametrize("bad", ["'; drop", "a" * 40, "uk ua", "ук"])
def test_malformed_lang_is_refused(bad):
    with pytest.raises(BadLanguage):
        choose(bad, None)


def test_pseudo_only_when_allowed(monkeypatch):
    monkeypatch.delenv("UMPIRE_PSEUDO_LOCALE", raising=False)
    assert choose("x-pseudo", None) == "en"
    monkeypatch.setenv("UMPIRE_PSEUDO_LOCALE", "1")
    assert choose("x-pseudo", None) == "x-pseudo"


def test_from_raw_scope():
    scope = {"query_string": b"dry_run=true&lang=it", "headers": [(b"accept-language", b"uk")]}
    assert from_scope(scope) == "it"
    assert from_scope({"query_string": b"", "headers": [(b"accept-language", b"ru-RU")]}) == "ru"
