"""The Emperor solo mode in Ukrainian, the language of its rulebook: every word of every ruling (each step,
each piece composed into a step, each summary) has a Ukrainian text in the catalog, and a game played in
English reads its automaton's reasoning in Ukrainian over the REST API (real app, real SQLite) with the
plural forms of the language and the rulebook's printed names, its English words and its log unchanged."""
from __future__ import annotations

import random
import re

import pytest
from babel.messages.pofile import read_po

from domain.kernel import registry
from domain.kernel.messages import Message, as_message
from domain.kernel.runner import Game
from service.i18n import po_path
from tests.service.api_client import Api, api  # noqa: F401

CYRILLIC = re.compile(r"[А-Яа-яІіЇїЄєҐґ]")
UK = {"Accept-Language": "uk-UA,uk;q=0.9,en;q=0.5"}
#: A message id with words of its own (not only placeholders, cells, rule ids and arithmetic signs).
WORDS = re.compile(r"[a-z]{2,}")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _ids(m: Message) -> set[str]:
    """The id of ``m`` and of every message in its parameters."""
    out = {m.id}
    for v in m.params.values():
        nested = as_message(v) if not isinstance(v, str) else None
        if nested is not None:
            out |= _ids(nested)
    return out


def _played(scenario: str, seed: int, moves: int = 150, prefix: str = "uk") -> Game:
    """A game of ``scenario`` played ``moves`` random legal commands (seeded; its id ``<prefix><seed>``)."""
    rs = registry.get("emperor")
    g = Game(rs, scenario, seed=seed.to_bytes(32, "big"), game_id=f"{prefix}{seed}")
    rng = random.Random(seed)
    for _ in range(moves):
        seat = g.to_act()
        if g.over or seat is None:
            break
        g.do(seat, rng.choice(g.legal(seat)))
    return g


@pytest.mark.parametrize("scenario, seed", [("SETUP-AKHENA-VS-REBEL", 3), ("SETUP-WARDEN-VS-VESPER", 7),
                                            ("SETUP-WARDEN-VS-VESPER", 11)])
def test_every_word_of_an_emperor_ruling_has_its_ukrainian_text(scenario, seed):
    with po_path("uk").open("rb") as f:
        uk = {(m.id if isinstance(m.id, str) else m.id[0]): m.string for m in read_po(f, locale="uk")
              if m.id and m.context is None}
    g = _played(scenario, seed)
    said: set[str] = set()
    for em in g.emitted:
        if em.ruling is None:
            continue
        assert em.ruling.summary_message is not None, em.ruling.summary
        said |= _ids(em.ruling.summary_message)
        for st in em.ruling.steps:
            assert st.message is not None and st.message.english() == st.text, st.text
            said |= _ids(st.message)
    worded = {i for i in said if WORDS.search(PLACEHOLDER.sub("", i))}
    assert len(worded) > 60
    missing = [i for i in sorted(worded) if not (all(uk.get(i) or ("",)) if isinstance(uk.get(i), tuple)
                                                 else uk.get(i))]
    assert missing == []


def _play(api: Api, steps: int = 30, seed: int = 7) -> dict:
    return api.play_random("emperor", "SETUP-WARDEN-VS-VESPER", steps, seed=seed)[0]


def _uk_forms(n: int) -> str:
    """The Ukrainian form of "prepared action card(s)" after ``n`` (CLDR: one, few, many)."""
    if n % 10 == 1 and n % 100 != 11:
        return f"{n} підготовлену карту дії"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return f"{n} підготовлені карти дій"
    return f"{n} підготовлених карт дій"


def test_the_automatons_reasoning_reads_in_ukrainian_with_its_plurals_and_printed_names(api: Api):
    g = _play(api)
    gid, token = g["game_id"], g["seats"]["human"]
    events = api.client.get(f"/games/{gid}/events", headers=api.auth(token)).json()["events"]
    moved, distances, composed, order_steps = [], [], 0, []
    for e in events:
        en = api.client.get(f"/games/{gid}/events/{e['seq']}/ruling").json()["ruling"]
        uk = api.client.get(f"/games/{gid}/events/{e['seq']}/ruling", headers=UK).json()["ruling"]
        if en is None:
            continue
        assert [s["rule"] for s in en.get("steps", [])] == [s["rule"] for s in uk.get("steps", [])]
        for s_en, s_uk in zip(en.get("steps", []), uk.get("steps", [])):
            assert s_en["message"] == s_uk["message"] and s_en.get("values") == s_uk.get("values")
            assert not CYRILLIC.search(s_en["text"])
            if s_en["rule"] == "SOLO-TURN-4" and s_en.get("values", {}).get("prepared"):
                moved.append((len(s_en["values"]["prepared"]), s_uk["text"]))
            if s_en["rule"] == "SOLO-TURN-2" and s_en.get("values", {}).get("step"):
                order_steps.append(s_uk["text"])
            if s_en["rule"] == "SOLO-TGT-3":
                distances.append((s_en["text"], s_uk["text"]))
            if s_en["message"]["id"].startswith(("Reachable cells R", "Requirement from", "Attack value =")):
                composed += 1
                assert CYRILLIC.search(s_uk["text"]), s_uk["text"]
    assert moved and distances and composed and order_steps
    # an order card's steps as the Ukrainian card prints them, never as the events' fields (MOVE, REFRESH_CHECK)
    for text in order_steps:
        assert not re.search(r"\b(MOVE|ACTIVATE|REFRESH_CHECK|REFRESH CHECK)\b", text), text
        assert re.search(r"ПЕРЕМІЩЕННЯ|АКТИВАЦІЯ|ПЕРЕВІРКА ОНОВЛЕННЯ", text), text
    for n, text in moved:  # "Імператор має 5 підготовлених карт дій, тож його герой переміщується"
        assert text.startswith(f"Імператор має {_uk_forms(n)}, тож його герой переміщується"), text
    for en_text, uk_text in distances:  # the rulebook's names of the warriors: Вартовий, Веспер
        assert "Warden" in en_text and "Вартовий" in uk_text and "Warden" not in uk_text, uk_text
        assert "відстані" in uk_text
