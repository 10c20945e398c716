"""ops/bench's reading of the benchmarks: figures beside their comparisons, and a
benchmark that fails or lacks --json is reported, never dropped silently."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from benchreport.figures import Row, rows_of
from benchreport.main import render, run_one

APPEND = {"results": [
    {"impl": "store", "events_per_txn": 1, "txn_per_s": 300.0},
    {"impl": "raw", "events_per_txn": 1, "txn_per_s": 400.0},
    {"impl": "store", "events_per_txn": 10, "txn_per_s": 250.0},
    {"impl": "raw", "events_per_txn": 10, "txn_per_s": 250.0},
]}


def test_append_rows_put_the_store_beside_raw_sqlite():
    rows = rows_of("bench_append", APPEND)
    assert [(r.value, r.vs_value, r.ratio_text()) for r in rows] == [(300.0, 400.0, "0.75x"), (250.0, 250.0, "1.00x")]
    assert all("raw sqlite3" in r.vs_figure for r in rows)


def test_times_compare_as_ratios_of_the_same_run():
    out = {"game_events": 100, "throughput": {"bulk_events_per_s": 1000.0, "live_events_per_s": 250.0},
           "state_at_last_seq": {"snapshot_plus_fold": {"mean_ms": 2.0}, "full_fold": {"mean_ms": 8.0}}}
    rows = rows_of("bench_projections", out)
    assert [r.ratio_text() for r in rows] == ["4.00x", "0.25x"]
    assert rows[1].lower_is_better and "without snapshots" in rows[1].vs_figure


def test_unknown_benchmarks_are_read_generically_and_given_figures_as_given():
    rows = rows_of("bench_new", {"machine": {"cpus": 2}, "games_per_s": 12.5, "legal": {"calls_per_s": 7000}})
    assert sorted((r.figure, r.value) for r in rows) == [("games_per_s", 12.5), ("legal.calls_per_s", 7000.0)]
    rows = rows_of("bench_x", {"figures": [{"figure": "round trip", "value": 2.0, "unit": "ms", "lower_is_better": True,
                                            "vs": {"figure": "bare litestar", "value": 1.0}}]})
    assert rows == [Row("bench_x", "round trip", 2.0, "ms", "bare litestar", 1.0, None, True)]
    assert rows[0].ratio_text() == "2.00x"


def test_http_round_trips_beside_the_bare_handler():
    out = {"clients": 4, "ruleset": "hoth", "read_models": "redis", "endpoints": {
        "GET /constant (bare)": {"per_second": 1000.0, "p50_ms": 2.0, "p99_ms": 10.0},
        "POST /commands": {"per_second": 100.0, "p50_ms": 10.0, "p99_ms": 50.0}}}
    rows = rows_of("bench_http", out)
    assert [(r.unit, r.value, r.vs_value, r.ratio_text()) for r in rows] == [
        ("ms (p50)", 10.0, 2.0, "5.00x"), ("ms (p99)", 50.0, 10.0, "5.00x"), ("commands/s", 100.0, 1000.0, "0.10x")]
    assert all("bare litestar" in r.vs_figure for r in rows)


def _script(tmp_path: Path, name: str, body: str) -> Path:
    p = tmp_path / f"{name}.py"
    p.write_text(body)
    return p


def test_a_failing_or_json_less_benchmark_is_reported(tmp_path):
    ok = _script(tmp_path, "bench_ok", "import json; print(json.dumps({'rate': 5}))")
    bad = _script(tmp_path, "bench_bad", "raise SystemExit('boom: no database')")
    old = _script(tmp_path, "bench_old", "import argparse; argparse.ArgumentParser().parse_args(); print('7 calls/s')")
    outcomes = [run_one(p, quick=False, timeout=60) for p in (ok, bad, old)]
    assert [r.value for r in outcomes[0].rows] == [5.0] and outcomes[0].error is None
    assert outcomes[1].rows == [] and "boom: no database" in outcomes[1].error
    assert "no --json" in outcomes[2].error and outcomes[2].text == "7 calls/s"
    assert outcomes[2].rows == []
    md = render(outcomes, {"CPU": "test", "Python": sys.version.split()[0]}, "ops/bench", 1.0)
    assert "**not measured**: exit 1: boom: no database" in md
    assert "7 calls/s" in md and "Machine: CPU test" in md
    assert json.dumps(md)  # plain text


OPS = Path(__file__).resolve().parents[2] / "ops"


def test_hoth_and_sight_give_table_rows_beside_their_comparisons():
    """ops/bench_hoth.py and ops/bench_sight.py speak --json: their figures go into the table, not below it."""
    hoth = run_one(OPS / "bench_hoth.py", quick=True, timeout=300)
    assert hoth.error is None and hoth.text is None
    assert [(r.unit, bool(r.vs_figure), r.vs_value is not None and r.vs_value > 0) for r in hoth.rows] == [
        ("games/s", True, True), ("calls/s", True, True)]
    assert "random full games" in hoth.rows[0].figure and "replay of the same games" in hoth.rows[0].vs_figure
    assert "legal_commands" in hoth.rows[1].figure and "Move step" in hoth.rows[1].vs_figure
    sight = run_one(OPS / "bench_sight.py", quick=True, timeout=300)
    assert sight.error is None and sight.text is None
    [row] = sight.rows
    assert row.unit == "calls/s" and "warm" in row.figure and "cold" in row.vs_figure and row.vs_value > 0
    md = render([hoth, sight], {"CPU": "test"}, "ops/bench", 1.0)
    assert "| hoth | random full games" in md and "| sight | line_of_sight, warm" in md
    assert "no --json" not in md and "its own output" not in md
