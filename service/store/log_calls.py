"""How a store adapter answers a call of the :class:`service.store_contract.Store` protocol from its
:class:`~service.store.log_sql.LogSql` (``self._sql``, the statements both adapters share): three plain
functions that make a method of an adapter out of a statement of :class:`LogSql`.

- :func:`asked`: the statement's own answer (a read; or ``append_tx``, a transaction handed back unrun);
- :func:`written`: the statement's transaction run by the adapter's own writer (``self._write``: SQLite's
  group commit, a PostgreSQL transaction);
- :func:`awaited`: the same on an event loop (``self._write_async``).

Each adapter lists in its own class body the calls it answers this way, one line each
(``game = asked(LogSql.game)``, ``append = written(LogSql.append_tx)``): composition, not inheritance.
No adapter has a base class of ours (``tests/kernel/test_imports.py``); a method made here keeps the
statement's signature and docstring (``inspect.signature`` follows ``__wrapped__``)."""
from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from .log_sql import LogSql

P = ParamSpec("P")
R = TypeVar("R")


class Adapter(Protocol):
    """What the methods made here need of the adapter they are called on."""

    _sql: LogSql

    def _write(self, fn: Callable[[Any], Any]) -> Any: ...

    async def _write_async(self, fn: Callable[[Any], Any]) -> Any: ...


def asked(statement: Callable[Concatenate[LogSql, P], R]) -> Callable[Concatenate[Adapter, P], R]:
    """A method answering ``statement`` on the adapter's ``_sql``."""
    @functools.wraps(statement)
    def call(store: Adapter, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return statement(store._sql, *args, **kwargs)
    return call


def written(statement: Callable[Concatenate[LogSql, P], Callable[[Any], R]]) -> Callable[Concatenate[Adapter, P], R]:
    """A method running the transaction ``statement`` makes with the adapter's writer (all or nothing)."""
    def call(store: Adapter, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return store._write(statement(store._sql, *args, **kwargs))
    return _runs(call, statement)


def awaited(statement: Callable[Concatenate[LogSql, P], Callable[[Any], R]]
            ) -> Callable[Concatenate[Adapter, P], Awaitable[R]]:
    """:func:`written` for a coroutine: the transaction awaited on the event loop (the command path)."""
    async def call(store: Adapter, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return await store._write_async(statement(store._sql, *args, **kwargs))
    return _runs(call, statement)


def _runs(call: Any, statement: Callable[..., Any]) -> Any:
    """``call`` with the docstring and the arguments of ``statement``, not its return (a transaction)."""
    functools.update_wrapper(call, statement)
    call.__signature__ = inspect.signature(statement).replace(return_annotation=inspect.Signature.empty)
    return call


__all__ = ["Adapter", "asked", "awaited", "written"]
