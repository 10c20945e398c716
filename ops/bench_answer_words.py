"""Benchmark a command's answer in a language beside English (issue 28: the answer speaks the reader's language).

    .venv/bin/python ops/bench_answer_words.py [--commands 150] [--lang cs] [--json]

Two Battle of Hoth games with the same seed and the same random legal commands, played side by side
through the real app (litestar's TestClient, real SQLite, no Redis): one posts its commands in English,
the other with ``Accept-Language: <lang>`` (the command door renders the answer's words on a worker
thread). Each command's round trip is timed, alternating the two games so that both see the same
machine; median, 95th percentile and maximum in ms, and the median added by the language.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from litestar.testing import TestClient  # noqa: E402

from service.app import create_app  # noqa: E402
from service.settings import Settings  # noqa: E402

SCENARIO = "SCN-TAKE-DOWN-THE-SHIELD"
SEED = "5a" * 32


def _stats(xs: list[float]) -> dict[str, float]:
    s = sorted(xs) or [0.0]
    return {"n": len(xs), "median_ms": round(statistics.median(s), 3),
            "p95_ms": round(s[min(len(s) - 1, int(0.95 * len(s)))], 3), "max_ms": round(s[-1], 3)}


def run(commands: int, lang: str) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as d:
        app = create_app(Settings(data_dir=d), read_models=None)
        with TestClient(app) as c:
            games = {}
            for key in ("en", lang):
                g = c.post("/games", json={"ruleset": "hoth", "scenario": SCENARIO, "seed": SEED}).json()
                games[key] = g
            rng = random.Random(7)
            times: dict[str, list[float]] = {"en": [], lang: []}
            for _ in range(commands):
                picks = {}
                for key, g in games.items():
                    v = c.get(f"/games/{g['game_id']}").json()
                    if v["status"] != "active" or not v["to_act"]:
                        return {"lang": lang, "stopped": "game over", **{k: _stats(t) for k, t in times.items()}}
                    seat = v["to_act"][0]
                    legal = c.get(f"/games/{g['game_id']}/legal-commands",
                                  headers={"Authorization": f"Bearer {g['seats'][seat]}"}).json()
                    picks[key] = (seat, legal)
                i = rng.randrange(len(picks["en"][1]["commands"]))
                for key in ("en", lang) if len(times["en"]) % 2 == 0 else (lang, "en"):
                    g, (seat, legal) = games[key], picks[key]
                    headers = {"Authorization": f"Bearer {g['seats'][seat]}"}
                    if key != "en":
                        headers["Accept-Language"] = lang
                    body = {"command": legal["commands"][min(i, len(legal["commands"]) - 1)],
                            "expected_version": legal["version"]}
                    t0 = time.perf_counter()
                    r = c.post(f"/games/{g['game_id']}/commands", json=body, headers=headers)
                    times[key].append((time.perf_counter() - t0) * 1000)
                    assert r.status_code == 201, r.text
            out: dict[str, object] = {"lang": lang, **{k: _stats(t) for k, t in times.items()}}
            out["median_added_ms"] = round(statistics.median(times[lang]) - statistics.median(times["en"]), 3)
            return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--commands", type=int, default=150)
    ap.add_argument("--lang", default="cs")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    res = run(a.commands, a.lang)
    print(json.dumps(res, indent=None if a.json else 2))


if __name__ == "__main__":
    main()
