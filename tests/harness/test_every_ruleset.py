"""One battery over every ruleset (as OpenSpiel runs one over all its games; issue 11).

For every registered ruleset and every shipped scenario (a few seeds each), and for the test
rulesets (``toy`` of tests/service, ``tally`` of tests/projections, ``drill`` of tests/rulesets), a game
is played in memory by :func:`domain.kernel.runner.random_game` with random legal commands (and
commands sampled from templates where a ruleset has them) to its end, and:

- every sampled listed command is accepted (also after a JSON round trip); a seat whose decision it
  is not is refused with a rule id; commands one field away from a listed one and not listed are
  refused with a rule id (accepted or refused with one, where templates make the list an example);
- no seat's view nor the spectator's shows a hidden field of an event it may not see, while the
  game is on (:class:`tests.harness.checks.LeakWatch`);
- the fold of the log, decoded from JSON, is the live state, and the state survives JSON;
- replay at every seq is the state live after that event; the kernel's fold of a prefix agrees;
- the kernel's undo of the events after seq k folds to the state at k.

Every option of every rule choice a ruleset declares (DESIGN 14) is played too: one game per option that is
not the default (the defaults are played by every other case), on the ruleset's first scenario.

Ruleset-specific rules stay in each ruleset's own tests.
"""
from __future__ import annotations

import random
from typing import Any

import pytest

from domain.kernel import FINISHED, PUBLIC, registry
from domain.kernel.choices import declared
from domain.kernel.runner import Game, random_game

from . import checks

# The test rulesets register themselves on import.
from tests.service import toy_ruleset
import tests.projections.tally  # noqa: F401,E402
import tests.rulesets.drill  # noqa: F401,E402

toy_ruleset.register()

#: Seeds per scenario: more for rulesets whose games are short.
SEEDS = {"hoth": (11,), "smoke": (11, 12), "emperor": (11, 12, 13), "toy": (11, 12, 13, 14), "drill": (11,),
         "tally": (11,)}
DEFAULT_SEEDS = (11, 12)
#: Rulesets whose games never end (the drill races forever): play this many commands.
CAPPED = {"drill": 60}
MAX_COMMANDS = 3000
#: Decision points per game where the commands are probed (all of a short game; spread over a long one).
PROBES = 40
#: Extra setups with options (a team game of hoth).
OPTION_CASES = [("hoth", "SCN-TAKE-DOWN-THE-SHIELD", {"team": True}, 5)]


def _cases() -> list[Any]:
    out = []
    for rs in registry.all_rulesets():
        for sc in rs.scenarios():
            for seed in SEEDS.get(rs.id, DEFAULT_SEEDS):
                out.append(pytest.param(rs.id, sc.id, {}, seed, None, id=f"{rs.id}-{sc.id}-{seed}"))
    for rid, sc, opts, seed in OPTION_CASES:
        if registry.get(rid) is not None:
            out.append(pytest.param(rid, sc, opts, seed, None, id=f"{rid}-{sc}-{'-'.join(opts)}-{seed}"))
    for rs in registry.all_rulesets():
        first = rs.scenarios()[0].id if rs.scenarios() else None
        for c in declared(rs):
            for o in c.option_ids():
                if o != c.default and first is not None:
                    seed = SEEDS.get(rs.id, DEFAULT_SEEDS)[0]
                    out.append(pytest.param(rs.id, first, {}, seed, {c.id: o}, id=f"{rs.id}-{c.id}={o}-{seed}"))
    return out


def test_the_battery_covers_every_registered_ruleset_and_the_test_rulesets():
    ids = {rs.id for rs in registry.all_rulesets()}
    assert {"hoth", "smoke", "emperor", "toy", "tally", "drill"} <= ids
    covered = {c.values[0] for c in _cases()}
    assert covered == ids


