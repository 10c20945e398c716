"""The worked examples and rules of sections 2-19 (SMOKE-HIT-1's 27 vs 12, SMOKE-ARMY-5's
preparations, SMOKE-ADV-5's two disadvantages, ...) and every special rule (SMOKE-SR), each a
test citing its rule id. Tables are set up where the rule needs them; dice are forced."""
from __future__ import annotations

import msgspec
import pytest

from domain.kernel import RuleViolation
from domain.smoke.choices import VIEW_INSIDE
from domain.smoke import commands as C
from domain.smoke import events as E
from domain.smoke.battle import (
    _unit_dice, discipline_modifiers, hits_inflicted, side_result, test_discipline as discipline_roll,
)
from domain.smoke.bombardment import _dice_for, refusal, retreat_options, targets
from domain.smoke.commanders import command_distance
from domain.smoke.content import TerrainElement
from domain.smoke.fire import fire_contact, line_of_fire
from domain.smoke.formations import formations
from domain.smoke.geometry import Box
from domain.smoke.movement import plan_move
from domain.smoke.outbox import Outbox
from domain.smoke.retreat import execute_retreat, plan_retreat, retreat_refusal
from domain.smoke.state import BattleCtx, Losses, Formation, RetreatPending, TurnState
from domain.smoke.units import fire_range, roll_retreat
from service.i18n import render

from .fixtures import ForcedDice, table_state
from .scripts import INF, duel, end_actions, of, place_marker, refused, rules

P1, P2 = "player-1", "player-2"


def out_for(st, faces=()):
    return Outbox(st, ForcedDice(b"\x02" * 32, "t", {}, list(faces)))


def at(*units, terrain=(), turn=None, **kw):
    """A table with (seat, profile, x, y, facing) units (ids P1-01.., P2-01.. in order)."""
    st = table_state([(s, p, Box(x, y, f, 1, 1)) for s, p, x, y, f in units], terrain=terrain, **kw)
    if turn is not None:
        st = msgspec.structs.replace(st, turn=turn)
    return st


def rect(x0, y0, x1, y1):
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def el(eid, kind, *poly):
    return TerrainElement(id=eid, kind=kind, polygon=poly)


# -- dice, victory, army (SMOKE-DICE, SMOKE-VIC, SMOKE-ARMY, SMOKE-SETUP, SMOKE-PHASE) ------------------
def test_dice2_d3_is_a_d6_halved_rounded_up():
    """SMOKE-DICE-2 (and SMOKE-STAT-1 retreat expressions)."""
    for face, want in zip(range(1, 7), (1, 1, 2, 2, 3, 3)):
        assert roll_retreat("d3", ForcedDice(b"\x00" * 32, "g", {}, [face]))[1] == want
        assert roll_retreat("d3+1", ForcedDice(b"\x00" * 32, "g", {}, [face]))[1] == want + 1
    assert roll_retreat("0", ForcedDice(b"\x00" * 32, "g", {}, [])) == ((), 0.0)


def test_hit1_example_27_against_12():
    """SMOKE-HIT-1: 27 vs 12 -> A inflicts 2 + 1 = 3 hits, B inflicts 1 + 0 = 1."""
    assert hits_inflicted(27, 12) == 3 and hits_inflicted(12, 27) == 1
    assert hits_inflicted(9, 0) == 0 and hits_inflicted(10, 10) == 1 and hits_inflicted(30, 9) == 5


def test_vic1_starting_morale_and_army3_commander_levels():
    """SMOKE-VIC-1 (sum of Morale), SMOKE-ARMY-3 (skill -> level = dice, GAP-B-05)."""
    from scenarios.smoke import shipped
    from domain.smoke.army import SKILLS, expanded

    from .play import Game, ruleset

    g = Game(ruleset(), "BTL-OPEN-FIELD")
    c = shipped()
    for seat, army in g.state.armies.items():
        al = c.armies[army.army]
        assert army.start_morale == sum(c.profiles[p].morale for p in expanded(al))
        assert army.level == SKILLS[al.commander][0] == SKILLS[al.commander][1]
    assert SKILLS == {"mediocre": (3, 3, 30), "competent": (4, 4, 70), "illustrious": (5, 5, 110)}


def test_setup4_first_player_roll_with_strategic_rating_and_rerolled_ties():
    """SMOKE-SETUP-4 / SMOKE-SRAT-1: d6 + rating, ties rerolled, the higher chooses."""
    g = duel([(INF, 10, 3, 90)], [(INF, 10, 19, 270)], first_side=None, faces=[3, 3, 2, 5])
    rolled = of(g.events, E.FirstSideRolled)[0]
    assert len(rolled.rounds) == 2  # 3+r vs 3+r tie, then 2 vs 5
    assert rolled.chooser == P2 and g.to_act() == P2
    assert [C.ChooseFirst(side="south"), C.ChooseFirst(side="north")] == g.rs.legal_commands(g.state, P2)
    g.faces += [4, 4, 4, 4]
    g.do(P2, C.ChooseFirst(side="south"))
    assert g.state.side_order == ("south", "north") and g.to_act() == P1


def test_phase2_sixes_advance_the_scenario_phase():
    """SMOKE-ACT-3 / SMOKE-PHASE-2: each 6 advances the phase (one player a side)."""
    g = duel([(INF, 10, 3, 90)], [(INF, 10, 19, 270)], faces=[6, 6, 1, 2])
    assert g.state.phase == 3
    adv = of(g.events, E.PhaseAdvanced)
    assert [a.phase for a in adv] == [2, 3] and "SMOKE-PHASE-2" in rules(g.emitted)


