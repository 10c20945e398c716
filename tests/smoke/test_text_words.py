"""No raw field syntax reaches a person (issue 30) in the text replay (``umpire replay --at``, the rulesets'
``render_text``) of Clouds of Smoke and the Emperor, nor in the header of Smoke's board picture
(``board.svg``): their table and grid drawn as text, the state in words (the turn, the scenario phase, who is
to act and in which step, the result), sides by their printed names with their players."""
from __future__ import annotations

import re

import pytest

from bots import BotSeat, decide
from bots.arena import Arena
from domain.kernel import registry
from domain.kernel.messages import text_of
from domain.smoke.picture import render_svg

SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
RAW = ("[]", "{", "}", "kind", "None", "'s side", " - draw", "(actions)", "(battles)")


def _raw(text: str) -> list[str]:
    return SNAKE.findall(text) + [r for r in RAW if r in text]


def _played(ruleset: str, scenario: str, every: int):
    """The states of a greedy bots' game, every ``every`` steps and at its end."""
    rs = registry.get(ruleset)
    a = Arena(rs, scenario, f"words-{scenario}", seed=bytes(32))
    bots = {s: BotSeat(bot="greedy", level=1, seed=f"{i:064x}") for i, s in enumerate(a.setup.seats)}
    n = 0
    while not a.finished and n < 3000:
        s = a.to_act()
        a.play(s, decide(bots[s], a.seat_input(s)).command)
        n += 1
        if n % every == 0:
            yield a.state
    assert a.finished
    yield a.state


def _svg_header(state) -> str:
    """The picture's first two lines (the title, the state in words) as one."""
    title, words = re.findall(r"<text[^>]*>([^<]*)</text>", render_svg(state, []))[:2]
    return f"{title} · {words}"


@pytest.mark.parametrize("scenario", ["BTL-CROSSROADS", "BTL-OPEN-FIELD"])
def test_smoke_text_replay_and_picture_header_in_words(scenario):
    rs = registry.get("smoke")
    seen = []
    for st in _played("smoke", scenario, 25):
        text = text_of(rs.render_text(st, None))  # a message (issue 28): its English text
        head = _svg_header(st)
        assert _raw(text) == [] and _raw(head) == [], (_raw(text), _raw(head))
        assert text.splitlines()[0] == head  # one headline for both
        assert "Map: 1 character per UW" in text and " |" in text  # the table drawn as text
        seen.append(head)
    # a turn on: the turn, the phase of the last one, the side by its name and players, the step in words
    on = next(h for h in seen if " to act, " in h)
    assert re.search(r"turn \d+, phase \d+ of \d+ · (Karl|Vertumn) \(Player \d\) to act, \w+", on), on
    last = seen[-1]
    assert "finished: " in last and ("wins, " in last and "victory" in last or "a draw" in last), last


def test_emperor_text_replay_draws_the_grid_in_words():
    rs = registry.get("emperor")
    for st in _played("emperor", "SETUP-AKHENA-VS-REBEL", 20):
        text = text_of(rs.render_text(st, "human"))  # a message (issue 28): its English text
        assert [r for r in _raw(text) if r != "[]"] == [] and "[]" not in text.replace("[  ]", ""), _raw(text)
        assert any(ln.split() == ["A", "B", "C", "D", "E"] for ln in text.splitlines())  # the grid, its columns lettered
        assert "Cells: " in text
