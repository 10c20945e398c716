"""JSON lines for the service's logs on request (``UMPIRE_LOG_FORMAT=json``; default ``text``), DESIGN 16.

:class:`JsonFormatter` writes one JSON object per record: ``ts`` (UTC, ISO 8601), ``level``, ``logger``,
``message``, and the record's fields of :data:`FIELDS` when it has them (the command log of
:mod:`service.metrics` gives ``game_id``, ``seat``, ``ruleset``, ``command``, ``outcome``, ``rule``,
``duration_ms``). A seat is named, never its token; messages pass the service's token redaction
(:func:`service.auth.install_log_redaction`) before they are formatted. :func:`install` puts it on the root
logger and on uvicorn's loggers, and turns the per-command log (logger ``umpire.commands``, INFO) on.
"""
from __future__ import annotations

import json
import logging
import os
import sys
import time
from typing import Any

ENV_LOG_FORMAT = "UMPIRE_LOG_FORMAT"
#: Extra fields a record may carry that the JSON line keeps.
FIELDS = ("game_id", "seat", "ruleset", "command", "outcome", "rule", "duration_ms", "status", "method", "path",
          "client")


def json_wanted(env: dict[str, str] | None = None) -> bool:
    env = dict(os.environ) if env is None else env
    fmt = (env.get(ENV_LOG_FORMAT) or "text").strip().lower()
    if fmt not in ("text", "json"):
        raise ValueError(f"{ENV_LOG_FORMAT}: {fmt!r} is not text or json")
    return fmt == "json"


def iso_now(t: float | None = None) -> str:
    t = time.time() if t is None else t
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t % 1 * 1000):03d}Z"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {"ts": iso_now(record.created), "level": record.levelname, "logger": record.name,
                               "message": record.getMessage()}
        for k in FIELDS:
            v = record.__dict__.get(k)
            if v is not None:
                out[k] = v
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, separators=(",", ":"), default=str)


def install(stream: Any = None) -> None:
    """JSON lines on stderr for the root logger and uvicorn's, and the per-command log on."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    root.addHandler(handler)
    if root.level == logging.NOTSET or root.level > logging.INFO:
        root.setLevel(logging.INFO)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        for h in lg.handlers:
            h.setFormatter(JsonFormatter())
    logging.getLogger("umpire.commands").setLevel(logging.INFO)


__all__ = ["ENV_LOG_FORMAT", "JsonFormatter", "install", "iso_now", "json_wanted"]