def test_vic3_the_scenario_end_marginal_by_morale_fraction():
    """SMOKE-VIC-3 / GAP-B-09: at the end of the last phase, the higher remaining fraction wins."""
    g = duel([(INF, 10, 3, 90), (INF, 12, 3, 90)], [(INF, 10, 19, 270), (INF, 12, 19, 270)], end_phase=1,
             faces=[6, 1, 2, 3])
    assert g.state.ending
    g.state = msgspec.structs.replace(g.state, armies={**g.state.armies, P2: msgspec.structs.replace(
        g.state.armies[P2], morale=3)})
    end_actions(g)
    res = g.state.result
    assert res.kind == "marginal" and res.winner == "south" and res.rule == "SMOKE-VIC-3"
    assert of(g.events, E.GameEnded)[0].fractions == {"south": 1.0, "north": 0.75}
    # the ruling lists each side with its fraction, as a message: the sides' printed names and the
    # reader's decimal sign are put in where it is read
    step = next(s for it in g.emitted if getattr(it, "ruling", None) for s in it.ruling.steps
                if s.rule == "GAP-B-09" and "fractions" in s.values)
    assert step.text == "Remaining morale fractions: south 1.000, north 0.750."
    said = render(step.message, "ru", {"south": "Юг", "north": "Север"})
    assert "Юг (south) 1,000" in said and "Север (north) 0,750" in said, said


def test_vic2_army_morale_at_zero_is_a_decisive_defeat():
    """SMOKE-VIC-2 (GAP-B-26: 0 counts)."""
    from domain.smoke.morale import lose_morale

    st = at((P1, INF, 5, 5, 90), (P2, INF, 20, 19, 270))
    out = out_for(st)
    lose_morale(out, P2, 20, "SMOKE-END-2", "test")
    assert out.state.result.kind == "decisive" and out.state.result.winner == "south"


# -- line of fire, fire contact (SMOKE-LOF) ----------------------------------------------------
def test_lof2_sector_range_and_both_front_corners():
    st = at((P1, INF, 10, 10, 90), (P2, INF, 10, 12.0, 270), (P2, INF, 13, 10, 270))
    u, e, side = st.units["P1-01"], st.units["P2-01"], st.units["P2-02"]
    m = line_of_fire(st, u, e)
    assert m["ok"] and m["distance"] == pytest.approx(1.5) and set(m["lines"]) == {"FL", "FR"}
    m = line_of_fire(st, u, side)
    assert not m["ok"] and m["rule"] == "SMOKE-GEO-8"  # beside it: outside the sector


def test_lof2_a_unit_in_between_blocks_but_do_not_block_fire_units_do_not():
    """SMOKE-LOF-2(b)4 / SMOKE-GEO-12a; SMOKE-SR-23."""
    screen = [(P1, INF, x, 11.2, 90) for x in (9, 10, 11)]  # a line of friends in front
    blocked = at((P1, INF, 10, 10, 90), *screen, (P2, INF, 10, 12.0, 270))
    m = line_of_fire(blocked, blocked.units["P1-01"], blocked.units["P2-01"])
    assert not m["ok"] and m["rule"] == "SMOKE-GEO-11" and m["lines"]["FL"]["blocked_by"].startswith("P1-")
    clear = at((P1, INF, 10, 10, 90), *[(P1, "skirmishers", x, 11.2, 90) for x in (9, 10, 11)],
               (P2, INF, 10, 12.0, 270))
    assert line_of_fire(clear, clear.units["P1-01"], clear.units["P2-01"])["ok"]


def test_sr23_infantry_behind_do_not_block_fire_units_adds_their_depth():
    """SMOKE-SR-23: in rear contact with a skirmisher base (depth 0.4): musket range 2 + 0.4."""
    st = table_state([(P1, INF, Box(10, 10, 90, 1, 0.5)), (P1, "skirmishers", Box(10, 10.45, 90, 1, 0.4))])
    assert fire_range(st, st.units["P1-01"]) == pytest.approx(2.4)
    alone = table_state([(P1, INF, Box(10, 10, 90, 1, 0.5))])
    assert fire_range(alone, alone.units["P1-01"]) == 2


def test_lof4_bombardment_range_makes_no_fire_contact():
    """SMOKE-LOF-4 (GAP-B-06): artillery 4 UW from a target (canister 2, bombardment 6) is not in fire
    contact, so it may bombard; at 1.5 UW it is in fire contact and may not (SMOKE-BOMB-2)."""
    far = at((P1, "light_artillery", 10, 10, 90), (P2, INF, 10, 15.0, 270))
    art = far.units["P1-01"]
    assert fire_contact(far, art, far.units["P2-01"]) is None and refusal(far, art) is None
    assert "P2-01" in targets(far, art)
    near = at((P1, "light_artillery", 10, 10, 90), (P2, INF, 10, 12.0, 270))
    assert refusal(near, near.units["P1-01"])[0] == "SMOKE-BOMB-2"
    literal = at((P1, "light_artillery", 10, 10, 90), (P2, INF, 10, 15.0, 270),
                 options={"fire_contact_uses_bombardment": True})
    assert fire_contact(literal, literal.units["P1-01"], literal.units["P2-01"]) is not None  # GAP-B-06 flag


def test_terr5_blocks_view_through_but_not_into():
    """SMOKE-TERR-5 / SMOKE-GEO-12b (GAP-B-08): a target behind a wood is hidden, one inside it is seen."""
    wood = el("W", "forest", *rect(8, 11.0, 12, 12.0))
    behind = at((P1, INF, 10, 10, 90), (P2, INF, 10, 12.5, 270), terrain=(wood,))
    m = line_of_fire(behind, behind.units["P1-01"], behind.units["P2-01"], reach=5)
    assert not m["ok"] and m["lines"]["FL"]["blocked_by"] == "W"
    inside = at((P1, INF, 10, 10, 90), (P2, INF, 10, 11.5, 270), terrain=(wood,))
    assert line_of_fire(inside, inside.units["P1-01"], inside.units["P2-01"], reach=5)["ok"]
    strict = at((P1, INF, 10, 10, 90), (P2, INF, 10, 11.5, 270), terrain=(wood,), choices={VIEW_INSIDE: "enter"})
    assert not line_of_fire(strict, strict.units["P1-01"], strict.units["P2-01"], reach=5)["ok"]


