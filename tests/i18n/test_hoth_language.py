"""Battle of Hoth in its readers' languages over the REST API (real app, real SQLite): a game played in
English reads in Ukrainian afterwards (timeline, events, rulings; its log and /verify unchanged), its
refusals come in Czech with the rule id intact, and its legal commands' labels in Italian with the
rulebook's printed unit names."""
from __future__ import annotations

import random
import re

from tests.service.api_client import Api, api  # noqa: F401

CYRILLIC = re.compile(r"[А-Яа-яІіЇїЄєҐґ]")
UK = {"Accept-Language": "uk-UA,uk;q=0.9,en;q=0.5"}
SCENARIO = "PROP-SCN-BREACH-THE-TRENCHES"


def _play(api: Api, steps: int = 40) -> dict:
    return api.play_random("hoth", SCENARIO, steps, seed=3)[0]


def test_a_hoth_game_played_in_english_reads_in_ukrainian_afterwards(api: Api):
    g = _play(api)
    gid, token = g["game_id"], g["seats"]["imperial"]
    en = api.client.get(f"/games/{gid}/timeline")
    uk = api.client.get(f"/games/{gid}/timeline", headers=UK)
    assert en.headers["content-language"] == "en" and uk.headers["content-language"] == "uk"
    en_steps, uk_steps = en.json()["steps"], uk.json()["steps"]
    assert [s["seq"] for s in en_steps] == [s["seq"] for s in uk_steps] and len(en_steps) > 20
    assert all(CYRILLIC.search(s["summary"]) for s in uk_steps), [s["summary"] for s in uk_steps]
    assert not any(CYRILLIC.search(s["summary"]) for s in en_steps)
    # printed names of the Ukrainian rulebook beside the ids; the English text as the domain writes it
    assert any("Снігові штурмовики (E" in s["summary"] for s in uk_steps)
    assert any("Snowtroopers (E" in s["summary"] for s in en_steps)
    # the log is unchanged: the same events, payloads and hashes in either language; /verify too
    ev_en = api.client.get(f"/games/{gid}/events", headers=api.auth(token)).json()["events"]
    ev_uk = api.client.get(f"/games/{gid}/events", headers={**api.auth(token), **UK}).json()["events"]
    assert [(e["payload"], e["hash"]) for e in ev_en] == [(e["payload"], e["hash"]) for e in ev_uk]
    assert any(CYRILLIC.search(e["summary"]) for e in ev_uk)
    assert api.client.get(f"/games/{gid}/verify").json() == api.client.get(f"/games/{gid}/verify", headers=UK).json()
    # rulings: in Ukrainian step by step, the same rule ids and values as in English
    for kind in ("unit_moved", "attack_rolled", "attack_resolved", "turn_started"):
        seq = next((s["seq"] for s in en_steps if s["type"] == kind), None)
        if seq is None:
            continue
        r_en = api.client.get(f"/games/{gid}/events/{seq}/ruling").json()["ruling"]
        r_uk = api.client.get(f"/games/{gid}/events/{seq}/ruling", headers=UK).json()["ruling"]
        assert [(s["rule"], s.get("values")) for s in r_en["steps"]] == \
            [(s["rule"], s.get("values")) for s in r_uk["steps"]]
        assert CYRILLIC.search(r_uk["summary"]) and not CYRILLIC.search(r_en["summary"]), (r_en, r_uk)
        # a table choice's citation (HOTH-CHOICE-*) too: its words in Ukrainian, the choice's own title as declared
        assert all(CYRILLIC.search(s["text"]) for s in r_uk["steps"]), \
            r_uk["steps"]
        assert not any(CYRILLIC.search(s["text"]) for s in r_en["steps"])


