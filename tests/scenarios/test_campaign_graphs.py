"""Every branch of both campaign graphs (content 5.5) walked through the pure campaign aggregate.

Each path plays the campaign battle by battle (the battles themselves are not played here: the
aggregate is told who won), and checks the carried effects of content 3.1 / 5.5 at every step:
the next scenario chosen by the result (with its changed setup), the leader cards for that battle
only, support cards drawn into a hand kept between battles, secret objectives visible only to
their seat until met, and the campaign winner.
"""
from __future__ import annotations

import itertools

import pytest

from domain.hoth.campaign.battles import next_battle
from domain.hoth.campaign.commands import CreateCampaign, RecordResult, StartBattle, UnitFact
from domain.hoth.campaign.decider import decide
from domain.hoth.campaign.events import BattleEnded, CampaignWon, NextBattleChosen, SecretObjectiveMet, SupportDrawn
from domain.hoth.campaign.state import ACTIVE, FINISHED, CampaignState, evolve
from domain.hoth.campaign.view import campaign_view
from domain.kernel import Dice, RuleViolation
from scenarios.hoth import shipped

C1, C2 = "CMP-1-ASSAULT-ON-ECHO-BASE", "CMP-2-OUTPOST-DELTA"

#: content 5.5, one row per (node, winner): next node, the next battle's scenario (a changed setup
#: is a variant id), its leaders, support cards drawn now, units removed/added in the next setup.
EXPECT = {
    (C1, "C1-1", "imperial"): dict(next="C1-2", scenario=f"PROP-SCN-CANNON-RIDGE@{C1}/C1-1/imperial",
                                   leaders={"imperial": "veers"}, draws={"imperial": 1},
                                   removed=[("rebel", "echo_troopers", (3, 5))], added=[]),
    (C1, "C1-1", "rebel"): dict(next="C1-2", scenario=f"PROP-SCN-CANNON-RIDGE@{C1}/C1-1/rebel",
                                leaders={"rebel": "luke"}, draws={"rebel": 1},
                                removed=[("imperial", "snowtroopers", (1, 1))], added=[]),
    (C1, "C1-2", "imperial"): dict(next="C1-3", scenario=f"SCN-TAKE-DOWN-THE-SHIELD@{C1}/C1-2/imperial",
                                   leaders={"rebel": "leia"}, draws={"imperial": 1},
                                   removed=[], added=[("imperial", "at_at", (8, 0))]),
    (C1, "C1-2", "rebel"): dict(next="C1-3", scenario=f"SCN-TAKE-DOWN-THE-SHIELD@{C1}/C1-2/rebel",
                                leaders={"imperial": "vader"}, draws={"rebel": 1},
                                removed=[], added=[("rebel", "rebel_artillery", (11, 5))]),
    (C1, "C1-3", "imperial"): dict(next=None, winner="imperial"),
    (C1, "C1-3", "rebel"): dict(next=None, winner="rebel"),
    (C2, "C2-1", "imperial"): dict(next="C2-3", scenario="SCN-TAKE-DOWN-THE-SHIELD",
                                   leaders={"imperial": "piett"}, draws={"imperial": 1}, removed=[], added=[]),
    (C2, "C2-1", "rebel"): dict(next="C2-2", scenario="PROP-SCN-CANNON-RIDGE",
                                leaders={"rebel": "han"}, draws={"rebel": 1}, removed=[], added=[]),
    (C2, "C2-2", "imperial"): dict(next="C2-3", scenario="SCN-TAKE-DOWN-THE-SHIELD",
                                   leaders={"imperial": "vader"}, draws={"imperial": 1}, removed=[], added=[]),
    (C2, "C2-2", "rebel"): dict(next=None, winner="rebel"),
    (C2, "C2-3", "imperial"): dict(next=None, winner="imperial"),
    (C2, "C2-3", "rebel"): dict(next=None, winner="rebel"),
}
FIRST = {C1: ("C1-1", "PROP-SCN-FIRST-CONTACT"), C2: ("C2-1", "PROP-SCN-OUTPOST-DELTA")}


def paths(cid: str) -> list[tuple[str, ...]]:
    """Every sequence of battle winners from the start node to the end of the campaign."""
    out = []
    for winners in itertools.product(("imperial", "rebel"), repeat=3):
        node, used = FIRST[cid][0], []
        for w in winners:
            used.append(w)
            node = EXPECT[(cid, node, w)]["next"]
            if node is None:
                break
        if tuple(used) not in out:
            out.append(tuple(used))
    return out