# -- formations (SMOKE-FORM) ----------------------------------------------------------------
def test_form1_edge_contact_in_the_same_terrain_makes_a_formation():
    """SMOKE-FORM-1/2, SMOKE-GEO-13 (the element holding the centre), SMOKE-SR-16 (Irregular alone)."""
    st = table_state([(P1, INF, Box(10, 10, 90, 1, 0.5)), (P1, INF, Box(11, 10, 90, 1, 0.5)),  # side by side
                      (P1, INF, Box(12.9, 10.6, 45, 1, 0.5)),  # apart
                      (P1, "cossacks", Box(9, 10, 90, 1, 0.5)),  # irregular, touching
                      (P2, INF, Box(10, 10.5, 270, 1, 0.5))])
    f = formations(st)
    assert f["P1-01"] == ("P1-01", "P1-02") and f["P1-03"] == ("P1-03",) and f["P1-04"] == ("P1-04",)
    vineyard = el("V", "vineyard", *rect(10.6, 9, 13, 11))
    st2 = table_state([(P1, INF, Box(10, 10, 90, 1, 0.5)), (P1, INF, Box(11, 10, 90, 1, 0.5))], terrain=(vineyard,))
    assert formations(st2)["P1-01"] == ("P1-01",)  # P1-02's centre is in the vineyard


# -- bombardment (SMOKE-BOMB) ----------------------------------------------------------------
def test_bomb4_dice_modifiers_and_the_minimum_of_one():
    village = el("V", "village", *rect(8, 14, 18, 17))
    line = [(P2, INF, 9 + i, 15, 270) for i in range(6)]
    st = at((P1, "light_artillery", 12, 10, 90), *line, terrain=(village,))
    shot = _dice_for(st, st.units["P1-01"], tuple(f"P2-0{i}" for i in range(1, 7)))
    assert shot["power"] == 2 and shot["dice"] == 4  # +1 village, +1 more than 5 units
    cav = at((P1, "light_artillery", 12, 10, 90), (P2, "line_cavalry", 12, 15, 270))
    shot = _dice_for(cav, cav.units["P1-01"], ("P2-01",))
    assert shot["dice"] == 1 and shot["modifiers"][0]["rule"] == "SMOKE-SR-8"
    reg = at((P1, "regimental_guns", 12, 10, 90), (P2, "light_artillery", 12, 14, 270))
    assert _dice_for(reg, reg.units["P1-01"], ("P2-01",))["dice"] == 1  # 1 - 1 (all artillery), at least 1


def test_bomb2_no_bombardment_from_cover_or_very_difficult_terrain():
    wood = el("W", "grove", *rect(11, 9, 13, 11))
    st = at((P1, "light_artillery", 12, 10, 90), (P2, INF, 12, 15, 270), terrain=(wood,))
    assert refusal(st, st.units["P1-01"])[0] == "SMOKE-TERR-3"
    swamp = el("S", "swamp", *rect(11.8, 9, 13, 11))
    st = at((P1, "light_artillery", 12, 10, 90), (P2, INF, 12, 15, 270), terrain=(swamp,))
    assert refusal(st, st.units["P1-01"])[0] == "SMOKE-TERR-2"


def test_terr4_from_an_elevation_plus_two_range_and_lines_over_units():
    hill = el("H", "hill", *rect(10, 8, 14, 12))
    st = at((P1, "light_artillery", 12, 10, 90), (P1, INF, 12, 12.6, 90), (P2, INF, 12, 17.8, 270), terrain=(hill,))
    art = st.units["P1-01"]
    m = line_of_fire(st, art, st.units["P2-01"], mode="bombard", melee=False)
    assert m["ok"] and m["range"] == 8.0  # 6 + 2, and the friend below the hill does not block


def test_bomb6_7_losses_nearest_first_and_at_most_one_per_artillery_unit():
    """SMOKE-BOMB-6/7: a 23 is two losses; only the nearest unit may retreat; one retreat per
    bombarding artillery unit; morale otherwise."""
    st = at((P1, "light_artillery", 12, 10, 90), (P2, INF, 12, 14, 270), (P2, INF, 14.5, 14, 270), (P2, INF, 16, 14, 270))
    losses = Losses(seat=P2, left=2, formations=(Formation(key="P2-01", units=("P2-01", "P2-02", "P2-03"),
                                                           artillery=("P1-01",)),))
    opts = retreat_options(st, losses)
    assert [o[0] for o in opts] == ["P2-01"]
    t = TurnState(side="south", players=(P1,), step="bombard", fired=True, losses=(losses,))
    g = out_for(msgspec.structs.replace(st, turn=t), faces=[4])
    from domain.smoke.bombardment import take_loss

    with pytest.raises(RuleViolation) as exc:
        take_loss(g, P2, "P2-03")
    assert exc.value.rule == "SMOKE-BOMB-7"
    take_loss(g, P2, "P2-01")
    assert g.state.turn.bombard_retreat.unit == "P2-01"
    execute_retreat(g, "P2-01", "back", "bombardment")
    left = g.state.turn.losses[0]
    assert left.left == 1 and not retreat_options(g.state, left)  # one artillery unit: one retreat
    take_loss(g, P2, None)
    assert of(g.items, E.MoraleLost)[-1].amount == 1
    r = of(g.items, E.UnitRetreated)[0]
    assert r.price_marker is None and "SMOKE-BOMB-8" in rules(g.items)


