"""The served process's garbage-collector settings (service/gc_tuning.py): what the environment may say, and what
:func:`tune` does to a process (run in a child interpreter: the test process keeps CPython's own settings)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from service import gc_tuning

ROOT = Path(__file__).resolve().parents[2]


def test_thresholds_from_the_environment():
    assert gc_tuning.thresholds({}) == gc_tuning.GC_THRESHOLDS
    assert gc_tuning.thresholds({"UMPIRE_GC_THRESHOLDS": "700,10,1000"}) == (700, 10, 1000)
    assert gc_tuning.thresholds({"UMPIRE_GC_THRESHOLDS": " 5000 , 20 , 100 "}) == (5000, 20, 100)
    assert gc_tuning.thresholds({"UMPIRE_GC_THRESHOLDS": "default"}) is None


@pytest.mark.parametrize("raw", ["700,10", "700,10,x", "0,10,10", "700,10,-1", "７００,10,10", "1e3,10,10"])
def test_malformed_thresholds_are_refused_naming_the_variable(raw):
    with pytest.raises(ValueError, match="UMPIRE_GC_THRESHOLDS"):
        gc_tuning.thresholds({"UMPIRE_GC_THRESHOLDS": raw})


def test_freeze_from_the_environment():
    assert gc_tuning.freezing({}) is gc_tuning.FREEZE
    assert gc_tuning.freezing({"UMPIRE_GC_FREEZE": "1"}) is True
    assert gc_tuning.freezing({"UMPIRE_GC_FREEZE": "0"}) is False
    with pytest.raises(ValueError, match="UMPIRE_GC_FREEZE"):
        gc_tuning.freezing({"UMPIRE_GC_FREEZE": "maybe"})


def _tuned(env: dict[str, str]) -> dict:
    code = ("import gc, json; from service import gc_tuning; before = gc.get_threshold(); gc_tuning.tune(); "
            "print(json.dumps({'before': before, 'after': gc.get_threshold(), 'frozen': gc.get_freeze_count()}))")
    full = {k: v for k, v in os.environ.items() if not k.startswith("UMPIRE_")}
    full.update(env, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=full, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_tune_sets_the_process_collector():
    plain = _tuned({})  # the defaults: CPython's own thresholds, nothing frozen
    assert tuple(plain["after"]) == (gc_tuning.GC_THRESHOLDS or tuple(plain["before"]))
    assert (plain["frozen"] > 0) is gc_tuning.FREEZE
    set_ = _tuned({"UMPIRE_GC_THRESHOLDS": "900,11,123", "UMPIRE_GC_FREEZE": "1"})
    assert set_["after"] == [900, 11, 123]
    assert set_["frozen"] > 1000  # the imported modules' objects
