"""Reference answers from the log (the fold) and a full dump of Redis, for comparisons."""
from __future__ import annotations

from typing import Any

import msgspec
import redis

from domain.kernel import GameCreated, Setup, fold, registry, words
from domain.kernel.fold import decode_event
from domain.kernel.undo import undone_seqs
from projections import views
from service.store import EventStore


def js(x: Any) -> Any:
    """JSON round trip: what a client receives."""
    return msgspec.json.decode(msgspec.json.encode(x))


def log_state(store: EventStore, game_id: str, upto: int | None = None) -> Any:
    g = store.require_game(game_id)
    rs = registry.get(g.ruleset)
    setup = msgspec.json.decode(g.setup, type=Setup)
    pairs = [(e.seq, decode_event(rs, e.payload)) for e in store.load(game_id, upto=upto)]
    return fold(rs, setup, pairs)


def prefix_states(store: EventStore, game_id: str) -> list[Any]:
    """The fold of every prefix of the log (index = seq): one evolve per event,
    a full fold of the prefix at each undo."""
    from domain.kernel import is_kernel_event
    from domain.kernel.undo import Undone

    g = store.require_game(game_id)
    rs = registry.get(g.ruleset)
    setup = msgspec.json.decode(g.setup, type=Setup)
    pairs = [(e.seq, decode_event(rs, e.payload)) for e in store.load(game_id)]
    out = [rs.initial_state(setup)]
    for i, (_, ev) in enumerate(pairs):
        if isinstance(ev, Undone):
            out.append(fold(rs, setup, pairs[: i + 1]))
        elif is_kernel_event(ev):
            out.append(out[-1])
        else:
            out.append(rs.evolve(out[-1], ev))
    return out


def log_views(store: EventStore, game_id: str) -> dict[str | None, Any]:
    """Every seat's and the spectator's ``GET /games/{id}`` body, from the log."""
    g = store.require_game(game_id)
    rs = registry.get(g.ruleset)
    state = log_state(store, game_id)
    setup = msgspec.json.decode(g.setup, type=Setup)
    return {seat: js(views.game_view(g, rs, state, seat)) for seat in (*setup.seats, None)}


def log_timeline(store: EventStore, game_id: str) -> list[dict[str, Any]]:
    g = store.require_game(game_id)
    rs = registry.get(g.ruleset)
    events = store.load(game_id)
    pairs = [(e.seq, decode_event(rs, e.payload)) for e in events]
    skip = undone_seqs(pairs)
    # the game's printed names (from its state) and bot seats (from its header), as the service gives them
    names = words.names_of(rs, log_state(store, game_id))
    bots = next((e.bots for _, e in pairs if isinstance(e, GameCreated)), {})
    return [js(views.timeline_entry(e, rs, undone=e.seq in skip, names=names, bots=bots)) for e in events]


def log_lobby(store: EventStore, status: str | None = None, ruleset: str | None = None) -> list[dict[str, Any]]:
    return [js(views.lobby_entry(g)) for g in store.games(status=status, ruleset=ruleset)]


def dump(client: redis.Redis, *, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """Every key's type and contents (streams as their entries)."""
    out: dict[str, Any] = {}
    for key in sorted(client.scan_iter(count=1000)):
        name = key.decode() if isinstance(key, bytes) else key
        if name in skip:
            continue
        t = client.type(key)
        t = t.decode() if isinstance(t, bytes) else t
        if t == "string":
            v: Any = client.get(key)
        elif t == "hash":
            v = dict(sorted(client.hgetall(key).items()))
        elif t == "list":
            v = client.lrange(key, 0, -1)
        elif t == "set":
            v = sorted(client.smembers(key))
        elif t == "zset":
            v = client.zrange(key, 0, -1, withscores=True)
        elif t == "stream":
            v = client.xrange(key)
        else:  # pragma: no cover
            raise AssertionError(f"unexpected type {t} of {name}")
        out[name] = (t, v)
    return out