def test_bomb_a_whole_bombardment_through_the_commands():
    """SMOKE-BOMB-3..6 end to end: aim, one roll, the targeted player chooses."""
    g = duel([("light_artillery", 12, 10, 90), (INF, 20, 3, 90)], [(INF, 12, 14.5, 270), (INF, 25, 19, 270)])
    assert g.to_act() == P1 and g.state.turn.step == "bombard"
    assert C.Aim(unit="P1-01", target="P2-01") in g.rs.legal_commands(g.state, P1)
    g.do(P1, C.Aim(unit="P1-01", target="P2-01"))
    g.faces += [6, 6]  # 2 dice: 12 -> one loss
    items = g.do(P1, C.Bombard())
    rolled = of(items, E.BombardmentRolled)[0]
    assert rolled.rolls[0]["total"] == 12 and rolled.rolls[0]["losses"] == 1
    assert g.to_act() == P2
    assert g.rs.legal_commands(g.state, P2) == [C.TakeLoss(unit=None), C.TakeLoss(unit="P2-01")]
    g.do(P2, C.TakeLoss(unit=None))
    assert g.state.armies[P2].morale == 3 and g.state.turn.step == "actions"
    # SMOKE-SR-18: Immobile and bombarded this turn: it cannot move
    g.do(P1, C.PlaceDie(die=0, slot="A1"))
    g.do(P1, C.EndPlacement())
    cid = "P1-G"
    g.state = msgspec.structs.replace(g.state, commanders={cid: msgspec.structs.replace(g.state.commanders[cid], x=12,
                                                                                        y=8)} | {
        k: v for k, v in g.state.commanders.items() if k != cid})
    g.do(P1, C.Activate(slot="A1", die=0, commander=cid, unit="P1-01"))
    assert refused(g, P1, C.Move(unit="P1-01", kind="complex", vector=(0.5, 0))).rule == "SMOKE-SR-18"


# -- movement (SMOKE-MOVE, SMOKE-TERR-1/2/6, SMOKE-GEO-17) --------------------------------------------
def test_move5_6_friends_passed_not_ended_on_enemies_never_crossed():
    st = at((P1, INF, 10, 10, 90), (P1, INF, 10, 11.2, 90), (P2, INF, 14, 11.0, 270))
    u = st.units["P1-01"]
    end, m = plan_move(st, u, "simple", 90, 2.0, None)  # through the friend to 12.0
    assert (end.cx, end.cy) == pytest.approx((10, 12))
    with pytest.raises(RuleViolation) as exc:
        plan_move(st, u, "simple", 90, 1.2, None)  # ends on the friend
    assert exc.value.rule == "SMOKE-MOVE-5"
    with pytest.raises(RuleViolation) as exc:
        plan_move(st, u, "complex", None, None, (0.0, -3.0))  # complex speed 1
    assert exc.value.rule == "SMOKE-MOVE-4"
    with pytest.raises(RuleViolation) as exc:
        plan_move(st, u, "complex", None, None, (3.0, 0.6))  # ends touching the enemy
    assert exc.value.rule == "SMOKE-MOVE-6"
    st2 = at((P1, "line_cavalry", 10, 10, 0), (P2, INF, 13.0, 10, 180))
    cav = st2.units["P1-01"]
    end, m = plan_move(st2, cav, "simple", 0, 4.0, None)  # a charge stops at the first touch
    assert m["stopped_by"] == "P2-01" and m["distance"] == pytest.approx(2.375) and m["contacts"] == ["P2-01"]
    st3 = at((P1, "line_cavalry", 10, 10, 0), (P2, INF, 12.4, 10, 180))
    with pytest.raises(RuleViolation) as exc:  # a complex move may not make contact
        plan_move(st3, st3.units["P1-01"], "complex", None, None, (1.775, 0.0))
    assert exc.value.rule == "SMOKE-MOVE-6"
    close = at((P1, "line_cavalry", 10, 10, 0), (P2, INF, 10.7, 10, 180))
    with pytest.raises(RuleViolation) as exc:
        plan_move(close, close.units["P1-01"], "simple", 90, 0, None)
    assert exc.value.rule == "SMOKE-MOVE-5"  # pivoting through an enemy


def test_terr1_2_6_terrain_caps_and_the_road_bonus():
    field = el("F", "ploughed_field", *rect(9, 11, 11, 13))
    swamp = el("S", "swamp", *rect(14, 11, 16, 13))
    road = TerrainElement(id="R", kind="road", line=((20, 5), (20, 20)), width=0.5)
    marsh = el("M", "swamp", *rect(4, 11, 6, 13))
    st = at((P1, INF, 10, 10, 90), (P1, INF, 15, 10, 90), (P1, INF, 20, 8, 90), (P1, "light_artillery", 5, 10.2, 90),
            terrain=(field, swamp, road, marsh))
    with pytest.raises(RuleViolation) as exc:
        plan_move(st, st.units["P1-02"], "simple", 90, 1.5, None)
    assert exc.value.rule == "SMOKE-TERR-2"
    _, m = plan_move(st, st.units["P1-01"], "simple", 90, 2.0, None)
    assert m["cap"] == 2.0 and m["difficult"] == ["F"]
    _, m = plan_move(st, st.units["P1-03"], "simple", 90, 4.0, None)  # 2 + 2 on the road
    assert m["road_bonus"] == 2.0 and m["limit"] == 4.0
    with pytest.raises(RuleViolation) as exc:  # Immobile: no very difficult terrain at all (SMOKE-SR-18)
        plan_move(st, st.units["P1-04"], "simple", 90, 0.5, None)
    assert exc.value.rule == "SMOKE-SR-18"
    edge = at((P1, INF, 1, 10, 180))
    with pytest.raises(RuleViolation) as exc:  # a move may not leave the table (SMOKE-GEO-17)
        plan_move(edge, edge.units["P1-01"], "simple", 180, 1.0, None)
    assert exc.value.rule == "SMOKE-GEO-17"


# -- battles (SMOKE-RES, SMOKE-ADV, SMOKE-BAT-3/4, SMOKE-SR) ------------------------------------------
def _result(st, side="south", active=True, markers=()):
    b = BattleCtx(markers=markers, step="tactics")
    mine = [u for u in st.units.values() if st.armies[u.seat].side == side]
    enemies = [u for u in st.units.values() if st.armies[u.seat].side != side]
    return side_result(st, side, mine, enemies, b, active)


def test_adv5_non_light_cavalry_in_fire_contact_in_very_difficult_terrain_has_two_disadvantages():
    swamp = el("S", "swamp", *rect(9, 9, 11, 10.3))
    st = at((P1, "line_cavalry", 10, 10, 90), (P2, INF, 10, 11.5, 270), terrain=(swamp,))
    res = _result(st)
    assert [d["rule"] for d in res["disadvantages"]] == ["SMOKE-TERR-2", "SMOKE-SR-8"] and res["net"] == -2
    light = at((P1, "cossacks", 10, 10, 90), (P2, INF, 10, 11.5, 270), terrain=(swamp,))
    assert [d["rule"] for d in _result(light)["disadvantages"]] == ["SMOKE-SR-8"]  # SMOKE-SR-6


