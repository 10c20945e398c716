"""What every ``umpire`` command shares, the built-in ones of :mod:`service.cli` and the plug-ins'
(:mod:`service.replay_cli`, :mod:`service.projections_cli`, ``UMPIRE_CLI_PLUGINS``): one line on stderr
and an exit code for a failure, and the store opened read-only. A plug-in imports this module, never
:mod:`service.cli` (which loads the plug-ins)."""
from __future__ import annotations

import sys
from pathlib import Path
import click

from .store import open_store
from .store_contract import Store

EXIT_ERROR = 1
EXIT_NOT_VERIFIED = 3


def fail(message: str, code: int = EXIT_ERROR) -> None:
    click.echo(f"umpire: error: {' '.join(str(message).split())}", err=True)
    sys.exit(code)


def open_existing_store(data_dir: str, database_url: str | None = None) -> Store:
    """The store in ``data_dir`` (or ``$UMPIRE_DATABASE_URL``), opened read-only (``verify``/``export``):
    it must already hold a database of this code's schema; nothing is created or written, so a
    read-only backup copy works."""
    return open_store(Path(data_dir), database_url=database_url or "", read_only=True)


__all__ = ["EXIT_ERROR", "EXIT_NOT_VERIFIED", "fail", "open_existing_store"]
