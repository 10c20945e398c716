"""Every FAQ ruling of the rules (SMOKE-FAQ-1..30, section 20) as a test citing its rule id."""
from __future__ import annotations

import msgspec
import pytest

from domain.smoke import commands as C
from domain.smoke import events as E
from domain.smoke.battle import allocate, hit_order
from domain.smoke.commanders import free_spot
from domain.smoke.content import TerrainElement
from domain.smoke.geometry import Box
from domain.smoke.options import legal_commands
from domain.smoke.outbox import Outbox
from domain.smoke.retreat import execute_retreat
from domain.smoke.state import BattleCtx, Marker, RetreatPending, TurnState
from domain.smoke.turns import advance

from .fixtures import ForcedDice, table_state
from .scripts import INF, activate_first, duel, end_actions, of, place_marker, refused, rules

GREN = "grenadiers"
SKIRM = "skirmishers"


def melee(**kw):
    """P1-01 and P2-01 front to front; two more units far away; each commander behind its unit."""
    kw.setdefault("commanders1", ((10.0, 8.0),))
    kw.setdefault("commanders2", ((10.0, 12.5),))
    return duel([(INF, 10, 10, 90), (INF, 25, 3, 90)], [(INF, 10, 10.5, 270), (INF, 25, 19, 270)], **kw)


def to_battle(g, faces=()):
    end_actions(g)
    g.faces += list(faces)
    return place_marker(g)


def test_faq1_providence_cannot_cancel_tactics_without_unit_targets():
    """SMOKE-FAQ-1 / SMOKE-TAC-6: Providence cancels a tactic with unit targets (Steady), never one
    that has none (Volley) or moves units."""
    g = melee(faces=[3, 4, 5, 2])
    a = g.state.turn.actions
    g.do("player-1", C.PlaceDie(die=a.dice.index(3), slot="T1"))
    g.do("player-1", C.PlaceDie(die=a.dice.index(4), slot="T2"))
    end_actions(g)
    # player-2 had a die on Providence from its own turn: put one there directly
    g.state = msgspec.structs.replace(g.state, armies={**g.state.armies, "player-2": msgspec.structs.replace(
        g.state.armies["player-2"], tactics={"T3": 5})})
    place_marker(g)
    assert g.to_act() == "player-1"
    g.do("player-1", C.PlayTactic(slot="T2"))
    # only Volley played so far: Providence has no legal target, so player-2 is not even asked
    g.do("player-1", C.PlayTactic(slot="T1", units=("P1-01",)))
    assert g.to_act() == "player-2"  # player-1 has no tactic left: its tactics step closed by itself
    cmds = legal_commands(g.state, "player-2")
    assert C.PlayTactic(slot="T3", target="T1") in cmds
    assert C.PlayTactic(slot="T3", target="T2") not in cmds
    exc = refused(g, "player-2", C.PlayTactic(slot="T3", target="T2"))
    assert exc.rule == "SMOKE-TAC-6"
    g.faces += [6] * 12
    items = g.do("player-2", C.PlayTactic(slot="T3", target="T1"))
    assert "SMOKE-TAC-6" in rules(items)
    assert of(items, E.TacticPlayed)[0].target == "T1"
    # the battle is rolled at once (nobody has a tactic left): Volley still counts, Steady is gone
    rolled = of(items, E.BattleRolled)[0]
    assert rolled.sides["south"]["pool"] == 2  # 2 melee dice; Volley: 1 unit on the line of fire // 2 = 0 dice
    from domain.smoke.battle import discipline_modifiers

    assert not discipline_modifiers(g.state, g.state.units["P1-01"]) if g.state.turn.battle else True