def test_a_hoth_refusal_in_czech_keeps_its_rule_id(api: Api):
    g = api.create("hoth", SCENARIO)
    v = api.view(g["game_id"])
    seat = v["to_act"][0]
    r = api.client.post(f"/games/{g['game_id']}/commands", params={"lang": "cs"},
                        json={"command": {"type": "order_unit", "unit": "nobody"}, "expected_version": v["version"]},
                        headers=api.auth(g["seats"][seat]))
    assert r.status_code == 422 and r.headers["content-language"] == "cs", r.text
    body = r.json()
    assert body["rule"] == "HOTH-CARD-1" and "karty rozkazu" in body["detail"], body
    en = api.client.post(f"/games/{g['game_id']}/commands",
                         json={"command": {"type": "order_unit", "unit": "nobody"}, "expected_version": v["version"]},
                         headers=api.auth(g["seats"][seat])).json()
    assert en["rule"] == body["rule"] and en["detail"].startswith("Now is the play step of the turn; OrderUnit")


def test_hoth_labels_in_italian(api: Api):
    g = api.create("hoth", SCENARIO)
    gid = g["game_id"]
    for _ in range(40):  # play command cards: the orders they allow are labelled with the printed unit names
        v = api.view(gid)
        seat = v["to_act"][0]
        token = g["seats"][seat]
        r = api.client.get(f"/games/{gid}/legal-commands", params={"lang": "it"}, headers=api.auth(token))
        # an order of infantry (AT-AT is printed so in every language): its Italian name shows
        if any(d["label"].startswith("Comandare Soldati") for d in r.json()["described"]):
            break
        api.ok(gid, token, r.json()["commands"][0], r.json()["version"])
    en = api.legal(gid, token)
    assert r.headers["content-language"] == "it" and r.json()["commands"] == en["commands"]
    labels = [d["label"] for d in r.json()["described"]]
    orders = [x for x in labels if x.startswith("Comandare ")]
    assert orders and all(("Soldati artici (E" in x or "Soldati della Base Echo (R" in x or " (E" in x or " (R" in x)
                          for x in orders), labels
    assert any("Soldati artici (E" in x or "Soldati della Base Echo (R" in x for x in orders), labels
    assert [d["label_message"]["id"] for d in r.json()["described"]] == \
        [d["label_message"]["id"] for d in en["described"]]


# -- campaigns, setup refusals, the text board (issue 28: the rest of Hoth's words) ---------------------------

CAMPAIGN = "CMP-2-OUTPOST-DELTA"


def _rulings_of(emitted) -> list[dict]:
    import msgspec

    return [msgspec.to_builtins(em.ruling) for em in emitted if em.ruling is not None]


def test_a_campaigns_rulings_read_in_ukrainian(api: Api):
    """The stored rulings of a campaign's stream (CAMPAIGN-1, -2) and those of a battle's end (CAMPAIGN-3, -4,
    -6 or the next node) are messages: read in Ukrainian with the rulebook's terms, in English as before."""
    import msgspec

    from domain.hoth.campaign.commands import RecordResult
    from domain.hoth.campaign.decider import decide
    from domain.hoth.campaign.state import evolve
    from domain.kernel import registry
    from domain.kernel.dice import Dice
    from service import i18n
    from service.campaigns import campaigns_of

    r = api.client.post("/campaigns", json={"ruleset": "hoth", "campaign": CAMPAIGN, "seed": "0f" * 32})
    assert r.status_code == 201, r.text
    stored = campaigns_of(api.client.app.state.games).db.stored(r.json()["campaign_id"])
    rulings = [msgspec.json.decode(row["ruling"]) for row in stored if row["ruling"]]
    cited = {s["rule"] for ru in rulings for s in ru["steps"]}
    assert {"CAMPAIGN-1", "CAMPAIGN-2"} <= cited, cited
    # a battle ends: the winner, the draws of support cards and the next battle (or the campaign's end)
    rules = registry.get("hoth").campaign_rules()
    state = rules.initial_state()
    dice = Dice(b"\x01" * 32, "c-test", {})
    for em in rules.start("c-test", "hoth", CAMPAIGN, dice):
        state = evolve(state, em.event)
    plan = rules.next_battle(state)
    for em in rules.battle_started(state, plan, "g1", dice):
        state = evolve(state, em.event)
    rulings += _rulings_of(decide(state, RecordResult(game_id="g1", winner="rebel"), dice))
    cited = {s["rule"] for ru in rulings for s in ru["steps"]}
    assert {"CAMPAIGN-1", "CAMPAIGN-2", "CAMPAIGN-3"} <= cited, cited
    for ru in rulings:
        en = [s["text"] for s in ru["steps"]]
        uk = i18n.localize(ru, "uk")
        assert all(CYRILLIC.search(s["text"]) for s in uk["steps"]), uk
        assert not any(CYRILLIC.search(t) for t in en)
    words = " ".join(s["text"] for ru in rulings for s in ru["steps"])
    assert "Кампанія" in words and "колоду підтримки" in words and "Повстанці: перемога в битві 1" in words, words
    assert i18n.render(decide(state, RecordResult(game_id="g1", winner="rebel"), dice)[0].ruling.summary_message,
                       "uk").startswith("Повстанці: перемога")


