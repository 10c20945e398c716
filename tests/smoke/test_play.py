"""Random legal play of every shipped battle (2 and 4 players, and 3 where a battle has it): it ends
with a result under the scenario's end condition; every listed command is accepted; values inside a
template's bounds are accepted or refused with a SMOKE rule, never an exception; folding the log
gives the live state."""
from __future__ import annotations

import random

import msgspec
import pytest

from domain.kernel import RuleViolation, Setup, fold
from domain.smoke import events as E

from .play import Game, random_game, ruleset, sample_template
from scenarios.smoke import shipped

RS = ruleset()
BATTLES = sorted(shipped().battles)


def _line_ups():
    out = []
    for bid in BATTLES:
        for lu in shipped().battles[bid].line_ups:
            out.append((bid, lu.players))
    return out


def _check_result(g: Game) -> None:
    st = g.state
    assert st.result is not None
    end = st.battle.end
    if st.result.kind == "decisive":
        assert st.result.rule in ("SMOKE-VIC-2", "SMOKE-MP-6")
        loser = next(s for s in st.sides if s != st.result.winner)
        assert any(st.armies[s].morale <= 0 or st.armies[s].out for s in st.sides[loser])
    else:
        assert st.result.kind in ("marginal", "draw") and st.result.rule == "SMOKE-VIC-3"
        assert st.ending and st.phase > end.phase  # GAP-B-09: the last phase ended
        ended = [e for e in g.events if isinstance(e, E.GameEnded)][0]
        fr = ended.fractions
        if st.result.kind == "draw":
            assert len(set(fr.values())) == 1
        else:
            assert fr[st.result.winner] == max(fr.values()) and list(fr.values()).count(max(fr.values())) == 1


def _every_listed_command_accepted(g: Game, seat: str, cmds: list) -> None:
    for c in cmds:
        d = g.dice()
        items = RS.decide(g.state, seat, c, d)  # raises if a listed command is refused
        assert items


@pytest.mark.parametrize("battle,players", _line_ups())
def test_random_play_ends_with_a_result(battle, players):
    steps = {"n": 0}

    def check(g, seat, cmd, cmds):
        steps["n"] += 1
        if steps["n"] % 25 == 0:
            _every_listed_command_accepted(g, seat, cmds)

    for seed in (1, 2):
        g = random_game(RS, battle, seed + 10 * players, options={"players": players}, check=check)
        _check_result(g)
        folded = fold(RS, g.setup, list(enumerate(g.events, start=1)))
        assert msgspec.to_builtins(folded) == msgspec.to_builtins(g.state)
        assert folded == g.state


def test_template_values_are_accepted_or_refused_with_a_rule():
    """Any value inside a template's bounds: accepted, or a RuleViolation naming a SMOKE rule."""
    rng = random.Random(3)
    tried = refused = 0
    g = Game(RS, "BTL-ALL-TERRAIN", seed=b"\x05" * 32, game_id="tpl")
    while not g.over and tried < 400:
        seat = g.to_act()
        temps = RS.command_templates(g.state, seat)
        cmds = RS.legal_commands(g.state, seat)
        for t in temps:
            for _ in range(4):
                raw = sample_template(rng, t)
                cmd = msgspec.convert(raw, RS.command_type)
                tried += 1
                try:
                    RS.decide(g.state, seat, cmd, g.dice())
                except RuleViolation as exc:
                    refused += 1
                    assert exc.rule.startswith("SMOKE-"), exc.rule
            # the template's example is legal
            if t.get("example") is not None:
                RS.decide(g.state, seat, msgspec.convert(t["example"], RS.command_type), g.dice())
        prefer = [c for c in cmds if type(c).__name__ in ("Activate", "Move", "PlaceDie", "Ride")]
        g.do(seat, rng.choice(prefer) if prefer and rng.random() < 0.8 else rng.choice(cmds))
    assert tried >= 100 and 0 < refused < tried


def test_a_replayed_log_never_rolls():
    """Folding is pure: the same events give the same state without dice or content."""
    g = random_game(RS, "BTL-CROSSROADS", 7, options={"players": 2}, max_commands=300)
    setup = Setup(game_id=g.setup.game_id, ruleset="smoke", scenario=g.setup.scenario, seats=g.setup.seats,
                  options=g.setup.options)
    st = RS.initial_state(setup)
    for ev in g.events:
        st = RS.evolve(st, ev)
    assert st == g.state