def test_faq3_a_formation_is_in_radius_when_part_of_one_unit_is():
    """SMOKE-FAQ-3 / SMOKE-CMD-6: the radius reaching part of one unit brings the whole formation."""
    line = [(INF, 15 + i, 6, 90) for i in range(4)]  # 4 units side by side: one formation
    g = duel(line, [(INF, 15, 19, 270)], faces=[2, 3, 5, 6])
    exc = None
    a = g.state.turn.actions
    g.do("player-1", C.PlaceDie(die=a.dice.index(2), slot="A1"))
    g.do("player-1", C.PlaceDie(die=a.dice.index(3), slot="A1"))
    g.do("player-1", C.EndPlacement())
    # D = 2: radius 4 UW; the head (15, 1) is 4.75 UW from P1-01
    exc = refused(g, "player-1", C.Activate(slot="A1", die=a.dice.index(2), commander="P1-G", unit="P1-01"))
    assert exc.rule == "SMOKE-CMD-6"
    items = g.do("player-1", C.Activate(slot="A1", die=a.dice.index(3), commander="P1-G", unit="P1-04"))
    act = of(items, E.FormationActivated)[0]
    assert act.units == ("P1-01", "P1-02", "P1-03", "P1-04")  # P1-04 itself is 5.27 UW away
    assert act.measure["command_distance"] == pytest.approx(4.75)


def test_faq4_a_unit_in_a_fortification_may_pivot_and_keeps_its_benefits():
    """SMOKE-FAQ-4 / SMOKE-TERR-8, SMOKE-HIT-5: after pivoting inside its fortification the unit still
    ignores its first hit of the turn."""
    fort = TerrainElement(id="F", kind="fortification", polygon=((9.3, 9.6), (10.7, 9.6), (10.7, 10.4), (9.3, 10.4)))
    g = duel([(INF, 10, 10, 90), (INF, 25, 3, 90)], [(INF, 10, 11.5, 270), (INF, 25, 19, 270)], terrain=(fort,),
             faces=[4, 4, 4, 4], commanders1=((10.0, 8.0),))
    activate_first(g, "player-1", "P1-01", face=4)
    g.do("player-1", C.Move(unit="P1-01", kind="simple", facing=80, distance=0))
    assert g.state.units["P1-01"].facing == 80
    assert g.state.terrain().fortification_of(g.state.units["P1-01"].box()) == "F"
    end_actions(g)
    # the enemy shoots: musket 2 UW, the fortified unit is 0.75 UW away
    g.faces += [6, 6, 1, 1]  # south rolls 6 6 (2 dice), north 1 1
    place_marker(g)
    rolled = of(g.events, E.BattleRolled)[-1]
    south = rolled.sides["south"]
    assert south["result"] == 13


def test_faq5_an_action_is_finished_before_the_next_one_starts():
    """SMOKE-FAQ-5 / SMOKE-ACT-5."""
    g = duel([(INF, 15, 5, 90), (INF, 20, 5, 90)], [(INF, 15, 19, 270)], faces=[4, 4, 5, 6])
    g.do("player-1", C.PlaceDie(die=0, slot="A1"))
    g.do("player-1", C.PlaceDie(die=2, slot="A2"))
    g.do("player-1", C.EndPlacement())
    g.do("player-1", C.Activate(slot="A1", die=0, commander="P1-G", unit="P1-01"))
    exc = refused(g, "player-1", C.Ride(slot="A2", die=2, commander="P1-G", to=(15.0, 2.0)))
    assert exc.rule == "SMOKE-ACT-5"
    exc = refused(g, "player-1", C.Activate(slot="A1", die=1, commander="P1-G", unit="P1-02"))
    assert exc.rule == "SMOKE-ACT-5"
    g.do("player-1", C.EndActivation())
    g.do("player-1", C.Ride(slot="A2", die=2, commander="P1-G", to=(15.0, 2.0)))


def test_faq6_a_commander_passes_through_enemy_units():
    """SMOKE-FAQ-6 / SMOKE-CMD-2: the ride crosses an enemy unit and ends beyond it."""
    g = duel([(INF, 5, 3, 90)], [(INF, 15, 3, 270), (INF, 25, 19, 270)], faces=[4, 1, 2, 3])
    a = g.state.turn.actions
    g.do("player-1", C.PlaceDie(die=a.dice.index(4), slot="A2"))
    g.do("player-1", C.EndPlacement())
    items = g.do("player-1", C.Ride(slot="A2", die=a.dice.index(4), commander="P1-G", to=(15.0, 5.0)))
    rode = of(items, E.CommanderRode)[0]
    assert rode.end == (15.0, 5.0) and not of(items, E.CommanderRisked)
    # ending on a unit is not allowed
    g2 = duel([(INF, 5, 3, 90)], [(INF, 15, 3, 270), (INF, 25, 19, 270)], faces=[4, 1, 2, 3])
    g2.do("player-1", C.PlaceDie(die=0, slot="A2"))
    g2.do("player-1", C.EndPlacement())
    assert refused(g2, "player-1", C.Ride(slot="A2", die=0, commander="P1-G", to=(15.0, 3.0))).rule == "SMOKE-CMD-2"


