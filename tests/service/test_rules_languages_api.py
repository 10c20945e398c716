"""The rules reference in the reader's language through the real app (docs/rules-languages.md):
``?lang=`` and ``Accept-Language`` choose the language, ``Content-Language`` says which one answered, and a
rule without a text in that language is the English text marked ``fallback`` with a note."""
from __future__ import annotations

from pathlib import Path

import pytest
from litestar.testing import TestClient

from domain.kernel import registry
from domain.kernel.rules import parse_rules
from service.app import create_app
from service import i18n
from service.routes import rules as rules_route
from service.rule_texts import FALLBACK_NOTE
from service.settings import Settings

from .api_client import assert_problem
from .toy_ruleset import register

ROOT = Path(__file__).resolve().parents[2]
#: The rulebooks' languages (issue 28): each ruleset with the languages its players hold it in.
RULEBOOKS = [("hoth", "uk"), ("hoth", "cs"), ("hoth", "it"), ("smoke", "ru"), ("emperor", "uk")]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    register()  # the toy ruleset of the service tests (its own rules, no translation)
    app = create_app(Settings(data_dir=str(tmp_path_factory.mktemp("rules") / "data")), read_models=None)
    with TestClient(app) as c:
        yield c


def _ok(r) -> dict | list:
    assert r.status_code == 200, (r.status_code, r.text)
    assert r.headers["vary"] == "Accept-Language"
    return r.json()


@pytest.mark.parametrize("ruleset,lang", RULEBOOKS, ids=[f"{r}-{lang}" for r, lang in RULEBOOKS])
def test_a_rulebook_language_is_served_where_translated_and_english_with_a_note_elsewhere(client, ruleset, lang):
    # the ruleset's translation, then the referee's own rules in that language (each file may be absent)
    files = [ROOT / "domain" / ruleset / f"rules.{lang}.md", ROOT / "domain" / "kernel" / f"rules.{lang}.md"]
    translated = [r for f in files if f.is_file() for r in parse_rules(f.read_text(encoding="utf-8"))]
    english = registry.rules_of(ruleset)
    assert english
    listing = _ok(client.get(f"/rulesets/{ruleset}/rules", params={"lang": lang}))
    assert [b["id"] for b in listing] == list(english)  # every rule, in the English order
    ours = {b["id"]: b for b in listing}
    for rule in translated:  # served in the language, as the file says
        body = ours[rule.id]
        assert (body["lang"], body["text"], body.get("title")) == (lang, rule.text, rule.title)
        assert "fallback" not in body and "note" not in body
    missing = [rid for rid in english if rid not in {r.id for r in translated}]
    for rid in missing:  # the English text, honestly marked
        body = ours[rid]
        assert (body["lang"], body["fallback"], body["text"]) == ("en", "en", english[rid].text)
        assert body["note"] == i18n.translations(lang).gettext(FALLBACK_NOTE) != FALLBACK_NOTE
    got = client.get(f"/rulesets/{ruleset}/rules", params={"lang": lang})
    expected = [code for code in ("en", lang) if (code == lang and translated) or (code == "en" and missing)]
    assert sorted(got.headers["content-language"].split(", ")) == sorted(expected)
    # one rule, by ?lang= and by Accept-Language (a regional tag counts as its language)
    rid = translated[0].id if translated else next(iter(english))
    for r in (client.get(f"/rulesets/{ruleset}/rules/{rid}", params={"lang": lang}),
              client.get(f"/rulesets/{ruleset}/rules/{rid}", headers={"Accept-Language": f"{lang}-XX, en;q=0.5"})):
        body = _ok(r)
        assert body == ours[rid]
        assert r.headers["content-language"] == (lang if translated else "en")


def test_english_is_unchanged_and_lang_wins_over_accept_language(client):
    plain = _ok(client.get("/rulesets/emperor/rules/SOLO-TURN-1"))
    assert plain["lang"] == "en" and "fallback" not in plain and plain["text"].startswith("The Emperor's turn begins")
    r = client.get("/rulesets/emperor/rules/SOLO-TURN-1", params={"lang": "en"}, headers={"Accept-Language": "uk"})
    assert _ok(r) == plain and r.headers["content-language"] == "en"
    uk = _ok(client.get("/rulesets/emperor/rules/SOLO-TURN-1", headers={"Accept-Language": "de, uk;q=0.4, en;q=0.3"}))
    assert uk["lang"] == "uk" and uk["text"] != plain["text"] and uk["url"] == plain["url"]
    # the referee's own rules in the reader's language under every ruleset, the toy's included
    undo = _ok(client.get("/rulesets/toy/rules/UMPIRE-UNDO-1", params={"lang": "uk"}))
    assert undo["lang"] == "uk" and undo["text"] == registry.kernel_rules("uk")["UMPIRE-UNDO-1"].text
    toy = _ok(client.get("/rulesets/toy/rules/TOY-STEP-1", params={"lang": "uk"}))
    assert toy["fallback"] == "en" and toy["note"].startswith("Цього правила")  # the toy has no translation