def test_campaign_refusals_in_czech(api: Api):
    r = api.client.get("/campaigns/nope", headers={"Accept-Language": "cs"})
    assert r.status_code == 404 and r.headers["content-language"] == "cs"
    assert r.json()["detail"] == "žádná kampaň s id 'nope'", r.json()
    r = api.client.post("/campaigns", params={"lang": "cs"}, json={"ruleset": "hoth", "campaign": "CMP-9"})
    assert r.status_code == 422 and r.json()["field"] == "campaign"
    assert r.json()["detail"].startswith("neznámá kampaň 'CMP-9'; známé: CMP-"), r.json()
    en = api.client.post("/campaigns", json={"ruleset": "hoth", "campaign": "CMP-9"}).json()
    assert en["detail"].startswith("unknown campaign 'CMP-9'; known: CMP-")


def test_setup_refusals_in_italian_name_the_field(api: Api):
    for options, field, it, en in [
        ({"leaders": {"imperial": "yoda"}}, "options.leaders",  # each leader by name, the id to send beside it
         "Impero: i leader sono Darth Vader (vader), Maximilian Veers (veers), Firmus Piett (piett)",
         "leaders of the Empire are Darth Vader (vader), Maximilian Veers (veers), Firmus Piett (piett) "
         "(HOTH-LEADER-1)"),
        ({"team": 3}, "options.team", "team è true, false, \"imperial\" o \"rebel\", non int",
         "team is true, false, \"imperial\" or \"rebel\", not int"),
        ({"support": {"rebel": ["nope"]}}, "options.support", "'nope' non è una carta supporto di Ribelli",
         "'nope' is not a support card of the Rebels"),
        ({"fog": True}, "options.fog", "opzione sconosciuta (note: team, leaders, support)",
         "unknown option (known: team, leaders, support)"),
    ]:
        body = {"ruleset": "hoth", "scenario": SCENARIO, "options": options}
        r = api.client.post("/games", json=body, headers={"Accept-Language": "it"})
        assert r.status_code == 422 and r.headers["content-language"] == "it", r.text
        assert r.json()["field"] == field and r.json()["detail"].startswith(it), r.json()
        assert api.client.post("/games", json=body).json()["detail"] == en
    r = api.client.post("/games", json={"ruleset": "hoth", "scenario": "SCN-NOPE"}, params={"lang": "uk"})
    assert r.json() ["detail"] == "невідомий сценарій «Битви за Гот» 'SCN-NOPE'", r.json()
    r = api.client.post("/games", json={"ruleset": "hoth", "scenario": SCENARIO, "choices": {"HOTH-CHOICE-NOPE": "x"}},
                        params={"lang": "cs"})
    assert r.status_code == 422 and r.json()["detail"].startswith("neznámá volba pravidla 'HOTH-CHOICE-NOPE'"), r.json()