def test_faq7_and_faq16_the_roll_ignores_dice_on_the_board_and_tactic_dice_stay():
    """SMOKE-FAQ-7 / SMOKE-ACT-1 and SMOKE-FAQ-16 / SMOKE-ACT-10."""
    g = duel([(INF, 15, 5, 90)], [(INF, 15, 19, 270)], faces=[5, 2, 3, 4])
    g.do("player-1", C.PlaceDie(die=0, slot="T1"))
    g.do("player-1", C.PlaceDie(die=1, slot="A1"))
    g.do("player-1", C.EndPlacement())
    items = g.do("player-1", C.EndActions())
    assert of(items, E.ActionsEnded)[0].discarded == (1,)
    assert g.state.armies["player-1"].tactics == {"T1": 5}  # the tactic keeps its die
    end_actions(g, "player-2")  # player-2's turn
    rolled = of(g.events, E.ActionDiceRolled)[-1]
    assert rolled.seat == "player-1" and len(rolled.faces) == 4  # level 4, whatever lies on the board
    assert g.state.armies["player-1"].tactics == {"T1": 5}


def test_faq8_a_risk_adds_a_new_die_and_a_one_on_it_puts_the_commander_out():
    """SMOKE-FAQ-8 / SMOKE-ACT-2, SMOKE-RISK-2/5/6."""
    g = duel([(INF, 15, 5, 90)], [(INF, 15, 19, 270)], faces=[1, 1, 3, 4])
    assert g.state.turn.actions.risk_left == 2
    g.faces += [6]
    items = g.do("player-1", C.TakeRisk())
    assert g.state.turn.actions.dice == (1, 1, 3, 4, 6)  # added, nothing re-rolled
    assert "SMOKE-ACT-2" in rules(items)
    g.faces += [1]
    items = g.do("player-1", C.TakeRisk())
    out = of(items, E.CommanderOut)[0]
    assert (out.level, out.new_level, out.removed) == (4, 3, False)
    lost = of(items, E.MoraleLost)[0]
    assert lost.amount == 4 and "SMOKE-RISK-5" in rules(items)
    army = g.state.armies["player-1"]
    assert army.level == 3 and not army.can_risk
    assert "P1-G" in g.state.commanders  # the figure stays
    assert C.TakeRisk() not in legal_commands(g.state, "player-1")


def test_faq9_additional_commanders_add_no_action_dice():
    """SMOKE-FAQ-9 / SMOKE-CMDR-1d."""
    g = duel([(INF, 15, 5, 90)], [(INF, 15, 19, 270)], commanders1=((15.0, 1.0), (5.0, 1.0)))
    assert len([c for c in g.state.commanders.values() if c.seat == "player-1"]) == 2
    assert len(of(g.events, E.ActionDiceRolled)[0].faces) == 4


def test_faq10_a_retreat_leaves_no_mark_on_the_unit():
    """SMOKE-FAQ-10 / SMOKE-RET-6: the unit state holds only its place; it acts normally afterwards."""
    g = melee(faces=[4, 4, 4, 4])
    to_battle(g, faces=[6, 6, 1, 1])
    # retreat d3 -> 2 UW, then a discipline 6 passes; then player-2's turn rolls 4 4 4 4
    g.faces += [4, 6, 4, 4, 4, 4]
    g.do("player-2", C.ResolveHits(unit="P2-01", retreat=True))
    g.do("player-2", C.Retreat(direction="back"))
    u = g.state.units["P2-01"]
    assert set(msgspec.structs.asdict(u)) == {"id", "seat", "profile", "x", "y", "facing", "w", "d"}
    assert g.to_act() == "player-2" and g.state.turn.side == "north"
    items = activate_first(g, "player-2", "P2-01", face=4)
    assert of(items, E.FormationActivated)[0].units == ("P2-01",)


