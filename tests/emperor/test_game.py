"""Whole games in process: random human play of every shipped setup ends with a winner; the same
seed and the same human commands give the same Emperor decisions; the fold of the stored log
equals the live state and never runs the automaton (its choices are in the events); listed
commands are accepted and unlisted ones refused with a rule of the rules reference; the order
deck stays hidden until the end; every event has a ruling and every Emperor decision is a reveal."""
from __future__ import annotations

import random
import re
from pathlib import Path

import msgspec
import pytest

import domain.emperor as emperor_pkg
from domain.emperor import cards, movement, push, targeting
from domain.emperor.automaton import moves, stars, turn
from domain.emperor import commands as C
from domain.emperor.events import (
    CardActivated, DefenseRequested, EmperorMoved, OrderDeckShuffled, TargetChosen,
)
from domain.emperor.state import EMPEROR, HUMAN
from domain.kernel import AUTOMATON, RuleViolation, verify_roll
from domain.kernel.fold import decode_event, fold

from .play import SETUPS, Game, random_game, ruleset

SEEDS = (1, 2, 3)
RULES_MD = Path(emperor_pkg.__file__).with_name("rules.md")
KERNEL_RULES = re.compile(r"^UMPIRE-")


def rule_ids_of_reference() -> set[str]:
    text = RULES_MD.read_text(encoding="utf-8")
    ids = set(re.findall(r"\*\*((?:SOLO|BASE)-[A-Z]+-\d+)\b", text))
    ids |= set(re.findall(r"^\| ((?:SOLO|BASE|GAP)-[A-Z0-9-]+) \|", text, re.M))
    ids |= set(re.findall(r"\*\*(SOLO-CHOICE-[A-Z0-9-]+[A-Z0-9])\.", text))  # rule choices (DESIGN 14)
    return ids


@pytest.fixture(scope="module")
def games() -> dict[tuple[str, int], Game]:
    rs = ruleset()
    return {(s, seed): random_game(rs, s, seed) for s in SETUPS for seed in SEEDS}


def test_random_play_of_every_setup_ends_with_a_winner(games):
    """SOLO-GAME-2: every shipped setup, random legal human play, ends when a hero dies."""
    for (setup, seed), g in games.items():
        assert g.state.winner in (HUMAN, EMPEROR), (setup, seed, g.state.turn_no)
        dead = [w for w in g.state.warriors.values() if w.kind == "hero" and not w.alive]
        assert len(dead) == 1 and dead[0].side != g.state.winner
        assert g.rs.status(g.state).status == "finished" and g.legal() == []


def test_same_seed_and_commands_give_the_same_emperor_decisions():
    """DESIGN 3: the automaton is deterministic; the same seed and the same human commands give the
    same events, byte for byte (payloads, rulings, draws)."""
    rs = ruleset()
    for setup in SETUPS[:3]:
        a = random_game(rs, setup, 11)
        b = random_game(rs, setup, 11)
        assert [msgspec.json.encode(e) for e in a.emitted] == [msgspec.json.encode(e) for e in b.emitted]
        # another seed shuffles the order deck differently, so the Emperor decides differently
        c = random_game(rs, setup, 12)
        assert [msgspec.json.encode(e) for e in a.emitted] != [msgspec.json.encode(e) for e in c.emitted]


def test_fold_of_the_stored_log_equals_the_live_state_without_running_the_automaton(games, monkeypatch):
    """DESIGN 1: the events carry every choice; folding them (from their JSON) never runs the automaton."""
    rs = ruleset()
    stored = {k: [msgspec.json.encode(e) for e in g.events] for k, g in games.items()}

    def boom(*_a, **_k):
        raise AssertionError("the fold ran the automaton")

    for mod, names in ((turn, ("run", "emperor_turn")), (moves, ("do_move",)), (stars, ("can_apply",)),
                       (movement, ("decide_move", "emperor_reach")), (push, ("best_hazard_plan",)),
                       (cards, ("choose_card",)), (targeting, ("pick",))):
        for n in names:
            monkeypatch.setattr(mod, n, boom)
    for (setup, seed), g in games.items():
        pairs = [(i + 1, decode_event(rs, raw)) for i, raw in enumerate(stored[(setup, seed)])]
        st = fold(rs, g.setup, pairs)
        assert msgspec.json.encode(st) == msgspec.json.encode(g.state), (setup, seed)


