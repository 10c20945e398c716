"""The adversarial fairness battery over every ruleset and seat configuration (tests/fairness/battery.py), and
its self-tests: each plants one of the holes the audit found, by monkeypatching here only, and the battery must
catch it."""
from __future__ import annotations

import pytest

from domain.kernel.sides import setup_of
from domain.smoke.events import ColumnsRevealed
from service.game_service import GameService
from service.store import EventStore

from .battery import CONFIGS, Breach, Config, Tally, run

#: Per configuration: sequences x steps (bounded: the whole file stays well under 90 s on one core).
SEQUENCES = 3
STEPS = 60
TOTAL = Tally()


@pytest.fixture
def svc(tmp_path):
    s = GameService(EventStore(tmp_path / "data"))
    try:
        yield s
    finally:
        s.store.close()


@pytest.mark.parametrize("cfg", CONFIGS, ids=[c.name for c in CONFIGS])
def test_no_seat_sees_hidden_values_and_no_reveal_is_undone_without_another_side(svc, cfg: Config):
    tally = run(svc, cfg, 1, sequences=SEQUENCES, steps=STEPS)
    TOTAL.add(tally)
    print(f"\n{cfg.name}: {tally.sequences} sequences, {tally.steps} steps, {tally.refusals} refusals, "
          f"{tally.seconds:.1f} s, {dict(sorted(tally.actions.items()))}")
    assert tally.steps >= SEQUENCES * 10
    assert tally.actions.get("play", 0) + tally.actions.get("bot_play", 0) > 0
    assert tally.actions.get("dry_run", 0) > 0 and tally.actions.get("undo", 0) > 0


def catch(svc: GameService, cfg: Config, *kinds: str, tries: int = 12) -> Breach:
    """Run sequences of ``cfg`` until the battery reports a breach of one of ``kinds``."""
    for seed in range(tries):
        try:
            run(svc, cfg, 100 + seed, sequences=1, steps=120)
        except Breach as exc:
            if exc.kind in kinds:
                return exc
            raise
    raise AssertionError(f"the battery did not catch the planted hole in {tries} sequences of {cfg.name}")


def config(name: str) -> Config:
    return next(c for c in CONFIGS if c.name == name)


def test_it_catches_a_teammates_consent(svc, monkeypatch):
    """Planted: the kernel is told every seat is a side of its own (the consent rule before sides)."""
    alone = lambda rs, setup: {s: s for s in setup_of(setup).seats}  # noqa: E731
    monkeypatch.setattr("domain.kernel.game.seat_sides", alone)
    got = catch(svc, config("hoth-team"), "consent")
    assert "its own side" in str(got)


def test_it_catches_columns_revealed_not_derived_as_a_reveal(svc, monkeypatch):
    """Planted: Smoke's ``columns_revealed`` type not declared a reveal (as before UMPIRE-REVEAL-1)."""
    monkeypatch.setattr(ColumnsRevealed, "reveals_hidden", None)
    got = catch(svc, config("smoke-2"), "seen", "consent")
    print(f"\ncaught: {got}")  # a dry run showing the opponent's columns, or a free undo across their reveal


def test_it_catches_a_bot_accepting_an_undo_over_a_card_draw(svc, monkeypatch):
    """Planted: the bot's old rule (decline only when the range drew dice or shuffled)."""
    monkeypatch.setattr("service.bot_players.answer_undo",
                        lambda q: (not q.draws, "accepted: nothing drawn would be drawn again"))
    got = catch(svc, config("hoth-bot"), "consent")
    assert "the bot" in str(got)


def test_zz_report_the_totals():
    """The totals of this run (printed with -s; the coordinator's figures)."""
    print(f"\nadversarial battery: {TOTAL.sequences} sequences, {TOTAL.steps} steps, {TOTAL.seconds:.1f} s")
    assert TOTAL.sequences == 0 or TOTAL.steps > 0