def test_faq11_units_in_melee_may_move():
    """SMOKE-FAQ-11 / SMOKE-ACT-9: a unit in melee is activated and steps back (complex move)."""
    g = melee(faces=[4, 4, 4, 4])
    activate_first(g, "player-1", "P1-01", face=4)
    items = g.do("player-1", C.Move(unit="P1-01", kind="complex", vector=(0.0, -1.0)))
    assert of(items, E.UnitMoved)[0].end[:2] == (10.0, 9.0)


def test_faq12_tactics_are_played_in_the_battle_phase():
    """SMOKE-FAQ-12 / SMOKE-TAC-1."""
    g = melee(faces=[3, 4, 4, 4])
    g.do("player-1", C.PlaceDie(die=0, slot="T1"))
    exc = refused(g, "player-1", C.PlayTactic(slot="T1", units=("P1-01",)))
    assert exc.rule in ("SMOKE-ACT-5", "SMOKE-TURN-2")


def test_faq13_14_15_steady_in_one_battle_only_on_its_units_and_veterans():
    """SMOKE-FAQ-13 / SMOKE-TAC-4, SMOKE-FAQ-14 / SMOKE-TAC-5, SMOKE-FAQ-15 / SMOKE-SR-7."""
    g = duel([(INF, 10, 10, 90), (GREN, 11, 10, 90)] + [(INF, 23 + i, 3, 90) for i in range(4)],
             [(INF, 10, 10.5, 270), (GREN, 11, 10.5, 270)] + [(INF, 23 + i, 19, 270) for i in range(4)],
             faces=[1, 2, 4, 4])
    g.do("player-1", C.PlaceDie(die=1, slot="T1"))  # D = 2
    end_actions(g)
    place_marker(g)
    assert g.to_act() == "player-1"
    exc = refused(g, "player-1", C.PlayTactic(slot="T1", units=("P1-06",)))  # not in this battle
    assert exc.rule == "SMOKE-TAC-5"
    exc = refused(g, "player-1", C.PlayTactic(slot="T1", units=("P2-01",)))  # not yours
    assert exc.rule == "SMOKE-TAC-5"
    items = g.do("player-1", C.PlayTactic(slot="T1", units=()))
    played = of(items, E.TacticPlayed)[0]
    assert played.units == ("P1-02",)  # the Veterans receive it though none was named
    assert "SMOKE-SR-7" in rules(items)
    assert "T1" not in g.state.armies["player-1"].tactics  # the die is used
    from domain.smoke.battle import discipline_modifiers

    mods = discipline_modifiers(g.state, g.state.units["P1-02"])
    assert any(m["rule"] == "SMOKE-TAC-1" for m in mods)
    assert not discipline_modifiers(g.state, g.state.units["P2-02"])  # the enemy's Veterans: nothing
    # player-1 had nothing else to play, player-2 nothing: the battle was rolled at once (its owners then
    # choose among equally near units, SMOKE-HIT-3, or resolve their hits)
    rolled = of(g.events, E.BattleRolled)
    assert len(rolled) == 1 and g.state.turn.battle.step in ("allocate", "resolve")
    g.faces += [1, 1, 1, 1]  # every discipline test fails
    while g.state.turn.battle is not None:
        seat = g.to_act()
        cmds = legal_commands(g.state, seat)
        g.do(seat, next((c for c in cmds if isinstance(c, C.ResolveHits) and not c.retreat), cmds[0]))
    # the battle is over: its tactics ended with it (nothing is left of them)
    assert of(g.events, E.BattleEnded)[-1].outcome in ("won", "continues", "empty")
    assert g.state.result is None and g.state.turn.battle is None


def test_faq17_hits_are_resolved_unit_by_unit_in_the_owners_order():
    """SMOKE-FAQ-17 / SMOKE-RET-1."""
    g = duel([(INF, 10, 10, 90), (INF, 11, 10, 90), (INF, 25, 3, 90)],
             [(INF, 10, 10.5, 270), (INF, 11, 10.5, 270), (INF, 25, 19, 270)], faces=[4, 4, 4, 4])
    to_battle(g, faces=[6, 6, 6, 6, 1, 1, 1, 1])  # south 24 + 2 = 26, north 4 + 2 = 6: 2 + 2 = 4 hits
    rolled = of(g.events, E.BattleRolled)[-1]
    assert rolled.hits == {"south": 4, "north": 0}
    assert rolled.allocation == {"P2-01": 2, "P2-02": 2}
    cmds = legal_commands(g.state, "player-2")
    assert {c.unit for c in cmds} == {"P2-01", "P2-02"}  # either may go first


