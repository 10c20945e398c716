"""The bots' values (bots/hoth/values.py) follow the rules they cite."""
from __future__ import annotations

import msgspec

from bots.arena import Arena
from bots.hoth import values
from domain.kernel import registry

RS = registry.get("hoth")
replace = msgspec.structs.replace


def _ridge_watch():
    """Ridge Watch, with an imperial snowtrooper unit standing on the imperial temporary-medal hex."""
    st = Arena(RS, "PROP-SCN-RIDGE-WATCH", "v1", seed=(1).to_bytes(32, "big")).state
    ob = next(o for o in st.scenario.objectives if getattr(o, "id", "") == "EAST-RIDGE-IMPERIAL")
    uid, u = next((k, u) for k, u in st.units.items() if u.faction == "imperial" and u.unit == "snowtroopers")
    on = replace(st, units={**st.units, uid: replace(u, hex=tuple(ob.hex))})
    return on, uid, ob


def test_attack_on_a_temporary_medal_holder_counts_the_medal_lost_on_elimination():
    """HOTH-OBJ-TEMP-2: an eliminated unit leaves its hex and its side loses the temporary medal at once."""
    on, uid, ob = _ridge_watch()
    held = replace(on, held=tuple(on.held) + (ob.id,) if ob.id not in on.held else on.held)
    free = replace(on, held=tuple(h for h in on.held if h != ob.id))
    rebel = next(u for u in on.units.values() if u.faction == "rebel" and u.unit == "echo_troopers")
    sc = values.scales(on)
    medal = sc.medal("imperial")
    for dice in (5, 6):  # at least as many dice as the unit has figures (4): it can be eliminated
        v_held = values.attack_value(held, rebel, uid, dice)
        v_free = values.attack_value(free, rebel, uid, dice)
        # the medal is lost by a retreat off the hex or by the elimination: more than the retreat part alone
        assert v_held > v_free
        old = values.COUNT_HELD_ON_KILL
        try:
            values.COUNT_HELD_ON_KILL = False
            sc.attack_memo.clear()
            v_retreat_only = values.attack_value(held, rebel, uid, dice)
        finally:
            values.COUNT_HELD_ON_KILL = old
            sc.attack_memo.clear()
        assert v_held > v_retreat_only
        # the medal is lost once per roll: by the elimination, or by a flag of a roll that leaves the unit alive
        # (HOTH-RETREAT-1: retreats follow the losses) -- every roll of the dice counted, none twice
        assert abs((v_held - v_free) - ob.medals * medal * _medal_lost_by_roll(on.units[uid], dice)) < 1e-9
    # the focus value of several attacks counts it too
    assert values.focus_value(held, held.units[uid], "rebel", 4.0) > values.focus_value(free, free.units[uid],
                                                                                          "rebel", 4.0)


def _medal_lost_by_roll(tgt, dice: int) -> float:
    """Every roll of ``dice`` dice enumerated (HOTH-HIT-2, HOTH-RETREAT-1): the chance the unit is eliminated
    or survives with at least one retreat flag."""
    from itertools import product

    from domain.hoth.combat import DIE_FACES
    from domain.hoth.units import UNIT_SPECS

    hit_by = UNIT_SPECS[tgt.unit].hit_by
    lost = 0
    for roll in product(DIE_FACES, repeat=dice):
        hits = sum(f in hit_by for f in roll)
        lost += hits >= tgt.figures or "retreat" in roll
    return lost / len(DIE_FACES) ** dice


def test_the_retreat_off_chance_counts_each_roll_once():
    for dice in range(1, 7):
        for figures in range(1, 5):
            both = values.retreat_off_chance(dice, 3, 1, figures)
            from itertools import product
            want = sum(1 for roll in product(range(6), repeat=dice)
                       if sum(f < 3 for f in roll) < figures and 3 in roll) / 6 ** dice
            assert abs(both - want) < 1e-12, (dice, figures)
        assert values.retreat_off_chance(dice, 3, 1, None) == 1 - (5 / 6) ** dice


def test_guards_are_the_other_sides_stand_objectives():
    on, uid, ob = _ridge_watch()
    g = values.guards(on, "rebel")
    assert (tuple(ob.hex), values.GUARD_SHARE * values.scales(on).medal("imperial") * ob.medals, True) in g
    assert all(h != (5, 3) for h, _, _ in g)  # the rebel's own ridge is not a guard for the rebel
