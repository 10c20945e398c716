"""The read models answer exactly what the log answers (DESIGN section 7)."""
from __future__ import annotations

import msgspec
import pytest
import redis
from redis.crc import key_slot

from projections import ReadModels, decode_feed_event
from projections.keys import GameKeys
from projections import views

from .helpers import js, log_lobby, log_state, log_timeline, log_views
from .tally import SEATS, Script, create_game, new_game


def assert_models_match_log(rm: ReadModels, store, game_id: str) -> None:
    want = log_views(store, game_id)
    for seat, body in want.items():
        assert rm.game_view(game_id, seat) == body, seat
    assert rm.timeline(game_id) == log_timeline(store, game_id)
    assert rm.last_seq(game_id) == store.version(game_id)


def test_views_timeline_lobby_equal_the_log_after_every_command(rm, store):
    s = new_game(store, "g1", seed=1)
    rm.project("g1")
    rm.catch_up_all()
    assert_models_match_log(rm, store, "g1")
    for _ in range(120):
        s.command()
        assert rm.project("g1") == s.version
        assert_models_match_log(rm, store, "g1")
    s.win()
    rm.project("g1")
    assert_models_match_log(rm, store, "g1")
    # once finished everything is public: every seat sees every hand
    view = rm.game_view("g1", None)
    assert view["status"] == "finished" and "hands" in view["state"]
    assert rm.lobby() == log_lobby(store)


def test_a_seat_sees_its_own_hand_and_only_sizes_of_the_others(rm, store):
    s = new_game(store, "g1", seed=2, events=60)
    rm.project("g1")
    st = log_state(store, "g1")
    for seat in SEATS:
        body = rm.game_view("g1", seat)
        assert body["state"]["hand"] == list(st.hands[seat])
        assert body["state"]["hand_sizes"] == {k: len(v) for k, v in st.hands.items()}
    assert "hand" not in rm.game_view("g1", None)["state"]
    assert s.version == rm.last_seq("g1")


def test_a_new_game_without_events_has_models_at_version_0(rm, store):
    create_game(store, "empty")
    assert rm.project("empty") == 0
    assert_models_match_log(rm, store, "empty")
    assert rm.timeline("empty") == []


def test_models_behind_the_log_answer_none(rm, store):
    s = new_game(store, "g1", seed=3, events=10)
    rm.project("g1")
    s.command()  # stored, not projected
    assert rm.game_view("g1", SEATS[0]) is None
    assert rm.timeline("g1") is None
    assert rm.game_view("g1", "nobody-such") is None
    assert rm.game_view("no-such-game", None) is None
    rm.project("g1")
    assert_models_match_log(rm, store, "g1")


def test_lobby_by_status_and_ruleset(rm, store):
    new_game(store, "a", seed=4, events=5)
    new_game(store, "b", seed=5, events=7, win=True)
    create_game(store, "c")
    assert rm.lobby() is None  # not caught up yet: answer from the log
    rm.catch_up_all()
    assert rm.lobby() == log_lobby(store)
    for status in ("active", "finished"):
        assert rm.lobby(status=status) == log_lobby(store, status=status)
        assert rm.lobby(status=status, ruleset="tally") == log_lobby(store, status=status, ruleset="tally")
    assert rm.lobby(ruleset="hoth") == []
    assert [g["game_id"] for g in rm.lobby(status="finished")] == ["b"]
    # a game moves from active to finished in the index
    Script(store, "a", seed=9).win()
    rm.project("a")
    assert rm.lobby(status="active") == log_lobby(store, status="active")
    assert rm.lobby(status="finished") == log_lobby(store, status="finished")


def test_lobby_pages_from_a_cursor_match_the_log(rm, store):
    """GET /games?limit=&cursor=: every filter's pages from Redis (its sorted set) equal the log's, in order."""
    for i, gid in enumerate(("p1", "p2", "p3", "p4", "p5")):
        new_game(store, gid, seed=20 + i, events=3, win=i % 2 == 1)
    rm.catch_up_all()
    for status in (None, "active", "finished"):
        for ruleset in (None, "tally"):
            log = [g.game_id for g in store.games(status=status, ruleset=ruleset)]
            got: list[str] = []
            after = None
            while True:
                page = rm.lobby(status, ruleset, after=after, limit=2)
                assert page == [js(views.lobby_entry(g)) for g in store.games(status=status, ruleset=ruleset,
                                                                              after=after, limit=2)]
                if not page:
                    break
                got += [e["game_id"] for e in page]
                after = (page[-1]["created_at"], page[-1]["game_id"])
            assert got == log and len(got) == len(set(got)), (status, ruleset)
    assert len(rm.lobby(status="finished")) == 2 and len(rm.lobby(status="active")) == 3


