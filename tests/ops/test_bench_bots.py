"""ops/bench_bots.py: Wilson intervals, the per-pair summary over both factions, and figures ops/bench reads."""
from __future__ import annotations

import math

import bench_bots
from benchreport.figures import rows_of


def test_wilson_intervals():
    assert bench_bots.wilson(0, 0) == (0.0, 1.0)
    lo, hi = bench_bots.wilson(5, 10)
    assert math.isclose(lo, 0.2366, abs_tol=1e-3) and math.isclose(hi, 0.7634, abs_tol=1e-3)
    lo, hi = bench_bots.wilson(200, 200)
    assert hi == 1.0 and 0.98 < lo < 0.99  # 200 wins of 200: at least 98% with 95% confidence


def test_the_summary_counts_wins_losses_draws_per_side():
    g = [{"pair": "search:1 vs greedy:1", "i": i, "a_side": "imperial" if i % 2 == 0 else "rebel", "turns": 10,
          "winner": w} for i, w in enumerate(["search:1", "greedy:1", "search:1", None, "search:1", "search:1"])]
    s = bench_bots.summarise(g, [("search:1", "greedy:1")])["search:1 vs greedy:1"]
    assert (s["games"], s["wins"], s["losses"], s["draws"]) == (6, 4, 1, 1)
    assert s["by_side"]["imperial"]["wins"] == 3 and s["by_side"]["rebel"]["wins"] == 1
    assert s["ci95"][0] < s["win_rate"] < s["ci95"][1]


def test_equal_bots_are_told_apart_by_side():
    g = [{"pair": "greedy:1 vs greedy:1", "i": i, "a_side": "imperial" if i % 2 == 0 else "rebel", "turns": 9,
          "winner": "greedy:1", "winner_side": "imperial"} for i in range(4)]
    s = bench_bots.summarise(g, [("greedy:1", "greedy:1")])["greedy:1 vs greedy:1"]
    assert (s["wins"], s["losses"]) == (2, 2)
    assert s["by_side"]["imperial"]["wins"] == 2 and s["by_side"]["rebel"]["wins"] == 0


def test_its_figures_are_table_rows():
    out = {"figures": [{"figure": "search:1 vs random:1: win rate", "value": 97.5, "unit": "%",
                        "vs": {"figure": "lower end of the 95% interval", "value": 94.3}}]}
    [row] = rows_of("bench_bots", out)
    assert (row.unit, row.value, row.vs_value) == ("%", 97.5, 94.3)
