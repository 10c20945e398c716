"""The store is a port with adapters that stand on their own (issue 25, DESIGN 11): every class of
``service/store/`` that implements :class:`service.store_contract.Store` has no base class of our code
other than a ``typing.Protocol``. What the adapters share they hold (``LogSql``) or take as plain
functions (``service/store/log_calls.py``), never by inheritance."""
from __future__ import annotations

import importlib
import inspect
import pkgutil
from typing import Protocol

import service.store
from service.store_contract import Store

#: The top-level packages of our code.
OURS = {"domain", "service", "projections", "bots", "scenarios", "ops", "tests"}


def our_bases(cls: type) -> list[type]:
    """The classes of our code ``cls`` inherits from, protocols (``typing.Protocol`` classes) aside."""
    return [b for b in cls.__mro__[1:]
            if b.__module__.split(".")[0] in OURS and not getattr(b, "_is_protocol", False)]


def _calls_of_store() -> set[str]:
    return {n for n, v in inspect.getmembers(Store) if not n.startswith("_") and callable(v)}


def store_adapters() -> list[type]:
    """Every class defined in a module of ``service/store/`` that has every call of the Store protocol."""
    calls = _calls_of_store()
    found = []
    for mod in pkgutil.iter_modules(service.store.__path__, "service.store."):
        module = importlib.import_module(mod.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and calls <= {n for n in dir(cls)}:
                found.append(cls)
    return found


def test_the_scan_finds_both_adapters():
    from service.store.postgres import PgEventStore
    from service.store.sqlite import EventStore

    assert len(_calls_of_store()) >= 30
    assert {EventStore, PgEventStore} <= set(store_adapters())


def test_no_store_adapter_has_a_base_class_of_ours():
    adapters = store_adapters()
    assert adapters
    for adapter in adapters:
        assert our_bases(adapter) == [], f"{adapter.__name__} inherits {our_bases(adapter)}: compose it instead"


def test_the_check_catches_a_planted_shared_base_and_lets_a_protocol_pass():
    class SharedCalls:  # a base class of ours, as service/store/log_calls.py's LogCalls was
        def game(self, game_id: str) -> None: ...

    class Planted(SharedCalls):
        pass

    class Declared(Store, Protocol):  # a protocol of ours: allowed
        pass

    class Explicit(Store):  # naming the protocol it implements: allowed
        pass

    assert our_bases(Planted) == [SharedCalls]
    assert our_bases(Explicit) == []
    assert our_bases(Declared) == []


def test_the_calls_made_from_statements_keep_their_arguments(tmp_path):
    """A call an adapter makes from a statement of ``LogSql`` (``service/store/log_calls.py``) takes that
    statement's arguments and answers from the adapter's own database."""
    from service.store.sqlite import EventStore

    store = EventStore(tmp_path)
    try:
        assert list(inspect.signature(store.version).parameters) == ["game_id"]
        assert list(inspect.signature(store.append).parameters)[:3] == ["game_id", "expected_version", "events"]
        assert inspect.iscoroutinefunction(store.append_async)
        assert store.game("nope") is None and store.game_ids() == []
    finally:
        store.close()