def test_faq18_the_retreat_direction_is_chosen_after_the_roll():
    """SMOKE-FAQ-18 / SMOKE-RET-3."""
    g = melee(faces=[4, 4, 4, 4])
    to_battle(g, faces=[6, 6, 1, 1])
    g.faces += [6]
    items = g.do("player-2", C.ResolveHits(unit="P2-01", retreat=True))
    assert of(items, E.RetreatRolled)[0].distance == 3
    assert legal_commands(g.state, "player-2") == [C.Retreat(direction="edge"), C.Retreat(direction="back")]


def test_faq19_terrain_does_not_change_the_retreat_distance():
    """SMOKE-FAQ-19 / SMOKE-MOVE-7: from a swamp (very difficult) the unit still retreats 3 UW."""
    swamp = TerrainElement(id="S", kind="swamp", polygon=((8, 10.3), (12, 10.3), (12, 16), (8, 16)))
    g = duel([(INF, 10, 10, 90), (INF, 25, 3, 90)], [(INF, 10, 10.5, 270), (INF, 25, 19, 270)], terrain=(swamp,),
             faces=[4, 4, 4, 4])
    to_battle(g, faces=[6, 6, 1, 1])
    g.faces += [6, 6]
    g.do("player-2", C.ResolveHits(unit="P2-01", retreat=True))
    items = g.do("player-2", C.Retreat(direction="back"))
    r = of(items, E.UnitRetreated)[0]
    assert r.moved == 3.0 and r.end[:2] == (10.0, 13.5)


def test_faq20_the_own_table_edge_is_the_deployment_side():
    """SMOKE-FAQ-20 / SMOKE-DEP-5: "edge" goes straight to the own edge, whatever the facing."""
    g = duel([(INF, 10, 10, 0), (INF, 25, 3, 90)], [(INF, 10.75, 10, 180), (INF, 25, 19, 270)], faces=[4, 4, 4, 4])
    to_battle(g, faces=[1, 1, 6, 6])  # north wins: P1-01 takes 2 hits
    g.faces += [4, 6]
    g.do("player-1", C.ResolveHits(unit="P1-01", retreat=True))
    items = g.do("player-1", C.Retreat(direction="edge"))
    r = of(items, E.UnitRetreated)[0]
    assert r.vector == (0.0, -1.0) and r.end == (10.0, 8.0, 270.0)


def test_faq21_22_a_risked_commander_stays_and_goes_to_the_nearest_free_spot():
    """SMOKE-FAQ-21 / SMOKE-RISK-4 and SMOKE-FAQ-22 / SMOKE-CMD-5."""
    g = duel([(INF, 10, 12, 90), (INF, 25, 3, 90)], [(INF, 20 + i, 19, 270) for i in range(4)],
             commanders2=((10.0, 14.0),), commanders1=((10.0, 9.0),), faces=[4, 4, 4, 4])
    activate_first(g, "player-1", "P1-01", face=4)
    g.faces += [1]  # the risk roll: out of action
    items = g.do("player-1", C.Move(unit="P1-01", kind="simple", facing=90, distance=1.6))
    risk = of(items, E.CommanderRisked)[0]
    assert risk.out and risk.units == ("P1-01",)
    assert of(items, E.CommanderOut)[0].new_level == 3
    moved = of(items, E.CommanderDisplaced)[0]
    assert moved.end == (10.0, 16.0) and "P2-G" in g.state.commanders
    # no room toward the edge: the nearest free spot
    g2 = duel([(INF, 10, 2.5, 270), (INF, 10, 0.5, 90), (INF, 25, 3, 90)], [(INF, 25, 19, 270)],
              commanders1=((10.0, 1.0),), faces=[4, 4, 4, 4])
    activate_first(g2, "player-1", "P1-01", face=4)
    items = g2.do("player-1", C.Move(unit="P1-01", kind="simple", facing=270, distance=1.2))
    moved = of(items, E.CommanderDisplaced)[0]
    assert moved.nearest_free and free_spot(g2.state, moved.end)
    assert "SMOKE-CMD-5" in rules(items) and "SMOKE-CMD-3" in rules(items)


