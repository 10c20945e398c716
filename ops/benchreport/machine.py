"""The machine a benchmark run was measured on."""
from __future__ import annotations

import os
import platform
import sqlite3
import subprocess
import sys
from pathlib import Path


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def memory() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                kib = int(line.split()[1])
                return f"{kib / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError):
        pass
    return "unknown"


def redis_version() -> str:
    try:
        from service.redis_runtime import find_redis_server

        out = subprocess.run([find_redis_server(), "--version"], capture_output=True, text=True, timeout=10).stdout
    except Exception as exc:  # noqa: BLE001 - a report line, never a crash
        return f"unknown ({type(exc).__name__})"
    for part in out.split():
        if part.startswith("v="):
            return part[2:]
    return out.strip() or "unknown"


def describe() -> dict[str, str]:
    cores = os.cpu_count() or 0
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        usable = cores
    return {
        "CPU": cpu_model(),
        "cores": f"{usable}" + (f" usable of {cores}" if usable != cores else ""),
        "memory": memory(),
        "OS": platform.platform(terse=True),
        "Python": f"{platform.python_version()} ({sys.implementation.name})",
        "SQLite": sqlite3.sqlite_version,
        "Redis": redis_version(),
    }
