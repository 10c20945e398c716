"""Property tests over many seeded random games (DESIGN 10).

* random legal play ends with a winner (games that reach the turn cap are reported);
* every listed legal command is accepted, and commands outside the list are refused with a
  HOTH rule id (or NotYourDecision for a seat whose decision it is not);
* (folding the recorded events through JSON gives the live state: tests/harness, for every ruleset);
* decide never mutates its input; only the seat to act has legal commands.
"""
from __future__ import annotations

import random

import msgspec
import pytest

from scenarios.hoth import shipped
from domain.hoth import commands as C
from domain.hoth.decider import HothRuleset
from domain.kernel import NotYourDecision, RuleViolation

from .fixtures import FixtureCatalog
from .play import Game, random_game

RS = HothRuleset(FixtureCatalog())
SCN = "SCN-TAKE-DOWN-THE-SHIELD"
#: Random play can dance for a long time; a game past this many turns is reported, not failed.
TURN_CAP = 300
#: Share of capped games tolerated (reported in the assertion message).
CAPPED_SHARE = 0.03


def _play_many(rs, scenarios, seeds, options=None):
    results = []
    for sid in scenarios:
        for s in seeds:
            g = random_game(rs, sid, s, max_turns=TURN_CAP, options=options)
            results.append((sid, s, options, g.state.winner, g.state.turn_no))
    return results


def _check_capped(results):
    capped = [r for r in results if r[3] is None]
    assert len(capped) <= CAPPED_SHARE * len(results), f"games that hit the turn cap {TURN_CAP}: {capped}"
    for r in results:
        assert r[3] in ("imperial", "rebel") or r[4] > TURN_CAP
    return capped


def test_random_games_end_with_a_winner_fixture_content():
    """350 two-player games of Take Down the Shield (fixture content)."""
    results = _play_many(RS, [SCN], range(350))
    capped = _check_capped(results)
    print(f"\n{len(results)} games, capped: {capped}")
    assert {r[3] for r in results} - {None} == {"imperial", "rebel"}  # both sides can win


def test_random_games_end_with_a_winner_team_and_leaders():
    """60 games: 4 players, 3 players, and leaders (HOTH-TEAM-*, HOTH-LEADER-*)."""
    results = []
    for opts in ({"team": True}, {"team": "rebel"}, {"team": "imperial"},
                 {"leaders": {"imperial": "vader", "rebel": "leia"}},
                 {"team": True, "leaders": {"rebel": ["leia", "luke"]}}):
        results += _play_many(RS, [SCN], range(12), options=opts)
    capped = _check_capped(results)
    print(f"\n{len(results)} team/leader games, capped: {capped}")


def test_random_games_end_with_a_winner_shipped_content():
    """Every shipped scenario (scenarios/hoth), 12 games each."""
    rs = HothRuleset(shipped())
    sids = sorted(rs.catalog().scenarios)
    assert SCN in sids
    results = _play_many(rs, sids, range(12))
    capped = _check_capped(results)
    print(f"\n{len(results)} games over {len(sids)} shipped scenarios, capped: {capped}")


# -- commands: listed ones accepted, others refused -------------------------------------------

def _key(cmd) -> bytes:
    return msgspec.json.encode(cmd)


def _wild_commands(g: Game, rng: random.Random, n: int) -> list:
    """Commands of every kind with random arguments (most of them illegal now)."""
    st = g.state
    units = sorted(st.units) + ["nope"]
    targets = units + sorted(st.structures)
    cards = sorted(st.cards) + ["NO-SUCH-CARD"]
    hexes = [(x, r) for r in range(-1, 8) for x in range(-2, 21)]
    out = []
    for _ in range(n):
        k = rng.randrange(13)
        u = rng.choice(units)
        if k == 0:
            out.append(C.PlayCard(card=rng.choice(cards)))
        elif k == 1:
            out.append(C.OrderUnit(unit=u, slot=rng.randrange(-1, 4)))
        elif k == 2:
            start = st.units[u].hex if u in st.units else (0, 0)
            path, cur = [], start
            for _ in range(rng.randrange(0, 5)):
                cur = (cur[0] + rng.choice((-2, -1, 1, 2)), cur[1] + rng.choice((-1, 0, 1)))
                path.append(cur)
            out.append(C.Move(unit=u, path=tuple(path)))
        elif k == 3:
            out.append(C.Attack(unit=u, target=rng.choice(targets)))
        elif k == 4:
            out.append(C.EndOrders())
        elif k == 5:
            out.append(C.EndMoves())
        elif k == 6:
            out.append(C.EndTurn())
        elif k == 7:
            out.append(C.Reroll(dice=tuple(rng.sample(range(-1, 6), rng.randrange(0, 3)))))
        elif k == 8:
            out.append(C.IgnoreRetreat(ignore=rng.random() < 0.5))
        elif k == 9:
            out.append(C.Retreat(path=tuple(rng.choice(hexes) for _ in range(rng.randrange(0, 3)))))
        elif k == 10:
            out.append(C.Breakthrough(advance=rng.random() < 0.5))
        elif k == 11:
            out.append(C.SkipAttack())
        else:
            out.append(C.DiscardCards(cards=tuple(rng.choice(cards) for _ in range(rng.randrange(0, 5)))))
    return out