def test_faq23_no_fire_at_targets_outside_the_battle():
    """SMOKE-FAQ-23 / SMOKE-RES-1: the skirmishers are in the battle, their only target is not."""
    g = duel([(INF, 10, 10, 90), (SKIRM, 12.2, 10, 0), (INF, 25, 3, 90)],
             [(INF, 10, 10.5, 270), (INF, 15, 10, 180), (INF, 25, 19, 270)], faces=[4, 4, 4, 4])
    end_actions(g)
    assert g.state.turn.marker_offer.best == 3
    g.faces += [6, 6, 1, 1]
    g.do("player-1", C.PlaceMarker(at=(11.0, 10.25)))
    rolled = of(g.events, E.BattleRolled)[-1]
    assert [r["unit"] for r in rolled.sides["south"]["rolling"]] == ["P1-01"]
    assert rolled.sides["south"]["strength"] == 1  # skirmishers: strength 0, but they are in the battle


def test_faq24_the_marker_covers_units_of_both_players():
    """SMOKE-FAQ-24 / SMOKE-MARK-3."""
    g = duel([(INF, 10, 10, 90), (INF, 25, 3, 90)],
             [(INF, 10, 10.5, 270), (INF, 11, 10.5, 270), (INF, 9, 10.5, 270), (INF, 25, 19, 270)], faces=[4, 4, 4, 4])
    end_actions(g)
    offer = g.state.turn.marker_offer
    assert offer.best == 4 and set(offer.eligible) == {"P1-01", "P2-01", "P2-02", "P2-03"}


def test_faq25_26_one_marker_a_turn_and_it_must_be_placed():
    """SMOKE-FAQ-25 / SMOKE-MARK-1 (never more than one) and SMOKE-FAQ-26 (mandatory)."""
    g = duel([(INF, 5, 10, 90), (INF, 20, 10, 90)], [(INF, 5, 10.5, 270), (INF, 20, 10.5, 270)], faces=[4, 4, 4, 4])
    end_actions(g)
    cmds = legal_commands(g.state, "player-1")
    assert cmds and all(isinstance(c, C.PlaceMarker) for c in cmds)
    assert refused(g, "player-1", C.EndActions()).rule == "SMOKE-MARK-1"
    g.faces += [1, 1, 1, 1]
    g.do("player-1", cmds[0])
    assert len(g.state.markers) == 1 and g.state.turn.side == "north"  # one battle fought, turn over
    assert not of(g.events[-40:], E.FireContactMeasured)[-1:] or of(g.events, E.FireContactMeasured)[-1].seat == "player-1"


def test_faq27_the_price_of_the_nearest_marker_rises():
    """SMOKE-FAQ-27 / SMOKE-RET-5: in a battle of two markers the retreating unit raises the
    price of the marker nearest to it after the retreat."""
    st = table_state([("player-1", Box(10, 10, 90, 1, 0.5)), ("player-2", Box(10, 10.5, 270, 1, 0.5)),
                      ("player-2", Box(12, 10.5, 270, 1, 0.5))])
    st = msgspec.structs.replace(
        st, markers={"M1": Marker(id="M1", x=9.0, y=10.25), "M2": Marker(id="M2", x=11.5, y=12.5)}, marker_seq=2,
        turn=TurnState(side="south", players=("player-1",), step="battles",
                       battle=BattleCtx(markers=("M1", "M2"), step="resolve", hits={"P2-01": 0},
                                        resolve_order=("player-2",),
                                        retreat=RetreatPending(unit="P2-01", distance=2.0, context="battle"))))
    out = Outbox(st, ForcedDice(b"\x01" * 32, "t", {}, []))
    execute_retreat(out, "P2-01", "back", "battle")
    r = of(out.items, E.UnitRetreated)[0]
    assert r.end[:2] == (10.0, 12.5) and r.price_marker == "M2"
    assert out.state.markers["M2"].price == 2 and out.state.markers["M1"].price == 1