def test_adv1_3_the_pool_drops_the_lowest_or_highest():
    from domain.smoke.battle import roll_side

    res = {"pool": 3, "net": 1, "strength": 2}
    roll_side(ForcedDice(b"\x00" * 32, "g", {}, [1, 5, 6, 2]), res)
    assert res["kept"] == [5, 6, 2] and res["dropped"] == [1] and res["result"] == 15
    res = {"pool": 3, "net": -2, "strength": 0}
    roll_side(ForcedDice(b"\x00" * 32, "g", {}, [1, 5, 6, 2, 3]), res)
    assert res["kept"] == [1, 2, 3] and sorted(res["dropped"]) == [5, 6]


def test_sr13_armour_gives_the_enemy_side_a_disadvantage():
    st = at((P1, INF, 10, 10, 90), (P2, "cuirassiers", 10, 10.5, 270))
    assert [d["rule"] for d in _result(st)["disadvantages"]] == ["SMOKE-SR-13"]


def test_bat3_4_flank_attack_and_sr15_nimble():
    """A unit touching the enemy's side, not its front edge or front corners: +d6; Nimble +d6 more."""
    st = at((P1, "lancers", 10.875, 9.6, 180), (P2, INF, 10, 10, 90))  # P1 against P2's right side
    d = _unit_dice(st, st.units["P1-01"], [st.units["P2-01"]], True, {"P2-01"})
    assert [b["rule"] for b in d["bonus"]] == ["SMOKE-BAT-4", "SMOKE-SR-15", "SMOKE-SR-17"] and d["dice"] == 6
    front = at((P1, "lancers", 10, 10.625, 270), (P2, INF, 10, 10, 90))
    d = _unit_dice(front, front.units["P1-01"], [front.units["P2-01"]], True, set())
    assert d["bonus"] == [] and d["dice"] == 3


def test_sr14_gallop_charge_in_the_active_turn_against_cavalry():
    st = at((P1, "line_cavalry", 10, 10, 90), (P2, "line_cavalry", 10, 10.75, 270))
    active = _unit_dice(st, st.units["P1-01"], [st.units["P2-01"]], True, set())
    passive = _unit_dice(st, st.units["P1-01"], [st.units["P2-01"]], False, set())
    assert active["dice"] == 4 and passive["dice"] == 3 and active["bonus"][0]["rule"] == "SMOKE-SR-14"


def test_res2_the_shortest_range_weapon_melee_when_in_contact():
    st = at((P1, "line_cavalry", 10, 10, 90), (P2, INF, 10, 10.625, 270))
    d = _unit_dice(st, st.units["P1-01"], [st.units["P2-01"]], True, set())
    assert d["weapon"] == "melee"  # not the pistol
    apart = at((P1, "line_cavalry", 10, 10, 90), (P2, INF, 10, 11.5, 270))
    d = _unit_dice(apart, apart.units["P1-01"], [apart.units["P2-01"]], True, set())
    assert d["weapon"] == "Pistol" and d["dice"] == 1


def test_sr21_use_cover_melee_and_advantage_and_sr29_garrison_in_a_village():
    wood = el("W", "grove", *rect(8, 8, 12, 10.5))
    st = at((P1, "jaegers", 10, 9.5, 90), (P2, INF, 10, 9.95, 270), terrain=(wood,))
    d = _unit_dice(st, st.units["P1-01"], [st.units["P2-01"]], True, set())
    assert d["bonus"][0]["rule"] == "SMOKE-SR-21"
    assert _result(st)["advantages"][0]["rule"] == "SMOKE-TERR-3"
    village = el("V", "village", *rect(8, 8, 12, 10.5))
    gar = at((P1, "garrison_infantry", 10, 9.5, 90), (P2, INF, 10, 10.0, 270), terrain=(village,))
    d = _unit_dice(gar, gar.units["P1-01"], [gar.units["P2-01"]], True, set())
    assert d["bonus"][0]["rule"] == "SMOKE-SR-29"
    mods = discipline_modifiers(gar, gar.units["P1-01"])
    assert [m["rule"] for m in mods] == ["SMOKE-SR-9", "SMOKE-SR-29"]  # GAP-B-23: +1 infantry, +1 garrison


def test_sr24_countermarch_and_sr26_musketeer_cover():
    st = table_state([(P1, "mercenary_musketeers", Box(10, 10, 90, 1, 0.5)),
                      (P1, "mercenary_musketeers", Box(10, 9.5, 90, 1, 0.5)),
                      (P2, INF, Box(10, 11.9, 270, 1, 0.5))])
    d = _unit_dice(st, st.units["P1-01"], [st.units["P2-01"]], True, set())
    assert d["weapon"] == "Musket" and d["bonus"][0]["rule"] == "SMOKE-SR-24"  # 1.4 > half of 2
    cover = table_state([(P1, "mercenary_musketeers", Box(10, 10, 90, 1, 0.5)), (P1, "pikemen", Box(11, 10, 90, 1, 0.5)),
                         (P2, INF, Box(10, 10.5, 270, 1, 0.5))])
    passive = _unit_dice(cover, cover.units["P1-01"], [cover.units["P2-01"]], False, set())
    active = _unit_dice(cover, cover.units["P1-01"], [cover.units["P2-01"]], True, set())
    assert passive["bonus"][0]["rule"] == "SMOKE-SR-26" and not active["bonus"]


def test_disc2_a_natural_one_always_fails_and_the_rest_are_skipped():
    """SMOKE-DISC-2/3 (GAP-B-25): a guard (3+) with +1 still fails on 1; SMOKE-SR-25 mutiny +1."""
    st = at((P1, "pikemen", 10, 10, 90), (P1, INF, 3, 3, 90), turn=TurnState(side="south", players=(P1,), step="battles"))
    out = out_for(st, faces=[1, 6])
    assert discipline_modifiers(st, st.units["P1-01"])[0]["rule"] == "SMOKE-SR-25"
    assert discipline_roll(out, "P1-01", 2) is False
    tested = of(out.items, E.DisciplineTested)[0]
    assert len(tested.tests) == 1 and tested.tests[0]["face"] == 1
    assert of(out.items, E.MoraleLost)[0].amount == 4  # the parenthesised Morale (SMOKE-DISC-3)