def test_every_event_has_a_ruling_citing_known_rules_and_emperor_decisions_are_reveals(games):
    """DESIGN 6: every step carries its ruling; every cited id is in domain/emperor/rules.md. The
    Emperor's decisions (order cards, moves, cards, targets) are reveals (undo across them needs
    consent)."""
    known = rule_ids_of_reference()
    cited: set[str] = set()
    for g in games.values():
        for em in g.emitted:
            assert em.ruling is not None and em.ruling.steps, type(em.event).__name__
            cited |= set(em.ruling.rules())
            if isinstance(em.event, (EmperorMoved, TargetChosen, DefenseRequested, OrderDeckShuffled)) or (
                    isinstance(em.event, CardActivated) and em.event.side == EMPEROR):
                assert em.revealing
    unknown = {r for r in cited if r not in known and not KERNEL_RULES.match(r)}
    assert not unknown, sorted(unknown)
    # and the games exercised most of the solo rules
    assert len({r for r in cited if r.startswith("SOLO-")}) >= 35


def test_draws_come_only_from_the_automaton_stream_and_verify(games):
    """DESIGN 3: the Emperor's draws (order-deck shuffles) use the kernel's automaton stream, indices
    0, 1, 2, ... in order, and each recomputes from the seed."""
    for g in games.values():
        rolls = [r for em in g.emitted for r in em.rolls]
        assert rolls and {r.stream for r in rolls} == {AUTOMATON}
        assert [r.index for r in rolls] == list(range(len(rolls)))
        assert all(verify_roll(g.seed, g.setup.game_id, r) for r in rolls)


def test_order_deck_order_is_hidden_until_the_end(games):
    """DESIGN 4: the deck's order is in events of visibility "umpire" only; the human's and a
    spectator's views show its size, never its order -- until the game ends."""
    rs = ruleset()
    g = Game(rs, SETUPS[0], seed=b"\x05" * 32)
    for em in g.emitted:
        if isinstance(em.event, OrderDeckShuffled):
            assert em.visibility == "umpire" and "deck" in type(em.event).private
    for seat in (HUMAN, None):
        v = rs.view(g.state, seat)
        assert "deck" not in v["order"] and v["order"]["deck_size"] == 6
    assert rs.view(g.state, None, reveal_all=True)["order"]["deck"] == list(g.state.order_deck)
    done = next(iter(games.values()))
    assert rs.view(done.state, None)["order"]["deck"] == list(done.state.order_deck)


# Listed commands accepted (also through JSON), at decision points of every setup: the harness over
# every ruleset (tests/harness/test_every_ruleset.py).


def _mutants(g: Game, rng: random.Random) -> list:
    st = g.state
    cells = [c for c in ("A1", "B2", "C3", "E5", "Z9", "C1", "D4") ]
    ids = list(st.warriors) + ["nobody"]
    cards = [c.id for h in st.heroes.values() for c in h.cards] + ["X9"]
    out = [C.Move(warrior=rng.choice(ids), to=rng.choice(cells)), C.Activate(card=rng.choice(cards)), C.Refresh(),
           C.Attack(target=rng.choice(ids)), C.Attack(target=None, bonuses=("L9",)),
           C.Push(target=rng.choice(ids), path=(rng.choice(cells),)), C.March(to=rng.choice(cells)),
           C.Star(choice=rng.choice(["Shove", "Jolt", "L1", "L3", "nothing"])), C.Swap(), C.Skip(),
           C.Defend(card=rng.choice(cards)), C.Defend(card=None, bonuses=("L2", "L2")), C.EndTurn(),
           C.Move(warrior=rng.choice(ids), to=rng.choice(cells), bonuses=(rng.choice(["L1", "L2", "L5"]),))]
    return out


