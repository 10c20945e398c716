"""Clouds of Smoke's ``check_rolls`` (DESIGN 3, issue 10; domain/smoke/faces.py): every face an event
records follows from the values of its recorded draws (SMOKE-DICE-1, SMOKE-DICE-2), and what it derives
from them at once (a D3, a total, a retreat distance, a failed risk) is what the faces give. Checked on
the events of real random games (every kind of event that records faces), against every single changed
draw and against rewritten faces, and through the verifier of a stored log (``service.verify``)."""
from __future__ import annotations

from functools import cache
from types import SimpleNamespace

import msgspec
import pytest

from domain.kernel import Dice, Emitted
from domain.smoke import events as E
from domain.smoke.commanders import risk
from domain.smoke.geometry import Box
from domain.smoke.outbox import Outbox
from service.verify import check_dice

from .fixtures import table_state
from .play import random_game, ruleset
from .scripts import INF

#: Every event of smoke that records faces or values drawn (domain/smoke/faces.py checks each; the
#: secret columns' salt of SMOKE-DEP-2 is two draws).
FACE_EVENTS = {E.FirstSideRolled, E.ActionDiceRolled, E.RiskTaken, E.CommanderRisked, E.RetreatRolled,
               E.BombardmentRolled, E.BattleRolled, E.DisciplineTested, E.TerrainCountRolled, E.TerrainRolled,
               E.TerrainScattered, E.ColumnsAssigned}
#: Two random games that together draw for every kind above but the commander's risk (a rare event in
#: random play, made below).
GAMES = (("BTL-OPEN-FIELD", 1), ("BTL-CROSSROADS", 4))
SEED = b"\x05" * 32


@cache
def _games():
    rs = ruleset()
    return rs, [random_game(rs, battle, seed) for battle, seed in GAMES]


def _risked() -> list[Emitted]:
    """SMOKE-RISK-3 with real dice: enemy cavalry touches a commander."""
    st = table_state([("player-1", "line_cavalry", Box(10, 10, 90, 1, 0.75)), ("player-2", INF, Box(20, 19, 270, 1, 0.5))],
                     commanders=[("player-2", 10, 10.6)])
    out = Outbox(st, Dice(SEED, "risk", {}))
    risk(out, next(iter(st.commanders.values())), "test")
    return [em for em in out.items if em.rolls]


def _drawn() -> list[Emitted]:
    _rs, games = _games()
    return [em for g in games for em in g.emitted if em.rolls] + _risked()


def test_every_recorded_face_follows_from_its_draws():
    rs, _ = _games()
    drawn = _drawn()
    assert {type(em.event) for em in drawn} == FACE_EVENTS  # every event that draws records faces, all checked
    for em in drawn:
        assert rs.check_rolls(em.event, em.rolls) is None, (em.event, em.rolls)


def test_any_single_changed_draw_is_named():
    rs, _ = _games()
    seen: set[type] = set()
    for em in _drawn():
        if type(em.event) in seen and not isinstance(em.event, (E.TerrainScattered, E.BattleRolled)):
            continue
        seen.add(type(em.event))
        for i, r in enumerate(em.rolls):
            changed = list(em.rolls)
            changed[i] = msgspec.structs.replace(r, value=(r.value + 1) % r.sides)
            bad = rs.check_rolls(em.event, tuple(changed))
            assert bad and type(em.event).__struct_config__.tag in bad, (em.event, i, bad)
        assert rs.check_rolls(em.event, em.rolls[:-1]) is not None  # a draw left out
    assert seen == FACE_EVENTS


@pytest.mark.parametrize("kind, field", [
    (E.ActionDiceRolled, "faces"), (E.TerrainRolled, "total"), (E.TerrainCountRolled, "count"),
    (E.RetreatRolled, "distance"), (E.RiskTaken, "out"), (E.CommanderRisked, "out"),
])
def test_a_rewritten_face_or_what_follows_from_it_is_named(kind, field):
    rs, _ = _games()
    em = next(em for em in _drawn() if isinstance(em.event, kind))
    value = getattr(em.event, field)
    if isinstance(value, bool):
        new = not value
    elif isinstance(value, tuple):
        new = (value[0] % 6 + 1, *value[1:])
    else:
        new = value + 1
    rewritten = msgspec.structs.replace(em.event, **{field: new})
    assert rs.check_rolls(rewritten, em.rolls) is not None, rewritten


def test_the_verifier_of_a_stored_log_names_the_event_with_a_rewritten_face():
    """``service.verify.check_dice`` (what ``GET /verify`` and ``umpire verify`` run once a game is finished):
    a smoke log verifies, and a battle's rewritten die (values untouched, so the seed still gives them)
    is found at its seq."""
    rs, games = _games()
    battle, seed = GAMES[1]
    g = games[1]
    rows = [SimpleNamespace(seq=i, payload=msgspec.json.encode(em.event).decode(),
                            rolls=msgspec.json.encode(list(em.rolls)).decode())
            for i, em in enumerate(g.emitted, start=1)]
    ok, checked, first_bad, problem = check_dice(g.seed, g.setup.game_id, rows, ruleset=rs)
    assert ok and checked == sum(len(em.rolls) for em in g.emitted) and first_bad is None, problem
    k = next(i for i, em in enumerate(g.emitted) if isinstance(em.event, E.BattleRolled) and em.rolls)
    ev = g.emitted[k].event
    side = next(s for s, v in ev.sides.items() if v["faces"])
    faces = list(ev.sides[side]["faces"])
    faces[0] = faces[0] % 6 + 1
    sides = {**ev.sides, side: {**ev.sides[side], "faces": faces}}
    rows[k] = SimpleNamespace(seq=k + 1, payload=msgspec.json.encode(msgspec.structs.replace(ev, sides=sides)).decode(),
                              rolls=rows[k].rolls)
    ok, _, first_bad, problem = check_dice(g.seed, g.setup.game_id, rows, ruleset=rs)
    assert not ok and first_bad == k + 1 and "battle_rolled" in problem, problem


def test_a_rewritten_column_salt_is_named_and_no_message_shows_it():
    """SMOKE-DEP-2: the salt of the secret columns is the hex of its two draws on the secret stream; a
    rewritten salt, or draws of another stream, are named, and the sentence never quotes the salt."""
    rs, _ = _games()
    em = next(em for em in _drawn() if isinstance(em.event, E.ColumnsAssigned))
    assert len(em.event.salt) == 32 and rs.check_rolls(em.event, em.rolls) is None
    other = em.event.salt[:-1] + ("0" if em.event.salt[-1] != "0" else "1")
    bad = rs.check_rolls(msgspec.structs.replace(em.event, salt=other), em.rolls)
    assert bad and "columns_assigned" in bad and em.event.salt not in bad and other not in bad
    moved = tuple(msgspec.structs.replace(r, stream="game") for r in em.rolls)
    assert "SMOKE-DEP-2" in rs.check_rolls(em.event, moved)