def test_hit4_5_spread_before_doubling_and_the_fortification_ignores_one():
    """SMOKE-HIT-4/5 through a battle: 3 hits on two units; the fortified one ignores its first."""
    fort = el("F", "fortification", *rect(9.3, 10.55, 10.7, 11.45))
    g = duel([(INF, 10, 10, 90), (INF, 11, 10, 90), (INF, 25, 3, 90)],
             [(INF, 10, 11.0, 270), (INF, 11.2, 11.0, 270), (INF, 25, 19, 270), (INF, 26, 19, 270)], terrain=(fort,),
             faces=[4, 4, 4, 4], commanders1=((10.0, 8.0),))
    end_actions(g)
    g.faces += [6, 6, 6, 6, 1, 1, 1, 1]  # south 24 + 2 = 26 vs north 4 + 2: 2 + 2 = 4 hits
    place_marker(g)
    rolled = of(g.events, E.BattleRolled)[-1]
    assert rolled.allocation == {"P2-01": 2, "P2-02": 2} and rolled.ignored == {"P2-01": 1}
    assert g.state.turn.battle.hits == {"P2-01": 1, "P2-02": 2}


def test_ret2_who_cannot_retreat():
    """SMOKE-SR-5 never retreats, SMOKE-SR-25 mutiny, SMOKE-SR-1 pursuit (unless in difficult terrain)."""
    st = at((P1, "guard", 5, 5, 90), (P1, "pikemen", 7, 5, 90), (P1, INF, 10, 10, 90), (P2, "cuirassiers", 10, 10.625, 270))
    assert retreat_refusal(st, st.units["P1-01"])[0] == "SMOKE-SR-5"
    assert retreat_refusal(st, st.units["P1-02"])[0] == "SMOKE-SR-25"
    assert retreat_refusal(st, st.units["P1-03"])[0] == "SMOKE-SR-1"
    field = el("F", "ploughed_field", *rect(9, 10.6, 11, 12))
    st2 = at((P1, INF, 10, 10, 90), (P2, "cuirassiers", 10, 10.625, 270), terrain=(field,))
    assert retreat_refusal(st2, st2.units["P1-01"]) is None


# -- retreats (SMOKE-RET, SMOKE-FRET) ---------------------------------------------------------------
def _retreating(st, uid, distance, context="battle", markers=()):
    pend = RetreatPending(unit=uid, distance=distance, context=context)
    if context == "battle":
        t = TurnState(side="south", players=(P1,), step="battles",
                      battle=BattleCtx(markers=markers, step="resolve", hits={uid: 0}, retreat=pend))
    else:
        t = TurnState(side="south", players=(P1,), step="bombard", bombard_retreat=pend)
    return msgspec.structs.replace(st, turn=t)


def test_fret1_touching_an_enemy_or_the_table_edge_destroys():
    st = _retreating(at((P1, INF, 10, 10, 90), (P2, INF, 10, 7.5, 270), (P2, INF, 20, 19, 270)), "P1-01", 3.0)
    out = out_for(st)
    assert execute_retreat(out, "P1-01", "back", "battle") is False
    r = of(out.items, E.UnitRetreated)[0]
    assert r.outcome == "destroyed" and r.touched == "P2-01" and "SMOKE-FRET-1" in rules(out.items)
    assert of(out.items, E.MoraleLost)[0].amount == 3
    edge = _retreating(at((P1, INF, 10, 1.5, 90), (P2, INF, 20, 19, 270)), "P1-01", 2.0)
    assert plan_retreat(edge, edge.units["P1-01"], 2.0, "edge")["touched"] == "table edge"


def test_fret2_3_4_landing_on_friends():
    """Another formation: -1 morale and on to the first free place; the same formation: no loss;
    an Irregular unit: no loss (GAP-B-13)."""
    other = table_state([(P1, INF, Box(10, 10, 90, 1, 0.5)), (P1, INF, Box(10, 8.0, 45, 1, 0.5)),
                         (P2, INF, Box(20, 19, 270, 1, 0.5))])
    out = out_for(_retreating(other, "P1-01", 2.0))
    execute_retreat(out, "P1-01", "back", "battle")
    r = of(out.items, E.UnitRetreated)[0]
    assert r.friends == ("P1-02",) and r.other_formation and r.moved > 2.0
    assert [m.amount for m in of(out.items, E.MoraleLost)] == [1] and "SMOKE-FRET-2" in rules(out.items)
    same = table_state([(P1, INF, Box(10, 10, 90, 1, 0.5)), (P1, INF, Box(10, 9.5, 90, 1, 0.5)),
                        (P2, INF, Box(20, 19, 270, 1, 0.5))])  # in rear contact: one formation
    out = out_for(_retreating(same, "P1-01", 0.5))
    execute_retreat(out, "P1-01", "back", "battle")
    assert of(out.items, E.UnitRetreated)[0].friends == ("P1-02",) and not of(out.items, E.MoraleLost)
    assert "SMOKE-FRET-3" in rules(out.items)
    irr = table_state([(P1, "cossacks", Box(10, 10, 90, 1, 0.75)), (P1, INF, Box(10, 8.5, 45, 1, 0.5)),
                       (P2, INF, Box(10, 7.0, 270, 1, 0.5))])
    out = out_for(_retreating(irr, "P1-01", 3.0))
    execute_retreat(out, "P1-01", "back", "battle")
    assert of(out.items, E.UnitRetreated)[0].outcome == "destroyed" and not of(out.items, E.MoraleLost)
    assert "SMOKE-FRET-4" in rules(out.items)