def test_feed_is_gapless_and_falls_back_to_the_log_for_trimmed_entries(redis_client, store):
    rm = ReadModels(redis_client, store, feed_maxlen=10)
    s = new_game(store, "g1", seed=6, events=300)
    rm.project("g1")
    assert redis_client.xlen(rm.feed_key("g1")) < 300  # trimmed (MAXLEN ~)
    got = []
    after = 0
    while True:
        batch = rm.read_feed("g1", after, block_ms=0)
        if not batch:
            break
        got += batch
        after = batch[-1][0]
    assert [seq for seq, _ in got] == list(range(1, s.version + 1))
    stored = store.load("g1")
    assert [decode_feed_event(js_) for _, js_ in got] == stored
    # the SSE endpoint shows each entry as the caller may see it
    ev = decode_feed_event(got[0][1])
    assert views.event_view(ev, rm._game("g1").ruleset, None, finished=False, undone=False)["seq"] == 1
    assert rm.read_feed("g1", s.version, block_ms=50) == []


def test_keys_share_one_hash_tag(rm, store, redis_client):
    new_game(store, "g1", seed=7, events=120)
    rm.project("g1")
    tag = GameKeys("g1").tag
    game_keys = [k.decode() for k in redis_client.scan_iter(match="*g:g1*")]
    assert game_keys and all(k.startswith(tag + ":") for k in game_keys)
    assert len({key_slot(k.encode()) for k in game_keys}) == 1  # one Redis Cluster slot


def test_state_at_equals_the_fold_of_the_prefix(rm, store):
    s = new_game(store, "g1", seed=8, events=400)
    rm.project("g1")
    for seq in range(0, s.version + 1, 7):
        assert rm.state_at("g1", seq) == log_state(store, "g1", upto=seq), seq
    assert rm.state_at("g1", s.version + 1) is None
    assert rm.state_at("nope", 1) is None
    body = rm.view_at("g1", 5, SEATS[0])
    g = store.require_game("g1")
    assert body == js(views.game_view(g, rm._game("g1").ruleset, log_state(store, "g1", upto=5), SEATS[0], version=5))
    assert msgspec.json.encode(body)


@pytest.mark.parametrize("protocol", [2, 3])
@pytest.mark.parametrize("decode_responses", [False, True])
def test_any_client_flavour_reads_the_same_models(redis_server, store, protocol, decode_responses):
    client = redis.Redis.from_url(redis_server.url, protocol=protocol, decode_responses=decode_responses)
    client.flushall()
    rm = ReadModels(client, store)
    s = new_game(store, "g1", seed=12, events=150)
    new_game(store, "g2", seed=13, events=20, win=True)
    rm.catch_up_all()
    assert_models_match_log(rm, store, "g1")
    assert rm.lobby() == log_lobby(store)
    assert rm.lobby(status="finished", ruleset="tally") == log_lobby(store, status="finished")
    assert rm.state_at("g1", 77) == log_state(store, "g1", upto=77)
    feed = rm.read_feed("g1", 140, block_ms=10)
    assert [seq for seq, _ in feed] == list(range(141, s.version + 1))
    assert decode_feed_event(feed[0][1]) == store.event("g1", 141)
    client.close()


def test_a_game_that_cannot_be_projected_does_not_hold_back_the_others(rm, store, redis_client):
    new_game(store, "ok", seed=14, events=10)
    new_game(store, "bad", seed=15, events=10)
    with store._conn() as conn:  # a ruleset this umpire does not have
        conn.execute("UPDATE games SET ruleset = 'gone' WHERE game_id = 'bad'")
    assert rm.catch_up_all() == 1
    assert rm.last_seq("ok") == 10 and rm.last_seq("bad") is None
    assert rm.lobby() is None  # not every game is in the index: the log answers


def test_read_feed_wakes_up_for_a_new_event_and_never_outwaits_the_socket(redis_server, store):
    import threading

    client = redis.Redis.from_url(redis_server.url, socket_timeout=1.0)
    client.flushall()
    rm = ReadModels(client, store)
    s = new_game(store, "g1", seed=16, events=5)
    rm.project("g1")
    # longer than the socket timeout: clamped, so an empty answer rather than a TimeoutError
    assert rm.read_feed("g1", s.version, block_ms=10_000) == []

    def later() -> None:
        s.command()
        ReadModels(redis.Redis.from_url(redis_server.url), store).project("g1")

    t = threading.Timer(0.2, later)
    t.start()
    got: list = []
    for _ in range(20):  # until the writer's events arrive (each call blocks at most ~0.9 s)
        got += rm.read_feed("g1", got[-1][0] if got else 5, block_ms=900)
        if got and not t.is_alive() and got[-1][0] == s.version:
            break
    t.join()
    assert [seq for seq, _ in got] == list(range(6, s.version + 1))
    client.close()
