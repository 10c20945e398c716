"""The Emperor's words (DESIGN 12): a move into an active hazard warns before it is chosen and the
engine then does what the warning said; a card whose melee ability has no enemy in reach warns that
it would be wasted, and the engine then skips that ability; defending says the wounds to come."""
from __future__ import annotations

from msgspec.structs import replace

from domain.emperor import commands as C
from domain.emperor.events import AbilityDone, WarriorWounded
from domain.emperor.state import HUMAN
from domain.kernel.messages import text_of

from .play import Game, events_of, ruleset

SETUP = "SETUP-AKHENA-VS-REBEL"  # the River Ford: hazards H4 Rapids A3, H5 Ford B3, H9 Reeds D3


def _described(g: Game, cmd) -> dict:
    """The command's words in English (labels and warnings are messages, issue 28: their English text)."""
    got = ruleset().describe(g.state, HUMAN, cmd)
    return {k: text_of(v) if v is not None else None for k, v in got.items()}


def test_a_move_into_an_active_hazard_warns_and_the_engine_does_what_it_said():
    g = Game(ruleset(), SETUP).place(akhena="C2", rebel="C5", sparrow="E5")
    to_reeds = next(c for c in g.legal() if isinstance(c, C.Move) and c.warrior == "akhena" and c.to == "D3")
    words = _described(g, to_reeds)
    assert words["label"].startswith("Move Akhena from C2 to D3")
    w = words["warning"]
    assert w is not None and "D3 Reeds is an active hazard" in w and "Akhena takes 1 wound," in w
    assert "BASE-HAZ-2" in w and "health left" in w
    safe = next(c for c in g.legal() if isinstance(c, C.Move) and c.warrior == "akhena" and c.to == "C1")
    assert _described(g, safe)["warning"] is None
    before = g.state.warriors["akhena"].left
    wounded = events_of(g.do(to_reeds), WarriorWounded)
    assert [e.warrior for e in wounded] == ["akhena"] and g.state.warriors["akhena"].left == before - 1


def test_a_hazard_warning_says_the_game_is_lost_when_the_wound_kills_the_hero():
    g = Game(ruleset(), SETUP).place(akhena="C2", rebel="C5", sparrow="E5")
    ws = dict(g.state.warriors)
    ws["akhena"] = replace(ws["akhena"], wounds=ws["akhena"].health - 1)
    g.set(warriors=ws)
    to_reeds = next(c for c in g.legal() if isinstance(c, C.Move) and c.warrior == "akhena" and c.to == "D3")
    assert "dies: the game is lost (SOLO-GAME-2)" in _described(g, to_reeds)["warning"]


def test_a_melee_card_with_no_enemy_in_reach_warns_it_would_be_wasted_and_is():
    g = Game(ruleset(), SETUP).place(akhena="A1", rebel="E5", sparrow="D5")
    card = next(c for c in g.state.heroes[HUMAN].cards if any(a.range == "MELEE" and a.kind == "ATTACK" for a in c.abilities))
    act = C.Activate(card=card.id)
    assert act in g.legal()
    words = _described(g, act)
    assert words["label"].startswith(f"Activate {card.name} ({card.id})")
    assert "No enemy is next to" in words["warning"] and "would be wasted" in words["warning"]
    assert "BASE-RANGE-1" in words["warning"]
    done = events_of(g.do(act), AbilityDone)
    assert done and all(e.skipped for e in done if "MELEE" in e.ability)  # the engine agrees: nothing to hit
    # next to an enemy, the same card warns of nothing
    g2 = Game(ruleset(), SETUP).place(akhena="C4", rebel="C5", sparrow="E5")
    assert _described(g2, act)["warning"] is None


def test_star_choices_say_what_each_does():
    g = Game(ruleset(), SETUP).place(akhena="A1", rebel="E5", sparrow="D5")
    card = next(c for c in g.state.heroes[HUMAN].cards if any(a.kind == "STAR" for a in c.abilities))
    g.do(C.Activate(card=card.id))
    while not any(isinstance(c, C.Star) for c in g.legal()):
        g.do(C.Skip())  # the abilities before the star (optional, GAP-A-24)
    stars = [c for c in g.legal() if isinstance(c, C.Star)]
    hero_stars = {s.name for s in g.state.heroes[HUMAN].stars}
    for cmd in stars:
        label = _described(g, cmd)["label"]
        assert label.startswith("Star: ") and "BASE-STAR-1" in label
        if cmd.choice in hero_stars:
            assert label.startswith(f"Star: {cmd.choice}, ")  # the star's name, then what it does