def test_faq28_hits_go_to_the_units_nearest_the_enemy_not_the_marker():
    """SMOKE-FAQ-28 / SMOKE-HIT-3."""
    st = table_state([("player-1", Box(10, 10, 90, 1, 0.5)),
                      ("player-2", Box(12, 11.2, 270, 1, 0.5)),   # 0.96 UW from P1-01, next to the marker
                      ("player-2", Box(10, 11.0, 270, 1, 0.5))])  # 0.5 UW from P1-01
    order = hit_order(st, [st.units["P2-01"], st.units["P2-02"]], [st.units["P1-01"]])
    assert [o["unit"] for o in order] == ["P2-02", "P2-01"]
    assert allocate(order, 1) == {"P2-02": 1, "P2-01": 0}
    assert allocate(order, 3) == {"P2-02": 2, "P2-01": 1}  # SMOKE-HIT-4: spread before doubling


def test_faq29_an_empty_marker_is_removed_without_loss():
    """SMOKE-FAQ-29 / SMOKE-MARK-6."""
    st = table_state([("player-1", Box(3, 3, 90, 1, 0.5)), ("player-2", Box(20, 19, 270, 1, 0.5))])
    st = msgspec.structs.replace(st, markers={"M1": Marker(id="M1", x=12.0, y=11.0, price=3)}, marker_seq=1,
                                 side_order=("south", "north"),
                                 turn=TurnState(side="south", players=("player-1",), step="battles"))
    out = Outbox(st, ForcedDice(b"\x01" * 32, "t", {}, [4, 4, 4, 4]))
    advance(out)
    removed = of(out.items, E.MarkerRemoved)
    assert removed and removed[0].marker == "M1" and "SMOKE-MARK-6" in rules(out.items)
    assert not of(out.items, E.MoraleLost)


def test_faq30_march_cannot_move_units_near_the_enemy():
    """SMOKE-FAQ-30 / SMOKE-ACT-8: March (A3) is refused within 3 UW of an enemy; Order is not."""
    g = duel([(INF, 10, 7, 90), (INF, 15, 4, 90)], [(INF, 10, 10, 270)], faces=[4, 4, 4, 4], commanders1=((12.0, 5.0),))
    g.do("player-1", C.PlaceDie(die=0, slot="A3"))
    g.do("player-1", C.PlaceDie(die=1, slot="A1"))
    g.do("player-1", C.EndPlacement())
    exc = refused(g, "player-1", C.Activate(slot="A3", die=0, commander="P1-G", unit="P1-01"))
    assert exc.rule == "SMOKE-ACT-8"
    g.do("player-1", C.Activate(slot="A3", die=0, commander="P1-G", unit="P1-02"))  # far from the enemy
    g.do("player-1", C.EndActivation())
    g.do("player-1", C.Activate(slot="A1", die=1, commander="P1-G", unit="P1-01"))


def test_faq2_deployment_order_with_fortifications_and_a_deployment_bonus():
    """SMOKE-FAQ-2 / SMOKE-DEP-6: fortifications (with their units) first, the first player's then
    the second's, then the usual deployment; with a deployment bonus the player without it deploys
    completely (fortifications, markers, units) before the player with it."""
    from .test_deployment import opened

    g = opened(2)
    first = g.state.side_order[0]
    steps = g.state.deployment.steps
    assert steps == (("columns", "*"), ("forts", "player-2"), ("markers", "player-1"), ("markers", "player-2"),
                     ("reveal", "*"), ("units", "player-1"), ("units", "player-2"))
    g4 = opened(4)
    steps = g4.state.deployment.steps
    # player-1 (Karl's reconnaissance wing) has the bonus: everybody else deploys first
    assert steps[0] == ("columns", "*") and steps[-3:] == (("markers", "player-1"), ("reveal", "player-1"),
                                                          ("units", "player-1"))
    assert [x for x in steps if x[0] == "units"] == [("units", "player-3"), ("units", "player-2"),
                                                     ("units", "player-4"), ("units", "player-1")]
    assert first is None or first in ("karl", "vertumn")
