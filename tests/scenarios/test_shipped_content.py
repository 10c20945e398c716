"""The shipped Battle of Hoth content lints clean and covers what the issue asks for."""
from __future__ import annotations

from collections import Counter

from domain.hoth.campaign.graph import AddLeader, AddUnit, DrawSupport, RemoveUnit
from domain.hoth.scenario import PermanentMedal, SuddenDeath, TemporaryMedal
from scenarios.hoth import EFFECT_KINDS, lint, load_catalog, shipped
from scenarios.hoth.checks import BADGE_UNITS, UNIT_FACTION


def test_lint_passes_on_all_shipped_content():
    assert [str(p) for p in lint()] == []


def test_catalog_holds_everything_by_id():
    cat = load_catalog()
    assert len(cat.scenarios) >= 8
    assert "SCN-TAKE-DOWN-THE-SHIELD" in cat.scenarios
    assert {"PROP-SCN-FIRST-CONTACT", "PROP-SCN-CANNON-RIDGE", "PROP-SCN-OUTPOST-DELTA"} <= set(cat.scenarios)
    assert set(cat.campaigns) == {"CMP-1-ASSAULT-ON-ECHO-BASE", "CMP-2-OUTPOST-DELTA"}
    assert shipped() is shipped()  # loaded once


def test_take_down_the_shield_is_the_source_scenario_with_its_proposed_layout():
    s = shipped().scenarios["SCN-TAKE-DOWN-THE-SHIELD"]
    prov = shipped().provenance[s.id]
    assert (s.status, s.layout_status, prov["special_rules"], prov["layout"]) == \
        ("source", "proposed", "source", "proposed")
    # content 2.2: Empire first, 4 cards each; Empire sudden death only and no kill medals; Rebels 5 medals.
    assert s.first == "imperial" and s.south == "imperial"
    assert (s.imperial.hand_size, s.rebel.hand_size) == (4, 4)
    assert s.imperial.victory_medals is None and s.imperial.elimination_medals is False
    assert s.rebel.victory_medals == 5
    (sd,) = s.objectives
    assert isinstance(sd, SuddenDeath) and sd.faction == "imperial"
    assert set(sd.condition.structures) == {st.id for st in s.structures} and len(s.structures) == 2
    # x = 2*col + (row % 2): generators at c1 r5 and c7 r5; AT-ATs at c1 r1 and c7 r1.
    assert {st.hex for st in s.structures} == {(3, 5), (15, 5)}
    assert {(st.kind, st.owner, st.destroyed_by) for st in s.structures} == {
        ("shield_generator", "rebel", ("explosion",))}  # GENERATORS-ATTACKABLE: one explosion
    assert {u.hex for u in s.units if u.unit == "at_at"} == {(3, 1), (15, 1)}
    assert Counter(u.unit for u in s.units) == Counter(
        {"snowtroopers": 5, "echo_troopers": 3, "at_at": 2, "snowspeeders": 2, "rebel_artillery": 1})


def test_every_unit_terrain_structure_badge_and_objective_kind_appears():
    cat = shipped()
    units, terrain, structures, badges, objectives = set(), set(), set(), set(), set()
    for s in cat.scenarios.values():
        units |= {u.unit for u in s.units}
        badges |= {u.badge for u in s.units if u.badge}
        terrain |= {t.terrain for t in s.terrain}
        structures |= {st.kind for st in s.structures}
        objectives |= {type(o) for o in s.objectives}
    assert units == set(UNIT_FACTION)
    assert terrain == {"ridge", "rocks", "serac", "buildings", "trench", "crevasse"}
    assert structures == {"shield_generator", "ion_cannon"}
    assert badges == set(BADGE_UNITS)
    assert objectives == {TemporaryMedal, PermanentMedal, SuddenDeath}


def test_every_scenario_marks_source_and_proposed_parts():
    cat = shipped()
    for sid, s in cat.scenarios.items():
        prov = cat.provenance[sid]
        assert prov and set(prov.values()) <= {"source", "inferred", "proposed", "missing"}, sid
        assert prov["layout"] == s.layout_status, sid
        assert (s.status == "proposed") == sid.startswith("PROP-"), sid


def test_cards_16_standard_per_faction_3_per_leader_10_support():
    cat = shipped()
    for faction in ("imperial", "rebel"):
        deck = cat.deck(faction)
        assert len(deck.cards) == 16
        assert Counter(cat.cards[c].kind for c in deck.cards) == {"section": 10, "tactic": 6}
    for leader in ("vader", "veers", "piett", "leia", "luke", "han"):
        ids = cat.leader_cards(leader)
        assert len(ids) == 3 and all(cat.cards[i].kind == "leader" for i in ids)
    assert len(cat.support_cards("imperial")) == 5 and len(cat.support_cards("rebel")) == 5
    assert sum(1 for c in cat.cards.values()) == 16 * 2 + 9 * 2 + 10


def test_card_status_and_the_source_texts():
    cards = shipped().cards
    source = {i for i, c in cards.items() if c.status == "source"}
    # The two card texts in the sources (content 4.4).
    assert source == {"EMP-VADER-POWER-OF-THE-FORCE", "REB-LEIA-PRINCESS-ORDERS"}
    assert cards["EMP-DEPLOY-THE-FLEET"].status == "inferred"  # 2-player text INFERRED (content 4.2)
    assert all(c.status == "proposed" for i, c in cards.items() if i.startswith("PROP-"))
    vader = cards["EMP-VADER-POWER-OF-THE-FORCE"]
    assert [e.__struct_config__.tag for e in vader.effects] == ["order", "convert_result"]
    assert (vader.effects[1].from_symbol, vader.effects[1].to_symbol) == ("retreat", "explosion")
    leia = cards["REB-LEIA-PRINCESS-ORDERS"]
    assert leia.effects[0].groups[0].count == 2 and leia.effects[1].dice == 1
    for c in cards.values():
        assert c.text.strip() and c.effects
        assert all(e.__struct_config__.tag in EFFECT_KINDS for e in c.effects)


def test_campaign_graphs_follow_content_5_5():
    cat = shipped()
    c1 = cat.campaigns["CMP-1-ASSAULT-ON-ECHO-BASE"]
    assert c1.start == "C1-1"
    assert [c1.nodes[n].scenario for n in ("C1-1", "C1-2", "C1-3")] == \
        ["PROP-SCN-FIRST-CONTACT", "PROP-SCN-CANNON-RIDGE", "SCN-TAKE-DOWN-THE-SHIELD"]
    emp = c1.nodes["C1-1"].outcomes["imperial"]
    assert emp.next == "C1-2"
    assert DrawSupport(faction="imperial") in emp.effects and AddLeader(faction="imperial", leader="veers") in emp.effects
    assert RemoveUnit(faction="rebel", unit="echo_troopers", hex=(3, 5)) in emp.effects  # c1 r5
    reb2 = c1.nodes["C1-2"].outcomes["rebel"]
    assert AddUnit(faction="rebel", unit="rebel_artillery", hex=(11, 5)) in reb2.effects  # c5 r5
    assert len(c1.nodes["C1-2"].secret_objectives) == 2
    c2 = cat.campaigns["CMP-2-OUTPOST-DELTA"]
    assert c2.nodes["C2-1"].outcomes["imperial"].next == "C2-3"
    assert c2.nodes["C2-1"].outcomes["rebel"].next == "C2-2"
    assert c2.nodes["C2-2"].outcomes["rebel"].next is None
    assert c2.nodes["C2-2"].outcomes["rebel"].campaign_winner == "rebel"
