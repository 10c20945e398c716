"""Messages rendered in the reader's language (domain/kernel/messages.py, service/i18n.py): plural
forms, decimal signs, printed names, a stored ruling of before messages, and a pseudo-locale walk over
random games that finds every word of the converted parts went through a catalog."""
from __future__ import annotations

import random

import msgspec
import pytest

from domain.kernel import NotYourDecision, RuleViolation, is_kernel_event, registry, words
from domain.kernel.messages import Message, msg, msg_n, text_of
from domain.kernel.runner import Game
from projections.views import step_message
from service import i18n

WOUNDS = "{warrior} suffers {wounds} wound(s): {cause}"


def _wounds(n: int) -> Message:
    return msg_n(WOUNDS, WOUNDS, "wounds", warrior="Akhena", wounds=n, cause="Reeds")


@pytest.mark.parametrize("lang, forms", [
    ("uk", {1: "1 поранення", 2: "2 поранення", 5: "5 поранень", 21: "21 поранення", 11: "11 поранень"}),
    ("ru", {1: "1 ранение", 3: "3 ранения", 5: "5 ранений", 22: "22 ранения", 12: "12 ранений"}),
    ("cs", {1: "1 ránu", 2: "2 rány", 4: "4 rány", 5: "5 ran"}),
])
def test_three_plural_forms(lang, forms):
    for n, want in forms.items():
        assert want in i18n.render(_wounds(n), lang), (n, i18n.render(_wounds(n), lang))


REFRESHED = "refreshed {count} card(s)"


@pytest.mark.parametrize("lang, forms", [
    ("ru", {1: "обновлена 1 карта", 3: "обновлены 3 карты", 5: "обновлено 5 карт", 21: "обновлена 21 карта"}),
    ("cs", {1: "obnovena 1 karta", 4: "obnoveny 4 karty", 5: "obnoveno 5 karet"}),
    ("it", {1: "1 carta ripristinata", 2: "2 carte ripristinate", 1000000: "1000000 di carte ripristinate"}),
])
def test_the_emperors_plurals_in_languages_without_its_rulebook(lang, forms):
    for n, want in forms.items():
        m = msg_n(REFRESHED, REFRESHED, "count", count=n)
        assert i18n.render(m, lang) == want, (n, i18n.render(m, lang))


def test_english_is_the_domains_own_text_and_a_printed_name_is_translated():
    assert _wounds(2).english() == "Akhena suffers 2 wounds: Reeds"
    assert i18n.render(_wounds(2), "en") == "Akhena suffers 2 wounds: Reeds"
    assert i18n.render(_wounds(2), "uk").startswith("Ахена отримує")


@pytest.mark.parametrize("lang, want", [("uk", "3,50"), ("ru", "3,50"), ("cs", "3,50"), ("it", "3,50"), ("en", "3.50")])
def test_decimal_sign(lang, want):
    assert i18n.number(3.5, lang, ".2f") == want
    m = msg("{warrior} is {distance:.2f} away", warrior="x", distance=3.5)
    assert m.english() == "x is 3.50 away"
    assert want in i18n.render(m, lang)


ORDER_CARD = ("{card}: steps {steps}; refresh value {refresh_value}; defense modifier {defense_modifier:+d}; compass "
              "{compass}; unique crest {value}.")


@pytest.mark.parametrize("lang", ("en", "uk", "ru", "cs", "it"))
def test_a_sign_spec_keeps_its_sign_in_every_language(lang):
    for n, want in ((1, "+1"), (0, "+0"), (-2, "-2")):
        m = msg(ORDER_CARD, card="O6", steps="MOVE", refresh_value=2, defense_modifier=n, compass="E", value=False)
        assert want in i18n.render(m, lang), (lang, i18n.render(m, lang))


def test_a_ruling_stored_before_messages_is_shown_as_stored():
    old = {"ruling": {"summary": "Akhena moves C4 -> D3", "steps": [{"rule": "BASE-MOVE-1", "text": "moved 1"}]}}
    assert i18n.localize(old, "uk") == {"ruling": {"summary": "Akhena moves C4 -> D3",
                                                   "steps": [{"rule": "BASE-MOVE-1", "text": "moved 1"}]}}
    new = {"summary": "x", "summary_message": msgspec.to_builtins(msg("the referee"))}
    assert i18n.localize(new, "uk")["summary"] == "суддя"


def test_an_event_payload_is_never_rewritten():
    said = msgspec.to_builtins(msg("the referee"))
    body = {"payload": {"text": "kept", "message": said}, "summary": "the referee", "summary_message": said}
    out = i18n.localize(body, "uk")
    assert out["payload"] == {"text": "kept", "message": said} and out["summary"] == "суддя"


def test_a_broken_translation_falls_back_to_english_never_an_error():
    m = Message(id="{a} and {b", params={"a": 1})
    assert i18n.render(m, "uk")  # no exception


#: Rulesets whose step summaries, refusals and labels are still English sentences (no message yet):
#: this list shrinks as each is converted; the walk below fails once one of them starts speaking
#: messages (take it off the list) and fails if a converted one falls back to a sentence.
NOT_CONVERTED: set[str] = set()
#: Rulesets whose command labels and warnings (domain/<r>/labels.py) are still English sentences.
LABELS_NOT_CONVERTED: set[str] = set()
#: Rulesets whose own ruling steps (automaton, combat, orders...) are still English sentences (the
#: kernel's steps are messages). A converted one is walked below: every step and summary of its rulings
#: is a message.
RULING_STEPS_NOT_CONVERTED: set[str] = set()

