"""The harness for campaigns: every campaign of every ruleset that has campaign rules
(:class:`domain.kernel.campaign.CampaignRules`), played through the protocol alone.

Each battle the rules plan is played to its end by the kernel's runner; its result is recorded
from the battle's final state. Then: the campaign ends with a winner; the fold of its events, decoded
from JSON, is the live campaign state; no seat's (nor a spectator's) campaign view shows a hidden
field of an event it may not see while the campaign is on.
"""
from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.kernel import FINISHED, PUBLIC, Dice, advance, registry
from domain.kernel.campaign import campaign_rules_of, fold_campaign
from domain.kernel.runner import random_game

from .checks import _sequences, _strings, same


def _tokens(value: Any) -> set[str]:
    """The hidden names in a private field: a string, a list of them, or an object of such lists (cards
    drawn, decks by faction). A private field holding content (hoth's whole campaign graph, hidden so
    that no seat reads ahead) is not scanned by value: which part of it a seat sees (its own briefing
    and secret objectives, the node being played) is the ruleset's rule, checked by its own tests."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return set(value)
    if isinstance(value, dict) and all(isinstance(v, (list, tuple, str)) for v in value.values()):
        out: set[str] = set()
        for v in value.values():
            out |= _tokens(v)
        return out
    return set()


def _cases() -> list[Any]:
    out = []
    for rs in registry.all_rulesets():
        rules = campaign_rules_of(rs)
        if rules is None:
            continue
        for c in rules.campaigns():
            for seed in (11, 12):
                out.append(pytest.param(rs.id, c.id, seed, id=f"{rs.id}-{c.id}-{seed}"))
    return out


def test_some_ruleset_has_campaigns_and_the_others_have_none():
    with_rules = {rs.id for rs in registry.all_rulesets() if campaign_rules_of(rs) is not None}
    assert "hoth" in with_rules
    for rs in registry.all_rulesets():
        if rs.id not in with_rules:
            assert rs.campaigns() == []


@pytest.mark.parametrize("ruleset,campaign,seed", _cases())
def test_campaign_battery(ruleset: str, campaign: str, seed: int):
    rs = registry.get(ruleset)
    rules = campaign_rules_of(rs)
    assert rules is not None
    play_campaign(rs, rules, campaign, seed)


def test_a_campaign_view_showing_the_other_sides_hand_is_caught():
    from domain.hoth.campaign.rules import HothCampaigns

    class ShowsHands(HothCampaigns):
        def view(self, state, seat):
            out = super().view(state, seat)
            out["all_hands"] = {f: list(h) for f, h in state.support_hand.items()}
            out["decks"] = {f: list(d) for f, d in state.support_deck.items()}
            return out

    rs = registry.get("hoth")
    with pytest.raises(AssertionError, match="shows hidden|hidden order"):
        play_campaign(rs, ShowsHands(rs.catalog), rs.campaigns()[0].id, 11)


def play_campaign(rs: Any, rules: Any, campaign: str, seed: int) -> None:
    ruleset = rs.id
    cid = f"c{seed}"
    key = seed.to_bytes(32, "big")
    seats = rules.seats(campaign)
    state = rules.initial_state()
    counters: dict[str, int] = {}
    emitted: list[Any] = []
    known: dict[str | None, set[str]] = {v: set() for v in (*seats, None)}
    hidden: dict[str | None, set[str]] = {v: set() for v in (*seats, None)}
    hidden_seq: dict[str | None, set[tuple[str, ...]]] = {v: set() for v in (*seats, None)}

    def apply(items: list[Any]) -> None:
        nonlocal state, counters
        for em in items:
            state = rules.evolve(state, em.event)
            counters = advance(counters, em.rolls)
            emitted.append(em)
            payload = msgspec.to_builtins(em.event)
            private = getattr(type(em.event), "private", frozenset())
            for v in known:
                sees = em.visibility == PUBLIC or em.visibility == v
                shown = payload if sees else {k: x for k, x in payload.items() if k not in private}
                known[v] |= _strings(shown, set())
                if not sees:
                    for k in private & set(payload):
                        hidden[v] |= _tokens(payload[k])
                        hidden_seq[v] |= _sequences(payload[k], set())
        if rules.status(state).status == FINISHED:
            return
        for v in known:
            view = rules.view(state, v)
            leaked = {s for s in hidden[v] - known[v] if len(s) >= 2} & _strings(view, set())
            assert not leaked, f"the campaign view of {v or 'a spectator'} shows hidden {sorted(leaked)[:5]}"
            assert not (hidden_seq[v] & _sequences(view, set())), f"the view of {v} shows a hidden order"

    apply(rules.start(cid, ruleset, campaign, Dice(key, cid, counters)))
    battles = 0
    while (plan := rules.next_battle(state)) is not None:
        assert battles < 20, "a campaign of more than 20 battles"
        battles += 1
        game_id = f"{cid}-b{plan.number}"
        apply(rules.battle_started(state, plan, game_id, Dice(key, cid, counters)))
        assert rules.current_game(state) == game_id
        g = random_game(rs, plan.scenario, seed * 100 + plan.number, options={**plan.options, **plan.sealed})
        assert g.over, f"battle {plan.number} ({plan.scenario}) did not end"
        result = rules.battle_result(state, g.state, g.status, Dice(key, cid, counters))
        assert result, f"the end of battle {plan.number} recorded nothing"
        apply(result)
        assert rules.current_game(state) is None
    st = rules.status(state)
    assert st.status == FINISHED and st.winner in seats and battles >= 1
    # the fold of the stream (from JSON) is the live campaign state
    dec = msgspec.json.Decoder(rules.event_type)
    events = [dec.decode(msgspec.json.encode(em.event)) for em in emitted]
    assert same(fold_campaign(rules, events), state)
    # once it is over, everything is shown: the views differ from the ones while it was on only by that
    assert rules.view(state, None)["status"] == FINISHED
