"""A benchmark's probe of the garbage collector's pauses in an ``umpire serve`` process.

Imported into the served process as a CLI plugin (``UMPIRE_CLI_PLUGINS=...,gc_pauses``, with ``ops/`` on
``PYTHONPATH``) when ``UMPIRE_BENCH_GC_DIR`` names a directory; it does nothing otherwise. It times every
collection (``gc.callbacks``) and, twice a second, writes the running totals of this process to
``<dir>/gc-<pid>.json``: per generation the number of collections, their total and longest seconds, and the
number of pauses of 1 ms or more, and the latest 200 such pauses (when, generation, seconds, objects
collected, the collecting thread's CPU seconds, objects in the oldest generation after it). A benchmark reads the file before and after a phase.

With ``UMPIRE_BENCH_GC_OFF=1`` it turns the collector off in that process (``ops/bench_feeds.py --gc-off``: how
much of a latency tail the collections are). Not part of the product: ``ops/bench_feeds.py --gc-probe`` uses it.
"""
from __future__ import annotations

import gc
import json
import os
import threading
import time

ENV_DIR = "UMPIRE_BENCH_GC_DIR"
#: ``1``: the served process runs with the collector off (``gc.disable()``): a diagnostic, never a setting.
ENV_OFF = "UMPIRE_BENCH_GC_OFF"
#: ``a,b,c``: the served process's collection thresholds (``gc.set_threshold``), an experiment.
ENV_THRESHOLD = "UMPIRE_BENCH_GC_THRESHOLD"
#: Pauses at least this long are counted apart (seconds).
LONG = 0.001


def _install(where: str) -> None:
    totals = {g: {"n": 0, "s": 0.0, "max": 0.0, "long": 0} for g in range(3)}
    started = [0.0, 0.0]
    longs: list[list[float]] = []  # the latest long pauses: [wall time, generation, seconds, collected]

    def on_gc(phase: str, info: dict) -> None:
        if phase == "start":
            started[0], started[1] = time.perf_counter(), time.thread_time()
            return
        d = time.perf_counter() - started[0]
        cpu = time.thread_time() - started[1]
        t = totals[info.get("generation", 0)]
        t["n"] += 1
        t["s"] += d
        t["max"] = max(t["max"], d)
        if d >= LONG:
            t["long"] += 1
            longs.append([time.time(), info.get("generation", 0), d, info.get("collected", 0), cpu,
                          len(gc.get_objects(2))])
            del longs[:-200]

    def flush() -> None:
        path = os.path.join(where, f"gc-{os.getpid()}.json")
        while True:
            time.sleep(0.5)
            tmp = path + ".tmp"
            with open(tmp, "w") as f:
                json.dump({"pid": os.getpid(), "gen": {str(g): dict(v) for g, v in totals.items()},
                           "long": list(longs), "counts": gc.get_count()}, f)
            os.replace(tmp, path)

    gc.callbacks.append(on_gc)
    threading.Thread(target=flush, name="bench-gc-probe", daemon=True).start()


if os.environ.get(ENV_DIR):
    _install(os.environ[ENV_DIR])
if os.environ.get(ENV_THRESHOLD):  # e.g. "700,10,1000": gc.set_threshold in the served process (an experiment)
    gc.set_threshold(*(int(x) for x in os.environ[ENV_THRESHOLD].split(",")))
if os.environ.get(ENV_OFF) == "1":  # the experiment "what if no collection ran": cycles are then never freed
    gc.disable()
