"""The event store: the source of truth (DESIGN sections 2 and 11), a port with two adapters.

- :mod:`service.store.sqlite`: the SQLite file of a node (the default);
- :mod:`service.store.postgres`: PostgreSQL, shared by nodes (imported only for a ``postgresql://`` URL);
- :mod:`service.store.backend`: :func:`open_store`, the adapter the settings name;
- :mod:`service.store.migrations`: the SQLite schema steps; :mod:`service.store.group_commit`: writers
  sharing one transaction; :mod:`service.store.chain_check`: chain verification;
- :mod:`service.store.log_sql` (the log's statements), :mod:`service.store.log_calls` (Store calls made from
  those statements, one line per call in each adapter) and :mod:`service.store.rows` (columns, row
  decoding): what both adapters share, by composition (neither adapter inherits from the other).

The port is :class:`service.store_contract.Store`; callers take it, not an adapter.
"""
from domain.kernel.log import EventLog

from .backend import ENV_DATABASE_URL, PG_SCHEMES, open_store
from .chain_check import ChainReport, verify_chain, verify_commitments
from .group_commit import ON_GROUP_COMMIT
from .log_sql import SeatRefused
from .migrations import MIGRATIONS
from .rows import EVENT_COLUMNS, token_hash
from .sqlite import (
    DB_FILE, GENESIS, WRITER_LOCK_FILE, AppendResult, EventStore, GameExists, GameRow, NewEvent, SeedUnavailable,
    StoredEvent, StoreError, UnknownGame, VersionConflict, canonical, chain_hash,
)

__all__ = [
    "DB_FILE", "ENV_DATABASE_URL", "EVENT_COLUMNS", "GENESIS", "MIGRATIONS", "ON_GROUP_COMMIT", "PG_SCHEMES",
    "WRITER_LOCK_FILE", "AppendResult", "ChainReport", "EventLog", "EventStore", "GameExists", "GameRow", "NewEvent",
    "SeatRefused", "SeedUnavailable", "StoreError", "StoredEvent", "UnknownGame", "VersionConflict", "canonical",
    "chain_hash", "open_store", "token_hash", "verify_chain", "verify_commitments",
]
