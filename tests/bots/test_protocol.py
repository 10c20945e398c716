"""The bot protocol: the registry (GET /rulesets bots), bot specs, the bot's own random stream, undo answers."""
from __future__ import annotations

import pytest

from bots import BotSeat, BotSpecError, UndoQuestion, answer_undo, bot_random, bots_for, decide, infos, resolve
from bots.arena import Arena
from domain.kernel import registry


def test_every_ruleset_has_the_random_bot_and_hoth_its_own():
    for rs in registry.all_rulesets():
        assert "random" in [b.id for b in bots_for(rs.id)]
    listed = {i.id: i for i in infos("hoth")}
    assert set(listed) == {"random", "greedy", "search"}
    assert listed["search"].levels == (1, 2, 3) and listed["greedy"].levels == (1,)
    assert all(i.title for i in listed.values())
    assert bots_for("no-such-ruleset") == []


@pytest.mark.parametrize("spec, why", [
    ("", "a bot is named"), ("chess-master", "unknown bot 'chess-master'"), ("search:9", "levels 1, 2, 3"),
    ("search:x", "levels 1, 2, 3"), ("greedy:", "a bot is named"),
])
def test_a_bad_bot_spec_names_the_field(spec, why):
    if spec == "greedy:":
        assert resolve("hoth", "greedy:") == (resolve("hoth", "greedy")[0], 1)  # "greedy:" is the default level
        return
    with pytest.raises(BotSpecError) as exc:
        resolve("hoth", spec, field="bots.rebel")
    assert exc.value.field == "bots.rebel" and why in exc.value.detail


def test_a_spec_without_level_takes_the_first():
    bot, level = resolve("hoth", "search")
    assert bot.id == "search" and level == 1
    assert resolve("hoth", "search:3")[1] == 3


def test_the_bot_stream_depends_on_seed_game_seat_and_version_only():
    seed = "ab" * 32
    a = [bot_random(seed, "g1", "rebel", 7).random() for _ in range(2)]
    assert a[0] == a[1]  # a fresh stream per call: the same draws
    assert bot_random(seed, "g1", "rebel", 7).random() != bot_random(seed, "g1", "rebel", 8).random()
    assert bot_random(seed, "g1", "rebel", 7).random() != bot_random(seed, "g1", "imperial", 7).random()
    assert bot_random(seed, "g1", "rebel", 7).random() != bot_random("cd" * 32, "g1", "rebel", 7).random()


def test_undo_answers_follow_the_fair_play_rule():
    ok, why = answer_undo(UndoQuestion(by="rebel", to_version=12, draws=False, reveals=False))
    assert ok and "nothing drawn" in why
    ok, why = answer_undo(UndoQuestion(by="rebel", to_version=12, draws=True))
    assert not ok and "draw" in why
    # UMPIRE-BOT-2: a reveal without dice (a card drawn, a secret shown) is declined too
    ok, why = answer_undo(UndoQuestion(by="rebel", to_version=12, draws=False, reveals=True))
    assert not ok and "revealed" in why
    # a question that does not say is treated as revealing
    assert not answer_undo(UndoQuestion(by="rebel", to_version=12, draws=False))[0]


def test_decide_returns_a_legal_command_with_its_bot_and_stream():
    rs = registry.get("hoth")
    a = Arena(rs, "SCN-TAKE-DOWN-THE-SHIELD", "proto-1", seed=bytes(32))
    seat = a.to_act()
    inp = a.seat_input(seat)
    for spec in ("random", "greedy", "search:1"):
        bot, level = spec.partition(":")[0], int(spec.partition(":")[2] or 1)
        d = decide(BotSeat(bot=bot, level=level, seed="01" * 32), inp, playouts=8 if bot == "search" else None)
        assert d.command in inp.legal
        assert d.bot == f"{bot}:{level}" and d.stream == f"umpire-bot|proto-1|{seat}|{inp.version}"
        assert d.explanation.startswith(bot)