def _check_step(g: Game, seat: str, cmds: list, rng: random.Random) -> None:
    before = msgspec.json.encode(g.state)
    # every listed command (a sample when the list is long) is accepted
    sample = cmds if len(cmds) <= 25 else rng.sample(cmds, 25)
    for cmd in sample:
        g.rs.decide(g.state, seat, cmd, g.dice())
    listed = {_key(c) for c in cmds}
    # HOTH-MOVE-4: moves are listed once per destination (one shortest path); other paths to a listed
    # destination may be accepted too
    dests = {(c.unit, tuple(c.path[-1])) for c in cmds if isinstance(c, C.Move)}
    # commands outside the list are refused with a rule id
    for cmd in _wild_commands(g, rng, 12):
        if _key(cmd) in listed:
            continue
        if isinstance(cmd, C.Move) and cmd.path and (cmd.unit, tuple(cmd.path[-1])) in dests:
            continue
        with pytest.raises(RuleViolation) as exc:
            g.rs.decide(g.state, seat, cmd, g.dice())
        assert exc.value.rule.startswith("HOTH-"), exc.value.rule
    # other seats have nothing to do, and their commands are not their decision
    for other in g.state.seats:
        if other != seat:
            assert g.rs.legal_commands(g.state, other) == []
            with pytest.raises(NotYourDecision):
                g.rs.decide(g.state, other, cmds[0], g.dice())
    # decide never mutated the state (HOTH is pure: DESIGN 1)
    assert msgspec.json.encode(g.state) == before


@pytest.mark.parametrize("seed", range(12))
def test_listed_commands_accepted_unlisted_refused(seed):
    rng = random.Random(1000 + seed)
    opts = {"team": True} if seed % 4 == 3 else ({"leaders": {"imperial": "vader", "rebel": "luke"}} if seed % 4 == 2
                                                 else None)
    random_game(RS, SCN, 1000 + seed, max_turns=40, options=opts,
                check=lambda g, seat, cmd, cmds: _check_step(g, seat, cmds, rng))


# -- folding: the fold of the log (also through JSON) is the live state, for every shipped scenario and a
# team game, in the harness over every ruleset (tests/harness/test_every_ruleset.py) ---------------------

def test_every_roll_is_recorded_once_in_order():
    """DESIGN 1/3: every draw is in exactly one event, dice indices have no gaps."""
    g = random_game(RS, SCN, 77, max_turns=TURN_CAP)
    seen: dict[str, list[int]] = {}
    for em in g.emitted:
        for r in em.rolls:
            seen.setdefault(r.stream, []).append(r.index)
            assert em.revealing
    for stream, idx in seen.items():
        assert idx == list(range(len(idx))), stream


@pytest.mark.parametrize("imperial,rebel", [(i, r) for i in ("vader", "veers", "piett") for r in ("leia", "luke", "han")])
def test_leader_cards_listed_accepted_unlisted_refused_shipped_content(imperial, rebel):
    """Every leader card of the shipped content (scenarios/hoth) in play, with the command checks."""
    rs = HothRuleset(shipped())
    rng = random.Random(f"{imperial}-{rebel}")
    for seed in range(2):
        random_game(rs, SCN, 3000 + seed, max_turns=50, options={"leaders": {"imperial": imperial, "rebel": rebel}},
                    check=lambda g, seat, cmd, cmds: _check_step(g, seat, cmds, rng))


@pytest.mark.parametrize("seed", range(4))
def test_shipped_scenarios_listed_accepted_unlisted_refused(seed):
    """Badges, objectives and terrain of every shipped scenario, with the command checks."""
    rs = HothRuleset(shipped())
    rng = random.Random(4000 + seed)
    for sid in sorted(rs.catalog().scenarios):
        random_game(rs, sid, 4000 + seed, max_turns=25,
                    check=lambda g, seat, cmd, cmds: _check_step(g, seat, cmds, rng))


@pytest.mark.parametrize("seed", range(4))
def test_support_cards_listed_accepted_unlisted_refused(seed):
    """Support cards of the shipped content (content 5.3) in play, with the command checks."""
    rs = HothRuleset(shipped())
    cards = rs.catalog().cards
    sup = {f: [k for k, c in sorted(cards.items()) if c.kind == "support" and c.faction == f]
           for f in ("imperial", "rebel")}
    rng = random.Random(5000 + seed)
    random_game(rs, SCN, 5000 + seed, max_turns=60, options={"support": sup},
                check=lambda g, seat, cmd, cmds: _check_step(g, seat, cmds, rng))