def apply(state, cmd, dice):
    emitted = decide(state, cmd, dice)
    for e in emitted:
        state = evolve(state, e.event)
    return state, emitted


def create(cid: str, seed: bytes = b"\x07" * 32):
    cat = shipped()
    dice = Dice(seed, f"camp-{cid}")
    cmd = CreateCampaign(campaign_id=f"camp-{cid}", campaign=cat.campaigns[cid],
                         support={f: cat.support_cards(f) for f in ("imperial", "rebel")})
    state, _ = apply(CampaignState(), cmd, dice)
    return state, dice


def units_of(scenario_id: str) -> tuple[UnitFact, ...]:
    s = shipped().scenarios[scenario_id]
    return tuple(UnitFact(faction=u.faction, unit=u.unit, hex=u.hex) for u in s.units)


def test_every_branch_is_walked():
    walked = {(cid, p) for cid in (C1, C2) for p in paths(cid)}
    assert len([p for c, p in walked if c == C1]) == 8 and len([p for c, p in walked if c == C2]) == 5
    seen = set()
    for cid, p in walked:
        node = FIRST[cid][0]
        for w in p:
            seen.add((cid, node, w))
            node = EXPECT[(cid, node, w)]["next"]
    assert seen == set(EXPECT)  # every (node, outcome) of both graphs


@pytest.mark.parametrize("cid,winners", [(c, p) for c in (C1, C2) for p in paths(c)],
                         ids=lambda v: v if isinstance(v, str) else "-".join(w[0] for w in v))
def test_campaign_path_carries_the_right_effects(cid, winners):
    cat = shipped()
    state, dice = create(cid)
    assert state.status == ACTIVE and state.node == FIRST[cid][0]
    plan = next_battle(state)
    assert (plan.node, plan.scenario, plan.leaders, plan.options) == (*FIRST[cid], {}, {})
    hands = {"imperial": 0, "rebel": 0}
    for n, winner in enumerate(winners, start=1):
        plan = next_battle(state)
        assert plan is not None and plan.number == n
        assert plan.scenario in cat.scenarios  # the engine can set it up
        game_id = f"g{n}"
        state, _ = apply(state, StartBattle(game_id=game_id, scenario=plan.scenario), dice)
        assert next_battle(state) is None  # one battle at a time; the next one waits for the result
        node = plan.node
        start = units_of(plan.scenario)
        # The battle ends with every unit still standing (no secret objective of the loser met).
        state, emitted = apply(state, RecordResult(game_id=game_id, winner=winner, start_units=start,
                                                   end_units=start), dice)
        exp = EXPECT[(cid, node, winner)]
        assert isinstance(emitted[0].event, BattleEnded) and emitted[0].event.winner == winner
        all_draws = [e for e in emitted if isinstance(e.event, SupportDrawn)]
        draws = [e for e in all_draws if e.event.reason.startswith("outcome")]
        secret_draws = [e for e in all_draws if e.event.reason.startswith("secret")]
        # With every unit standing, only C1-2's Rebel objective (crest free of Imperials) is met.
        assert [e.event.faction for e in secret_draws] == (["rebel"] if node == "C1-2" else [])
        if exp["next"] is None:
            assert isinstance(emitted[-1].event, CampaignWon) and emitted[-1].event.winner == exp["winner"]
            assert state.status == FINISHED and state.winner == exp["winner"] and next_battle(state) is None
            assert not draws
            break
        chosen = emitted[-1].event
        assert isinstance(chosen, NextBattleChosen)
        assert (chosen.next_node, chosen.scenario) == (exp["next"], exp["scenario"])
        # Support cards: drawn now, privately, into the hand kept between battles.
        assert {e.event.faction: len(e.event.cards) for e in draws} == exp["draws"]
        for e in all_draws:
            assert e.visibility == e.event.faction and "cards" in type(e.event).private
            hands[e.event.faction] += len(e.event.cards)
            assert set(e.event.cards) <= set(cat.support_cards(e.event.faction))
        assert {f: len(h) for f, h in state.support_hand.items()} == hands
        # The next battle: its scenario (changed setup), leaders for that battle only.
        nxt = next_battle(state)
        assert (nxt.node, nxt.scenario, nxt.leaders) == (exp["next"], exp["scenario"], exp["leaders"])
        assert nxt.options.get("leaders", {}) == exp["leaders"]
        # The kept support cards come into the next battle (content 3.1), sealed: never a public option
        # of its header (UMPIRE-SEAL-1).
        assert nxt.sealed.get("support", {}) == {f: list(h) for f, h in state.support_hand.items() if h}
        assert set(nxt.options) <= {"leaders"} and set(nxt.sealed) <= {"support"}
        setup = cat.scenarios[nxt.scenario]
        here = {(u.faction, u.unit, tuple(u.hex)) for u in setup.units}
        base = {(u.faction, u.unit, tuple(u.hex)) for u in cat.scenarios[nxt.scenario.split("@")[0]].units}
        assert base - here == set(exp["removed"]) and here - base == set(exp["added"])
    else:
        pytest.fail("the campaign did not end")
    assert [b.winner for b in state.battles] == list(winners)
    assert len({b.game_id for b in state.battles}) == len(winners)
    # Leader cards never outlive their battle: each battle has exactly the leaders of the outcome before it.
    for b, prev in zip(state.battles[1:], state.battles):
        assert b.leaders == EXPECT[(cid, prev.node, prev.winner)]["leaders"]
    assert state.battles[0].leaders == {}