#: A language each converted ruleset is fully translated in.
TRANSLATED = {"emperor": "uk", "hoth": "uk", "smoke": "ru"}

CASES = [("emperor", "SETUP-AKHENA-VS-REBEL", 3), ("emperor", "SETUP-WARDEN-VS-VESPER", 7),
         ("hoth", "PROP-SCN-BREACH-THE-TRENCHES", 3), ("smoke", "BTL-CROSSROADS", 5)]


def _all_marked(m: Message) -> list[str]:
    """Every template of ``m`` and of the messages in its parameters goes through the pseudo catalog."""
    bad = []
    if not i18n.translations(i18n.PSEUDO).gettext(m.id).startswith("⟦"):
        bad.append(m.id)
    for v in m.params.values():
        if isinstance(v, Message):
            bad += _all_marked(v)
    return bad


#: Commands a game refuses at most moments (unknown warrior, unit, card, location, target; out of step).
PROBES = {
    "emperor": [{"type": "move", "warrior": "nobody", "to": "A1", "bonuses": []}, {"type": "activate", "card": "nope"},
                {"type": "defend", "card": "nope", "bonuses": []}, {"type": "attack", "target": "nobody", "bonuses": []},
                {"type": "star", "choice": "nothing"}, {"type": "swap"}, {"type": "refresh"}],
    "hoth": [{"type": "play_card", "card": "nope"}, {"type": "order_unit", "unit": "nobody"},
             {"type": "move", "unit": "nobody", "path": [[0, 1]]}, {"type": "attack", "unit": "nobody", "target": "x"},
             {"type": "end_moves"}, {"type": "end_turn"}, {"type": "reroll", "dice": [9]},
             {"type": "discard_cards", "cards": ["nope"]}, {"type": "play_support", "card": "nope"}],
}


def _spoiled(command: dict) -> list[dict]:
    """A legal command with each of its names or numbers made wrong (Clouds of Smoke's probes)."""
    out = []
    for k, v in command.items():
        if k == "type":
            continue
        if isinstance(v, str):
            out.append({**command, k: "nobody"})
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out += [{**command, k: 999}, {**command, k: -1}]
        elif isinstance(v, list):
            out.append({**command, k: [999.0, 999.0]} if v and isinstance(v[0], (int, float)) else {**command, k: ["nobody"]})
    return out


@pytest.mark.parametrize("rid, scenario, seed", CASES)
def test_pseudo_locale_walk(rid, scenario, seed):
    """Every step summary (and, for the Emperor, every refusal met on the way) of a converted ruleset is a
    message whose every template the pseudo-locale marks: no word reaches a reader without a catalog."""
    rs = registry.get(rid)
    g = Game(rs, scenario, seed=seed.to_bytes(32, "big"), game_id=f"p{seed}")
    rng = random.Random(seed)
    refused: list[RuleViolation] = []
    label_sentences, label_unmarked = 0, []
    for _ in range(120):
        seat = g.to_act()
        if g.over or seat is None:
            break
        legal = g.legal(seat)
        if not legal:
            break
        for d in words.described(rs, g.state, seat, [msgspec.to_builtins(c) for c in legal]):
            for key in ("label", "warning"):
                if d[key] is None:
                    continue
                said = d.get(f"{key}_message")
                if said is None:
                    label_sentences += 1
                else:
                    label_unmarked += _all_marked(msgspec.convert(said, Message))
        probes = PROBES.get(rid) or [p for c in legal[:6] for p in _spoiled(msgspec.to_builtins(c))]
        for probe in probes:
            try:
                cmd = msgspec.convert(probe, rs.command_type)
            except msgspec.ValidationError:  # a value the command's schema refuses before the rules
                continue
            try:
                g.decide(seat, cmd, dry=True)
            except (RuleViolation, NotYourDecision) as exc:
                refused.append(exc)
            except Exception:  # noqa: BLE001 -- a dry run that reaches a draw: not a refusal
                pass
        g.do(seat, rng.choice(legal))
    if rid not in RULING_STEPS_NOT_CONVERTED:
        said_steps = [(st.rule, st.message) for em in g.emitted if em.ruling is not None for st in em.ruling.steps]
        assert said_steps
        assert [r for r, m in said_steps if m is None and not r.startswith(f"{rid.upper()}-CHOICE-")] == []
        assert [em.ruling.summary for em in g.emitted if em.ruling is not None and em.ruling.summary
                and em.ruling.summary_message is None] == []
        for _, m in said_steps:
            assert m is None or _all_marked(m) == []
    sentences, unmarked = [], []
    for e in g.events:
        said = step_message(e, rs)
        if not isinstance(said, Message):
            sentences.append(text_of(said))
            continue
        unmarked += _all_marked(said)
        assert i18n.render(said, i18n.PSEUDO).startswith("⟦")
    if rid in LABELS_NOT_CONVERTED:
        assert label_sentences, "labels converted now? take it off LABELS_NOT_CONVERTED"
    else:
        assert label_sentences == 0 and label_unmarked == []
    if rid in NOT_CONVERTED:
        kernel = [e for e in g.events if is_kernel_event(e)]
        assert len(sentences) == len(g.events) - len(kernel), "converted now? take it off NOT_CONVERTED"
        return
    assert sentences == [] and unmarked == []
    assert refused, "the probes met refusals"
    assert [r.detail for r in refused if r.message is None] == []
    for r in refused:
        assert _all_marked(r.message) == [] and i18n.render(r.message, TRANSLATED[rid]) != r.detail, r.detail