def test_ret4_zero_retreat_and_sr6_light_and_sr27_elite():
    """A retreat of 0 neither moves nor turns (the hit is cancelled, the price rises); a Light unit's
    retreat raises no price; an Elite unit costs 1 morale each time it retreats."""
    from domain.smoke.state import Marker

    base = at((P1, "light_artillery", 10, 10, 90), (P1, "skirmishers", 14, 10, 90), (P1, "grenadiers", 18, 10, 90),
              (P2, INF, 20, 19, 270))
    base = msgspec.structs.replace(base, markers={"M1": Marker(id="M1", x=12, y=11)}, marker_seq=1)
    out = out_for(_retreating(base, "P1-01", 0.0, markers=("M1",)))
    execute_retreat(out, "P1-01", "back", "battle")
    r = of(out.items, E.UnitRetreated)[0]
    assert r.outcome == "zero" and r.start == r.end and r.price_marker == "M1"
    out = out_for(_retreating(base, "P1-02", 2.0, markers=("M1",)))
    execute_retreat(out, "P1-02", "back", "battle")
    assert of(out.items, E.UnitRetreated)[0].price_marker is None and "SMOKE-SR-6" in rules(out.items)
    out = out_for(_retreating(base, "P1-03", 2.0, markers=("M1",)))
    execute_retreat(out, "P1-03", "back", "battle")
    assert [m.amount for m in of(out.items, E.MoraleLost)] == [1] and "SMOKE-SR-27" in rules(out.items)


# -- markers and the end of a battle (SMOKE-MARK, SMOKE-END) --------------------------------------------
def test_mark5_merged_markers_fight_as_one_and_their_prices_add_up():
    """SMOKE-MARK-5 (GAP-B-11) and SMOKE-END-2: the loser pays the sum of the prices."""
    from domain.smoke.battle import end_of_battle
    from domain.smoke.markers import battle_groups
    from domain.smoke.state import Marker

    st = at((P1, INF, 10, 10, 90), (P2, INF, 20, 19, 270), (P2, INF, 21, 19, 270))
    st = msgspec.structs.replace(st, markers={"M1": Marker(id="M1", x=9, y=10, price=2),
                                              "M2": Marker(id="M2", x=11.5, y=10, price=3),
                                              "M3": Marker(id="M3", x=25, y=5)}, marker_seq=3)
    assert battle_groups(st) == [("M1", "M2"), ("M3",)]
    st = msgspec.structs.replace(st, turn=TurnState(side="south", players=(P1,), step="battles",
                                                    battle=BattleCtx(markers=("M1", "M2"), step="resolve",
                                                                     units=("P1-01", "P2-03"))))
    out = out_for(st)
    end_of_battle(out)
    ended = of(out.items, E.BattleEnded)[0]
    assert ended.outcome == "won" and ended.winner == "south" and ended.price == 5 and ended.payer == P2
    assert of(out.items, E.MoraleLost)[0].amount == 5 and "M1" not in out.state.markers


def test_mp4_an_ally_may_not_mark_the_same_opponent_again_this_turn():
    """SMOKE-MP-4 (GAP-B-16): in a 4-player side turn, the second player's marker may not include
    units of an opponent the first one's marker included."""
    from domain.smoke.turns import marker_offer

    from .play import Game, ruleset

    g = Game(ruleset(), "BTL-ALL-TERRAIN", options={"players": 4})
    st = g.state
    units = dict(st.units)
    a = units["P1-01"]
    # player-1 and player-2 in melee; player-3 in melee with player-2 elsewhere
    units["P1-01"] = msgspec.structs.replace(a, x=5, y=10, facing=90)
    units["P2-01"] = msgspec.structs.replace(units["P2-01"], x=5, y=10.5, facing=270)
    units["P3-01"] = msgspec.structs.replace(units["P3-01"], x=25, y=10, facing=90)
    units["P2-02"] = msgspec.structs.replace(units["P2-02"], x=25, y=10.5, facing=270)
    st = msgspec.structs.replace(st, units=units, turn=TurnState(
        side="south", players=("player-1", "player-3"), step="battle_start", player=1,
        marked={"player-1": ("player-2",)}))
    offer = marker_offer(st, "player-3")
    assert offer.forbidden == ("player-2",) and offer.best == 1  # P3-01 alone: never within 2 UW of P2-02
    from domain.smoke.geometry import point_box_distance

    for p in offer.points:  # every offered point covers one eligible unit and no unit of player-2
        assert sum(point_box_distance(p, st.units[u].box()) <= 2.01 + 1e-6 for u in offer.eligible
                   if st.units[u].seat != "player-2") == 1
        assert all(point_box_distance(p, u.box()) > 2 for u in st.units.values() if u.seat == "player-2")