def _to_c1_2(winner_c1_1="imperial"):
    state, dice = create(C1)
    state, _ = apply(state, StartBattle(game_id="g1", scenario="PROP-SCN-FIRST-CONTACT"), dice)
    units = units_of("PROP-SCN-FIRST-CONTACT")
    state, _ = apply(state, RecordResult(game_id="g1", winner=winner_c1_1, start_units=units, end_units=units), dice)
    plan = next_battle(state)
    state, _ = apply(state, StartBattle(game_id="g2", scenario=plan.scenario), dice)
    return state, dice, units_of(plan.scenario)


def test_secret_objectives_are_private_until_met_and_rewarded_at_once():
    state, dice, start = _to_c1_2()
    imp, reb = campaign_view(state, "imperial"), campaign_view(state, "rebel")
    assert [s["id"] for s in imp["secret_objectives"]] == ["C1-2-EMP-SILENCE-THE-GUN"]
    assert [s["id"] for s in reb["secret_objectives"]] == ["C1-2-REB-HOLD-THE-CREST"]
    assert imp["revealed_objectives"] == [] and campaign_view(state, None)["secret_objectives"] == []
    # Each side reads its own commander's instructions; a spectator reads none.
    assert imp["briefing"] == shipped().campaigns[C1].nodes["C1-2"].briefing["imperial"] != reb["briefing"]
    assert campaign_view(state, None)["briefing"] == ""
    assert imp["outcome_text"].startswith("Imperial victory.")
    # The Rebel artillery is destroyed and an Imperial unit stands on the crest (c4 r3 = [9, 3]).
    end = tuple(u for u in start if u.unit != "rebel_artillery") + (
        UnitFact(faction="imperial", unit="snowtroopers", hex=(9, 3)),)
    hand_before = len(state.support_hand["imperial"])
    state, emitted = apply(state, RecordResult(game_id="g2", winner="rebel", start_units=start, end_units=end), dice)
    met = [e.event for e in emitted if isinstance(e.event, SecretObjectiveMet)]
    assert [m.id for m in met] == ["C1-2-EMP-SILENCE-THE-GUN"]  # the crest is not free: no Rebel reward
    reward = emitted[emitted.index(next(e for e in emitted if isinstance(e.event, SecretObjectiveMet))) + 1]
    assert isinstance(reward.event, SupportDrawn) and reward.event.faction == "imperial"
    assert reward.visibility == "imperial"
    assert len(state.support_hand["imperial"]) == hand_before + 1
    # Now revealed to both seats.
    assert [r["id"] for r in campaign_view(state, "rebel")["revealed_objectives"]] == ["C1-2-EMP-SILENCE-THE-GUN"]


def test_rebel_secret_objective_met_when_the_crest_is_free():
    state, dice, start = _to_c1_2()
    state, emitted = apply(state, RecordResult(game_id="g2", winner="imperial", start_units=start,
                                               end_units=start), dice)
    met = [e.event.id for e in emitted if isinstance(e.event, SecretObjectiveMet)]
    assert met == ["C1-2-REB-HOLD-THE-CREST"]
    assert {e.event.faction for e in emitted if isinstance(e.event, SupportDrawn)} == {"imperial", "rebel"}