def test_the_battery_plays_every_option_of_every_rule_choice():
    for rs in registry.all_rulesets():
        for c in declared(rs):
            played = {c.default} | {dict(p.values[4] or {}).get(c.id) for p in _cases() if p.values[0] == rs.id}
            assert set(c.option_ids()) <= played, (rs.id, c.id)


@pytest.mark.parametrize("ruleset,scenario,options,seed,choices", _cases())
def test_ruleset_battery(ruleset: str, scenario: str, options: dict[str, Any], seed: int,
                         choices: dict[str, str] | None):
    rs = registry.get(ruleset)
    assert rs is not None
    rng = random.Random(seed * 7919)
    fresh = Game(rs, scenario, seed=seed.to_bytes(32, "big"), options=options, choices=choices)
    if not fresh.legal(fresh.to_act() or fresh.setup.seats[0]):
        _no_command_ruleset(fresh)
        return
    cap = CAPPED.get(ruleset, MAX_COMMANDS)
    state: dict[str, Any] = {"probed": 0, "tried": 0, "watch": None, "step": 0}

    # how often to probe: from a first quick game of the same seed (cheap: no checks)
    length = random_game(rs, scenario, seed, options=options, max_commands=cap, choose=_chooser,
                         choices=choices).commands
    every = max(1, length // PROBES)

    def check(g: Game, seat: str, cmd: Any, listed: list[Any]) -> None:
        if state["watch"] is None:
            state["watch"] = checks.LeakWatch(g)
        n = state["step"]
        state["step"] += 1
        if n % every == 0:
            state["tried"] += checks.commands_check(g, seat, listed, rng)
            state["probed"] += 1
            state["watch"].check()
        elif n < 200 or n % 5 == 0:
            state["watch"].check()

    g = random_game(rs, scenario, seed, options=options, max_commands=cap, check=check, keep_states=True,
                    choose=_chooser, choices=choices)
    if choices:
        assert all(g.state.choices[k] == v for k, v in choices.items())
    if ruleset in CAPPED:
        assert g.commands == cap
    else:
        assert g.over, f"{ruleset}/{scenario} seed {seed} did not end in {cap} commands"
        assert g.status.status == FINISHED
    assert state["probed"] >= 1 and state["tried"] >= 1
    hidden = [em for em in g.emitted if em.visibility != PUBLIC and getattr(type(em.event), "private", None)]
    if hidden and not g.emitted[-1] is hidden[-1]:
        assert state["watch"].checked >= 1, "events hid fields but no view was scanned for them"
    checks.fold_equals_live(g)
    checks.replay_at_every_seq_equals_prefix_fold(g, rng)
    checks.undo_equals_fold_of_kept(g, rng)


def _chooser(g: Game, seat: str, listed: list[Any], rng: random.Random) -> Any:
    """A listed command, or now and then one sampled from a template (accepted ones only)."""
    templates = g.templates(seat)
    if templates and rng.random() < 0.3:
        import msgspec

        from domain.kernel import NotYourDecision, RuleViolation

        cmd = checks.template_command(rng, rng.choice(templates), msgspec.json.Decoder(g.rs.command_type))
        if cmd is None:
            return rng.choice(listed)
        try:
            g.decide(seat, cmd, dry=True)
            return cmd
        except (RuleViolation, NotYourDecision):
            pass
        except Exception as exc:  # DryRunStop: legal up to its first draw
            if type(exc).__name__ != "DryRunStop":
                raise
            return cmd
    return rng.choice(listed)


def _no_command_ruleset(g: Game) -> None:
    """A ruleset driven by scripts (tally): no seat has a legal command and any command is refused
    with a rule id."""
    seat = g.to_act() or g.setup.seats[0]
    assert g.legal(seat) == []
    import msgspec

    tags = g.rs.command_type
    cmd = msgspec.json.decode(msgspec.json.encode({"type": getattr(tags, "__struct_config__").tag}), type=tags)
    for s in g.setup.seats:
        checks._refused_with_rule(g, s, cmd, "a command of a ruleset that takes none")