def test_unlisted_commands_are_refused_with_a_rule(games):
    """A command that legal_commands does not list is refused with a RuleViolation naming a rule of the
    rules reference, and the state is unchanged."""
    rs = ruleset()
    known = rule_ids_of_reference()
    rng = random.Random(9)
    refused = 0
    for setup in SETUPS:
        def check(g, cmd, cmds):
            nonlocal refused
            before = msgspec.json.encode(g.state)
            for m in _mutants(g, rng):
                if m in cmds or (isinstance(m, C.EndTurn) and g.state.pending is None and g.state.activation is None):
                    continue
                if hasattr(m, "bonuses") and msgspec.structs.replace(m, bonuses=tuple(sorted(m.bonuses))) in cmds:
                    continue
                with pytest.raises(RuleViolation) as exc:
                    rs.decide(g.state, HUMAN, m, g.dice())
                assert exc.value.rule in known, (exc.value.rule, m)
                refused += 1
            assert msgspec.json.encode(g.state) == before
        random_game(rs, setup, 31, check=check)
    assert refused > 200


def test_not_a_seat_and_after_the_end(games):
    rs = ruleset()
    g = Game(rs, SETUPS[0])
    from domain.kernel import NotYourDecision

    with pytest.raises(NotYourDecision):
        rs.decide(g.state, "emperor", C.EndTurn(), g.dice())
    done = next(iter(games.values()))
    with pytest.raises(RuleViolation) as exc:
        rs.decide(done.state, HUMAN, C.EndTurn(), done.dice())
    assert exc.value.rule == "SOLO-GAME-2"


def test_the_emperor_is_never_to_act():
    """The Emperor is not a seat: after every command it is the human's decision again (or the end)."""
    rs = ruleset()
    g = random_game(rs, SETUPS[1], 4)
    st = rs.status(g.state)
    assert st.to_act == () and st.winner in (HUMAN, EMPEROR)
    g = Game(rs, SETUPS[1])
    g.do(C.EndTurn())
    assert rs.status(g.state).to_act == (HUMAN,)
    assert g.state.turn.side == HUMAN or g.state.pending is not None


def test_free_moves_are_not_reveals_and_the_turn_end_is():
    """Undo (DESIGN 5): the human's own moves reveal nothing (free undo in its turn); ending the turn
    runs the Emperor, whose decisions are reveals."""
    rs = ruleset()
    g = Game(rs, SETUPS[0])
    items = g.do(C.Move(warrior="warden", to="C2"))
    assert not any(em.revealing for em in items)
    items = g.do(C.EndTurn())
    assert any(em.revealing for em in items)


def test_human_turn_flow_two_different_actions():
    """BASE-TURN-1 (GAP-A-25): up to two different actions; MOVE stays open for the other warrior; the
    turn ends by itself after two actions with nothing left to move."""
    rs = ruleset()
    g = Game(rs, SETUPS[0])
    g.do(C.Move(warrior="warden", to="C2"))
    legal = g.legal()
    assert any(isinstance(c, C.Move) and c.warrior == "hound" for c in legal)
    assert not any(isinstance(c, C.Move) and c.warrior == "warden" for c in legal)
    g.do(C.Refresh())
    # MOVE is over once another action began: two actions taken, the turn has ended
    assert g.state.turn.side == HUMAN and g.state.turn.number == 3 or g.state.pending is not None
    g2 = Game(rs, SETUPS[0])
    g2.do(C.Refresh())
    exc = pytest.raises(RuleViolation, g2.do, C.Refresh())
    assert exc.value.rule == "BASE-TURN-1"