def test_view_shows_own_carried_cards_only():
    state, dice, start = _to_c1_2("imperial")
    imp, reb, spec = (campaign_view(state, s, shipped().leader_cards) for s in ("imperial", "rebel", None))
    assert set(imp["carried"]) == {"imperial"} and set(reb["carried"]) == {"rebel"} and spec["carried"] == {}
    assert len(imp["carried"]["imperial"]["support_hand"]) == 1
    assert imp["carried"]["imperial"]["leader"] == "veers"
    assert imp["carried"]["imperial"]["leader_cards"] == list(shipped().leader_cards("veers"))
    assert reb["support_hand_sizes"] == {"imperial": 1, "rebel": 0}
    assert imp["game_id"] == "g2" and [b["node"] for b in imp["battles"]] == ["C1-1", "C1-2"]


def test_support_deck_reshuffles_the_discards_and_draws_are_recorded():
    state, dice = create(C1)
    assert sorted(state.support_deck["imperial"]) == sorted(shipped().support_cards("imperial"))
    # The deck order came from the dice and is written into the event (replay never shuffles).
    again, _ = create(C1)
    assert again.support_deck == state.support_deck
    other, _ = create(C1, seed=b"\x08" * 32)
    assert other.support_deck != state.support_deck


def test_commands_out_of_turn_are_refused_with_a_rule():
    state, dice = create(C1)
    with pytest.raises(RuleViolation) as err:
        decide(state, RecordResult(game_id="nope", winner="rebel"), dice)
    assert err.value.rule == "CAMPAIGN-3"
    with pytest.raises(RuleViolation):
        decide(state, StartBattle(game_id="g1", scenario="PROP-SCN-CANNON-RIDGE"), dice)
    state, _ = apply(state, StartBattle(game_id="g1", scenario="PROP-SCN-FIRST-CONTACT"), dice)
    with pytest.raises(RuleViolation) as err:
        decide(state, StartBattle(game_id="g2", scenario="PROP-SCN-FIRST-CONTACT"), dice)
    assert err.value.rule == "CAMPAIGN-2"


def test_every_rule_the_aggregate_cites_is_defined():
    from domain.hoth.campaign.decider import CAMPAIGN_RULES

    state, dice, start = _to_c1_2()
    state, emitted = apply(state, RecordResult(game_id="g2", winner="imperial", start_units=start,
                                               end_units=start), dice)
    cited = {s.rule for e in emitted for s in e.ruling.steps}
    assert cited and cited <= set(CAMPAIGN_RULES)


def test_played_support_cards_are_discarded_and_reshuffled_when_the_deck_runs_out():
    """content 3.1: unplayed support cards are kept; played ones go to the discard, which becomes the
    new deck when a card must be drawn from an empty one."""
    cat = shipped()
    dice = Dice(b"\x09" * 32, "camp-one-card")
    only = "PROP-SUP-EMP-PROBE-INTEL"
    state, _ = apply(CampaignState(), CreateCampaign(campaign_id="camp-one-card", campaign=cat.campaigns[C1],
                                                      support={"imperial": (only,)}), dice)
    units = units_of("PROP-SCN-FIRST-CONTACT")
    state, _ = apply(state, StartBattle(game_id="g1", scenario="PROP-SCN-FIRST-CONTACT"), dice)
    state, _ = apply(state, RecordResult(game_id="g1", winner="imperial", start_units=units, end_units=units,
                                         support_left={}), dice)
    assert state.support_hand["imperial"] == (only,) and state.support_deck["imperial"] == ()
    plan = next_battle(state)
    assert plan.sealed["support"] == {"imperial": [only]} and "support" not in plan.options
    state, _ = apply(state, StartBattle(game_id="g2", scenario=plan.scenario), dice)
    start = units_of(plan.scenario)
    # The Empire played its only support card in battle 2 and wins: the outcome draws 1 from an empty deck.
    state, emitted = apply(state, RecordResult(game_id="g2", winner="imperial", start_units=start,
                                               end_units=start, support_left={"imperial": ()}), dice)
    ended = emitted[0].event
    assert isinstance(ended, BattleEnded) and ended.support_played == {"imperial": (only,)}
    drawn = [e.event for e in emitted if isinstance(e.event, SupportDrawn) and e.event.faction == "imperial"]
    assert [(d.cards, d.reshuffled) for d in drawn] == [((only,), True)]
    assert state.support_hand["imperial"] == (only,) and state.support_discard["imperial"] == ()
    # A side cannot end a battle holding support cards it never had.
    state, _ = apply(state, StartBattle(game_id="g3", scenario=next_battle(state).scenario), dice)
    with pytest.raises(RuleViolation) as err:
        decide(state, RecordResult(game_id="g3", winner="rebel", support_left={"rebel": ("PROP-SUP-REB-DUG-IN",)}),
               dice)
    assert err.value.rule == "CAMPAIGN-4"
