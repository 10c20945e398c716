"""Which event store the settings name (DESIGN 11): PostgreSQL (:mod:`service.store.postgres`) for a
``postgresql://`` URL, else the SQLite file in the data dir (:mod:`service.store.sqlite`)."""
from __future__ import annotations

import os

from ..store_contract import Store
from .sqlite import EventStore, StoreError


#: Names ``UMPIRE_DATABASE_URL`` (DESIGN 11): unset or empty, the SQLite file in the data dir.
ENV_DATABASE_URL = "UMPIRE_DATABASE_URL"
PG_SCHEMES = ("postgresql://", "postgres://")


def open_store(data_dir: str | os.PathLike[str], *, database_url: str | None = None,
               read_only: bool = False) -> Store:
    """The store the settings name: PostgreSQL when ``database_url`` (default: ``UMPIRE_DATABASE_URL``)
    is a ``postgresql://`` URL, else the SQLite file in ``data_dir``. Both implement
    :class:`service.store_contract.Store`; ``data_dir`` stays the node's local state dir either way."""
    url = database_url if database_url is not None else os.environ.get(ENV_DATABASE_URL, "")
    if url.startswith(PG_SCHEMES):
        from .postgres import PgEventStore  # optional dependency: psycopg, loaded only for a postgresql:// URL

        return PgEventStore(url, data_dir=data_dir, read_only=read_only)
    if url:
        raise StoreError(f"{ENV_DATABASE_URL}: only postgresql:// URLs are supported (unset it for SQLite)")
    return EventStore(data_dir, read_only=read_only)


__all__ = ["ENV_DATABASE_URL", "PG_SCHEMES", "open_store"]