def test_mp6_support_or_abandon():
    """SMOKE-MP-6 (GAP-B-27): Support shares the side's morale (rounded down); Abandon removes the army."""
    from domain.smoke.morale import lose_morale, support

    from .play import Game, ruleset

    g = Game(ruleset(), "BTL-ALL-TERRAIN", options={"players": 4})
    out = out_for(g.state)
    lose_morale(out, "player-1", 100, "SMOKE-END-2", "test")
    assert out.state.broken == "player-1" and out.state.result is None
    keep = out.state
    left = keep.armies["player-3"].morale
    support(out, "support")
    shared = of(out.items, E.SideSupported)[0]
    assert shared.shares == {"player-1": left // 2, "player-3": left // 2}
    lose_morale(out, "player-3", 100, "SMOKE-END-2", "test")
    assert out.state.result.kind == "decisive" and out.state.result.rule == "SMOKE-MP-6"
    out = out_for(keep)
    support(out, "abandon")
    assert out.state.armies["player-1"].out and not any(u.seat == "player-1" for u in out.state.units.values())
    assert out.state.result is None


# -- commanders (SMOKE-CMD, SMOKE-RISK, SMOKE-CMDR, SMOKE-SR-22) ------------------------------------------
def test_sr22_vanguard_formations_count_half_as_far():
    st = table_state([(P1, "jaegers", Box(10, 10, 90, 1, 0.4)), (P1, INF, Box(20, 10, 90, 1, 0.5))],
                     commanders=[(P1, 10, 4)])
    c = next(iter(st.commanders.values()))
    assert command_distance(st, c, [st.units["P1-01"]]) == pytest.approx((10 - 0.2 - 4) / 2)
    assert command_distance(st, c, [st.units["P1-02"]]) == pytest.approx(((10 - 0.25 - 4) ** 2 + 9.5 ** 2) ** 0.5)


def test_risk3_cavalry_contact_fails_on_1_2_and_cmdr1c_additional_commanders_are_removed():
    from domain.smoke.commanders import risk

    st = table_state([(P1, "line_cavalry", Box(10, 10, 90, 1, 0.75)), (P2, INF, Box(20, 19, 270, 1, 0.5))],
                     commanders=[(P2, 10, 10.6)])
    c = next(iter(st.commanders.values()))
    c = msgspec.structs.replace(c, general=False)
    st = msgspec.structs.replace(st, commanders={c.id: c})
    out = out_for(st, faces=[2])
    risk(out, c, "test")
    r = of(out.items, E.CommanderRisked)[0]
    assert r.cavalry and r.out and of(out.items, E.CommanderOut)[0].removed
    assert not of(out.items, E.MoraleLost) and c.id not in out.state.commanders


def test_risk6_a_deputy_is_never_below_level_two():
    from domain.smoke.commanders import commander_out

    st = table_state([(P1, INF, Box(10, 10, 90, 1, 0.5))], commanders=[(P1, 10, 5)])
    st = msgspec.structs.replace(st, armies={**st.armies, P1: msgspec.structs.replace(st.armies[P1], level=2)})
    out = out_for(st)
    commander_out(out, next(iter(st.commanders.values())), "test", "SMOKE-RISK-5")
    assert out.state.armies[P1].level == 2 and of(out.items, E.MoraleLost)[0].amount == 2


# -- actions (SMOKE-ACT) -------------------------------------------------------------------------
def test_act4_one_die_a_tactic_the_old_one_discarded():
    g = duel([(INF, 10, 3, 90)], [(INF, 10, 19, 270)], faces=[2, 5, 3, 4])
    g.do(P1, C.PlaceDie(die=0, slot="T1"))
    items = g.do(P1, C.PlaceDie(die=1, slot="T1"))
    assert of(items, E.DiePlaced)[0].replaced == 2 and g.state.armies[P1].tactics == {"T1": 5}
    assert refused(g, P1, C.PlaceDie(die=1, slot="A1")).rule == "SMOKE-ACT-4"  # already placed


def test_sr12_untrained_never_receive_tactics_and_sr11_regimental_guns_count_as_infantry():
    from domain.smoke.battle import _receives
    from domain.smoke.content import DisciplineBonus, Formula, Slot

    st = at((P1, "militia", 10, 10, 90), (P1, "regimental_guns", 12, 10, 90), (P1, "line_cavalry", 14, 10, 90))
    pikes = Slot(id="T9", name="Forest of pikes (test)", kind="tactic", effect=DisciplineBonus(units=Formula(die=1)),
                 unit_filter="infantry")
    assert not _receives(st, st.units["P1-01"], pikes)
    assert _receives(st, st.units["P1-02"], pikes) and not _receives(st, st.units["P1-03"], pikes)


def test_srat1_strategic_rating_and_sr19_heavy_artillery_counts_twice():
    """SMOKE-SRAT-1: level, +1 a third Veterans, +1 a Light unit per full 100 points, +1 a third
    cavalry, -1 a third Untrained, -1 per artillery unit beyond one per 100 points (Heavy: 2)."""
    from domain.smoke.army import strategic_rating
    from domain.smoke.content import ArmyEntry, ArmyList
    from scenarios.smoke import shipped

    c = shipped()
    base = ArmyList(id="x", name="x", faction="FAC-KARL", points=200, commander="competent",
                    units=(ArmyEntry(profile="line_infantry", count=4),))
    assert strategic_rating(base, c.profiles) == 4
    light = msgspec.structs.replace(base, units=base.units + (ArmyEntry(profile="skirmishers", count=2),))
    assert strategic_rating(light, c.profiles) == 5
    vets = msgspec.structs.replace(base, units=(ArmyEntry(profile="grenadiers", count=2),
                                                ArmyEntry(profile="line_infantry", count=4)))
    assert strategic_rating(vets, c.profiles) == 5
    heavy = msgspec.structs.replace(base, units=base.units + (ArmyEntry(profile="heavy_artillery", count=1),
                                                             ArmyEntry(profile="light_artillery", count=1)))
    assert strategic_rating(heavy, c.profiles) == 4 - 1  # 3 artillery (heavy = 2) against 2 allowed
    raw = msgspec.structs.replace(base, units=(ArmyEntry(profile="militia", count=3),))
    assert strategic_rating(raw, c.profiles) == 3


def test_mp3_allies_activate_each_others_formations_by_agreement():
    """SMOKE-MP-3: the agreement is the game option ``allied_command``."""
    from domain.smoke.actions import activation_check

    from .play import Game, ruleset

    for agreed in (False, True):
        g = Game(ruleset(), "BTL-CROSSROADS", options={"players": 4, "allied_command": agreed})
        seat = g.to_act()
        ally = next(s for s in g.state.sides[g.state.armies[seat].side] if s != seat)
        a = g.state.turn.actions
        g.do(seat, C.PlaceDie(die=a.dice.index(max(a.dice)), slot="A1"))
        g.do(seat, C.EndPlacement())
        die = g.state.turn.actions.placed["A1"][0]
        mine = next(c.id for c in g.state.commanders.values() if c.seat == seat)
        theirs = min(u.id for u in g.state.units.values() if u.seat == ally)
        g.state = msgspec.structs.replace(g.state, commanders={**g.state.commanders, mine: msgspec.structs.replace(
            g.state.commanders[mine], x=g.state.units[theirs].x, y=g.state.units[theirs].y - 1.5)})
        if agreed:
            activation_check(g.state, seat, "A1", die, mine, theirs)
        else:
            with pytest.raises(RuleViolation) as exc:
                activation_check(g.state, seat, "A1", die, mine, theirs)
            assert exc.value.rule == "SMOKE-ACT-6"