def test_a_malformed_lang_is_a_problem_naming_lang_and_an_unspoken_one_is_passed_over(client):
    """The service's one negotiation (service/language.py): a tag that is not one is a 400 naming ``lang``; a
    language umpire does not speak is passed over (``Accept-Language`` decides, then English), as on every
    endpoint; a bad ``Accept-Language`` is English."""
    for bad in ("xx-YY-toolongsubtag", "../hoth", "u k", "uk\n", "x" * 40):
        body = assert_problem(client.get("/rulesets/hoth/rules/HOTH-LOS-3", params={"lang": bad}), 400, field="lang")
        assert "uk" in body["detail"] and "cs" in body["detail"]
    assert_problem(client.get("/rulesets/hoth/rules", params={"lang": "u k"}), 400, field="lang")
    for unspoken, header, want in (("de", None, "en"), ("de", "it", "it"), ("", "cs", "cs"), ("pl-PL", "uk;q=0.5", "uk")):
        r = client.get("/rulesets/hoth/rules/HOTH-LOS-3", params={"lang": unspoken},
                       headers={"Accept-Language": header} if header else {})
        assert _ok(r)["lang"] == want and r.headers["content-language"] == want, (unspoken, header)
    for header in ("de-DE", "*", "uk;q=0", ";;;,q=", "x" * 300, "uk;q=abc"):
        r = client.get("/rulesets/hoth/rules/HOTH-LOS-3", headers={"Accept-Language": header})
        assert _ok(r)["lang"] in ("en", "uk")
    assert_problem(client.get("/rulesets/hoth/rules/" + "HOTH-NO" + "-1", params={"lang": "uk"}), 404, field="rule_id")


def test_the_rules_reference_uses_the_one_negotiation_of_the_service(client):
    """No second reading of ``Accept-Language`` beside service/language.py: the route module has none, and the
    rules answer in the language every other endpoint chooses for the same request (RFC 9110 quality order)."""
    assert not hasattr(rules_route, "reader_language") and not hasattr(rules_route, "SPOKEN")
    for header, want in (("uk-UA,uk;q=0.9,en-US;q=0.8,en;q=0.7", "uk"), ("de-DE, fr;q=0.9, it;q=0.5, ru;q=0.6", "ru"),
                         ("cs;q=0.2, en;q=0.3", "en"), ("uk;q=0, *", "en"), ("it;q=1.0", "it")):
        rule = client.get("/rulesets/emperor/rules/SOLO-TURN-1", headers={"Accept-Language": header})
        listing = client.get("/rulesets", headers={"Accept-Language": header})
        assert listing.headers["content-language"] == want, header
        assert _ok(rule)["lang"] in (want, "en") and rule.headers["content-language"] in (want, "en"), header
        if want != "en":  # a language without a text for this rule would say so: the Emperor's is in uk
            assert _ok(rule).get("fallback") == ("en" if want != "uk" else None), header
    r = client.get("/rulesets/emperor/rules/SOLO-TURN-1", params={"lang": "CS"}, headers={"Accept-Language": "uk"})
    assert _ok(r)["fallback"] == "en" and r.headers["content-language"] == "en"
    assert _ok(r)["note"] == i18n.translations("cs").gettext(FALLBACK_NOTE)


def test_the_pseudo_locale_marks_a_rule_only_on_a_server_that_speaks_it(client, monkeypatch):
    """A test server's pseudo-locale (UMPIRE_PSEUDO_LOCALE=1) marks a rule's title and text as said in the
    reader's language (by ``?lang=`` and by ``Accept-Language``); any other server passes the tag over (English)."""
    monkeypatch.delenv("UMPIRE_PSEUDO_LOCALE", raising=False)
    passed = client.get("/rulesets/hoth/rules/HOTH-HIT-1", params={"lang": "x-pseudo"})
    assert _ok(passed)["lang"] == "en" and "⟦" not in passed.json()["text"]
    assert client.get("/rulesets/hoth/rules/HOTH-HIT-1", headers={"Accept-Language": "x-pseudo"}).json()["lang"] == "en"
    monkeypatch.setenv("UMPIRE_PSEUDO_LOCALE", "1")
    english = _ok(client.get("/rulesets/hoth/rules/HOTH-HIT-1"))
    for got in (client.get("/rulesets/hoth/rules/HOTH-HIT-1", params={"lang": "x-pseudo"}),
                client.get("/rulesets/hoth/rules/HOTH-HIT-1", headers={"Accept-Language": "x-pseudo"})):
        body = _ok(got)
        assert body["lang"] == "x-pseudo" and got.headers["content-language"] == "x-pseudo"
        assert body["text"].startswith("⟦") and body["text"] != english["text"] and body["id"] == english["id"]
