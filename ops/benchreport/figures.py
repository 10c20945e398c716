"""Each benchmark's ``--json`` output as rows: a figure beside its comparison from the same run.

A benchmark may also print ``{"figures": [{"figure", "value", "unit", "vs": {"figure", "value"},
"lower_is_better"}]}``
(the generic shape); anything else is read by :func:`generic` (every number, by its path).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Row:
    bench: str
    figure: str
    value: float | None
    unit: str = ""
    vs_figure: str = ""
    vs_value: float | None = None
    #: value / vs_value, unless the benchmark gives its own.
    ratio: float | None = None
    #: Times (ms): lower is better (said in the table's unit column).
    lower_is_better: bool = False

    def ratio_text(self) -> str:
        r = self.ratio
        if r is None and self.value is not None and self.vs_value:
            r = self.value / self.vs_value
        return "" if r is None else f"{r:.2f}x"


def num(v: float | None) -> str:
    if v is None:
        return "-"
    if abs(v) >= 100:
        return f"{v:,.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.3g}"


def _get(d: Any, *path: str) -> Any:
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return None
        d = d[p]
    return d


def append(bench: str, out: dict[str, Any]) -> list[Row]:
    by = {(r.get("impl"), r.get("events_per_txn")): r for r in out.get("results", [])}
    rows = []
    for p in sorted({k[1] for k in by}):
        s, r = by.get(("store", p)), by.get(("raw", p))
        if s is None or r is None:
            continue
        rows.append(Row(bench, f"durable append, {p} event{'s' if p > 1 else ''}/command: EventStore",
                        s["txn_per_s"], "commands/s", "raw sqlite3, same schema and durability", r["txn_per_s"]))
    return rows


def projections(bench: str, out: dict[str, Any]) -> list[Row]:
    if isinstance(out.get("results"), list):  # one result per ruleset
        return [row for r in out["results"] if isinstance(r, dict) for row in projections(bench, r)]
    t = out.get("throughput", {})
    game = f"{out['ruleset']} " if out.get("ruleset") else ""
    rows = [Row(bench, f"projection throughput, {game}bulk (rebuild / catch-up)", t.get("bulk_events_per_s"),
                "events/s", "live: project() after every command", t.get("live_events_per_s"))]
    n = f"{out.get('game_events')}-event {game}".strip()
    for key, label in (("state_at_random_seq", "random seq"), ("state_at_last_seq", "last seq")):
        d = out.get(key, {})
        snap, full = _get(d, "snapshot_plus_fold", "mean_ms"), _get(d, "full_fold", "mean_ms")
        if snap is None:
            continue
        rows.append(Row(bench, f"replay: state at {label} of a {n} game, with snapshots", snap, "ms (mean)",
                        "without snapshots (full fold of the log)", full, lower_is_better=True))
    return rows


def http(bench: str, out: dict[str, Any]) -> list[Row]:
    eps = out.get("endpoints", {})
    bare_name = next((k for k in eps if "bare" in k), None)
    if bare_name is None:
        return []
    bare = eps[bare_name]
    how = f"{out.get('clients', '?')} clients, {out.get('ruleset', '?')}, read models: {out.get('read_models', '?')}"
    rows = []
    for name, e in eps.items():
        if name == bare_name:
            continue
        rows.append(Row(bench, f"{name} round trip ({how})", e.get("p50_ms"), "ms (p50)",
                        f"bare litestar handler {bare_name.replace(' (bare)', '')}", bare.get("p50_ms"),
                        lower_is_better=True))
        if name.startswith("POST"):
            rows.append(Row(bench, f"{name} round trip", e.get("p99_ms"), "ms (p99)", "bare litestar handler",
                            bare.get("p99_ms"), lower_is_better=True))
            rows.append(Row(bench, f"{name}: commands per second ({how})", e.get("per_second"), "commands/s",
                            "bare litestar handler, requests/s", bare.get("per_second")))
    return rows


def given(bench: str, out: dict[str, Any]) -> list[Row]:
    rows = []
    for f in out.get("figures", []):
        vs = f.get("vs") or {}
        rows.append(Row(bench, str(f.get("figure", "?")), f.get("value"), str(f.get("unit", "")),
                        str(vs.get("figure", "")), vs.get("value"), f.get("ratio"),
                        bool(f.get("lower_is_better", False))))
    return rows


SKIP_KEYS = {"machine", "params", "benchmark", "unit", "seed"}


def generic(bench: str, out: Any, prefix: str = "") -> list[Row]:
    """Every number in ``out`` by its path (machine and params left out)."""
    rows: list[Row] = []
    if isinstance(out, dict):
        items = [(k, v) for k, v in out.items() if k not in SKIP_KEYS]
    elif isinstance(out, list):
        items = [(str(x.get("name", i)) if isinstance(x, dict) else str(i), x) for i, x in enumerate(out)]
    else:
        items = []
    for k, v in items:
        path = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, bool):
            continue
        if isinstance(v, (int, float)):
            rows.append(Row(bench, path, float(v)))
        elif isinstance(v, (dict, list)):
            rows += generic(bench, v, path)
    return rows


FORMATTERS: dict[str, Callable[[str, dict[str, Any]], list[Row]]] = {
    "bench_append": append,
    "bench_http": http,
    "bench_projections": projections,
}


def rows_of(bench: str, out: Any) -> list[Row]:
    if isinstance(out, dict) and isinstance(out.get("figures"), list):
        return given(bench, out)
    fmt = FORMATTERS.get(bench)
    if fmt is not None and isinstance(out, dict):
        rows = [r for r in fmt(bench, out) if r.value is not None]
        if rows:
            return rows
    return generic(bench, out)