def test_the_text_board_of_umpire_replay_in_ukrainian(tmp_path):
    from click.testing import CliRunner

    from service.cli import main
    from service.game_service import CreateGameRequest, GameService
    from service.store import EventStore

    gs = GameService(EventStore(tmp_path))
    g = gs.create_game(CreateGameRequest(ruleset="hoth", scenario=SCENARIO, seed="cd" * 32))
    en = CliRunner().invoke(main, ["replay", g["game_id"], "--data-dir", str(tmp_path), "--at", "3"])
    uk = CliRunner().invoke(main, ["replay", g["game_id"], "--data-dir", str(tmp_path), "--at", "3", "--lang", "uk"])
    assert en.exit_code == uk.exit_code == 0, uk.output
    assert "medals: the Empire 0, the Rebels 0" in en.output and "Hex id [x, r]" in en.output
    assert "медалі: Імперія 0, Повстанці 0" in uk.output and "Ідентифікатор клітинки [x, r]" in uk.output, uk.output
    assert "Клітинки: місцевість (RG хребет" in uk.output
    # the grid is the same in every language
    rows = lambda out: [ln for ln in out.splitlines() if ln[:2] in {f"r{r}" for r in range(7)}]  # noqa: E731
    assert rows(en.output) == rows(uk.output) and len(rows(en.output)) == 7


def test_board_svg_words_in_czech(api: Api):
    """The picture's heading, captions and hover titles are in the reader's language; the drawing (hexes, units,
    their ids) is the same in every language."""
    g = _play(api, steps=30)
    gid = g["game_id"]
    en = api.client.get(f"/games/{gid}/board.svg")
    cs = api.client.get(f"/games/{gid}/board.svg", headers={"Accept-Language": "cs"})
    assert en.status_code == cs.status_code == 200
    assert en.headers["content-language"] == "en" and cs.headers["content-language"] == "cs"
    texts = lambda svg: re.findall(r"<text[^>]*>([^<]*)</text>", svg)  # noqa: E731
    assert any(t.startswith("North (row 6): ") for t in texts(en.text))
    assert " - turn " in texts(en.text)[0]
    assert any(t.startswith("Sever (řada 6): ") for t in texts(cs.text)), texts(cs.text)
    assert any(t.startswith("Jih (řada 0): ") for t in texts(cs.text))
    assert " — tah " in texts(cs.text)[0], texts(cs.text)[0]
    titles = lambda svg: re.findall(r"<title>([^<]*)</title>", svg)  # noqa: E731
    assert any(" figures, " in t for t in titles(en.text)) and any(" figurky, " in t or " figurek, " in t
                                                                   for t in titles(cs.text)), titles(cs.text)
    strip = lambda svg: re.sub(r"<text[^>]*>[^<]*</text>|<title>[^<]*</title>", "", svg)  # noqa: E731
    assert strip(en.text) == strip(cs.text)
    # Clouds of Smoke's picture speaks the reader's language too (tests/i18n/test_board_svg_languages.py)
    s = api.client.post("/games", json={"ruleset": "smoke", "scenario": "BTL-CROSSROADS"}).json()
    r = api.client.get(f"/games/{s['game_id']}/board.svg", params={"lang": "cs"})
    assert r.status_code == 200 and r.headers["content-language"] == "cs"


def test_table_choice_citations_are_messages_in_every_language():
    """Every HOTH-CHOICE-* step a game cites says its own words as a message (the kernel's "under {choice} — {text}"
    with a message for ``text``), rendered in uk, cs, it and ru."""
    from domain.kernel import registry
    from domain.kernel.messages import Message, as_message
    from domain.kernel.runner import Game
    from service import i18n

    rs = registry.get("hoth")
    cited = []
    for choices in ({}, {"HOTH-CHOICE-FIRST-DRAW": "play"}):
        g = Game(rs, SCENARIO, seed=bytes(32), game_id="choices", choices=choices)
        rng = random.Random(11)
        for _ in range(150):
            seat = g.to_act()
            if g.over or seat is None:
                break
            g.do(seat, rng.choice(g.legal(seat)))
        cited += [st for em in g.emitted if em.ruling is not None for st in em.ruling.steps
                  if st.rule.startswith("HOTH-CHOICE-")]
    assert cited
    for st in cited:
        assert isinstance(as_message(st.message.params["text"]), Message), st
        phrase = as_message(st.message.params["choice"])  # the choice's title and words: the ruleset's texts
        assert isinstance(phrase, Message), st
        title = phrase.params["choice_title"]
        for lang in ("uk", "cs", "it", "ru"):
            said = i18n.render(st.message, lang)
            assert said != st.text, (lang, st.text)
            assert title not in said and i18n.translations(lang).pgettext("content", title) in said, (lang, said)
