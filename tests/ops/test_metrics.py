"""``GET /metrics`` of real ``umpire serve`` processes (DESIGN 16): after a scripted game of each ruleset (hoth,
smoke, emperor: commands, one dry run, one undo) the scrape shows exactly the counts those games made, by
ruleset, command type and outcome -- with two workers on SQLite (prometheus_client's multi-process mode:
any worker's scrape sums both and the projector process), and with two nodes on one PostgreSQL and one
Redis (each node's scrape is its own; their sum is what the client did). The sample dashboard and alert
rules name only metrics a real scrape has."""
from __future__ import annotations

import json
import re
import secrets
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from .metrics_script import GAMES, ROOT, Serve, Tally, assert_counts, play, scrape, summed

DEPLOY = ROOT / "ops" / "deploy"


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory):
    """``umpire serve --workers 2`` on SQLite (its private Redis, its projector process), after the script."""
    data = tmp_path_factory.mktemp("workers") / "data"
    server = Serve(data, workers=2).wait()
    try:
        tally = Tally()
        play([server.url], tally)
        yield server, tally, data
    finally:
        server.stop()


def test_two_workers_scrape_shows_the_scripted_games_counts(two_workers):
    server, tally, data = two_workers
    scrapes = [scrape(server.url) for _ in range(4)]  # each request may reach either worker
    for sc in scrapes:  # every worker's scrape is the same sum of both workers' samples
        assert_counts([sc], tally)
    # the multi-process files: in serve's own private directory, never in the data dir (a full data disk must
    # not kill a process through prometheus_client's mmap)
    children = Path(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children").read_text().split()
    envs = [dict(kv.split("=", 1) for kv in Path(f"/proc/{c}/environ").read_text().split("\0") if "=" in kv)
            for c in children]  # the workers and the projector were started with it (serve set it in-process)
    [where] = {e["PROMETHEUS_MULTIPROC_DIR"] for e in envs if "PROMETHEUS_MULTIPROC_DIR" in e}
    samples = Path(where)
    assert samples.is_dir() and any(samples.iterdir()) and not samples.is_relative_to(data.resolve())
    assert not (data / "metrics").exists()


def test_the_projector_process_reports_its_lag(two_workers):
    server, _, _ = two_workers
    # the projector samples its lag once a second from the moment it is up (after its imports and the rulesets'
    # content): on a loaded machine its first sample may come after the scripted games
    deadline = time.monotonic() + 30
    sc = scrape(server.url)
    while "umpire_projector_lag_events" not in sc and time.monotonic() < deadline:
        time.sleep(0.5)
        sc = scrape(server.url)
    assert "umpire_projector_lag_events" in sc, (sorted(sc), server.log.read_text()[-3000:])
    lag = {labels["node"]: v for labels, v in sc["umpire_projector_lag_events"]}
    assert lag, sc.keys()

    deadline = time.monotonic() + 30
    while any(lag.values()) and time.monotonic() < deadline:  # it catches up with the log
        time.sleep(0.5)
        lag = {labels["node"]: v for labels, v in scrape(server.url)["umpire_projector_lag_events"]}
    assert not any(lag.values()), lag
    assert "umpire_projector_lag_seconds" in sc


def test_feed_subscribers_are_counted_while_open(two_workers):
    server, _, _ = two_workers
    gid = httpx.get(server.url + "/games", timeout=30).json()["games"][0]["game_id"]
    with httpx.Client(base_url=server.url, timeout=30) as c, c.stream("GET", f"/games/{gid}/feed") as feed:
        assert feed.status_code == 200, feed.read()
        lines = feed.iter_lines()  # kept: a dropped iterator closes the response (and the feed)
        next(lines)  # the first event is here: the feed is open
        open_now = summed([scrape(server.url)], "umpire_feed_subscribers", ())
        assert sum(open_now.values()) == 1, open_now

    deadline = time.monotonic() + 10
    while sum(summed([scrape(server.url)], "umpire_feed_subscribers", ()).values()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert sum(summed([scrape(server.url)], "umpire_feed_subscribers", ()).values()) == 0


def _series(text: str) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """Every sample of a scrape's text as (name, labels), read by prometheus_client's own text parser."""
    return [(s.name, tuple(sorted(s.labels.items())))
            for fam in text_string_to_metric_families(text) for s in fam.samples]


def test_one_worker_scrape_has_each_series_once(tmp_path):
    """``umpire serve`` with one worker keeps its samples in memory and reads its projector process's from the
    multi-process directory: each series (``umpire_feed_subscribers{node}`` among them) is shown once, its value
    the two processes' combined, and the scripted games' counts are exact."""
    server = Serve(tmp_path / "data", workers=1).wait()
    try:
        tally = Tally()
        play([server.url], tally)
        assert_counts([scrape(server.url)], tally)
        gid = httpx.get(server.url + "/games", timeout=30).json()["games"][0]["game_id"]
        with httpx.Client(base_url=server.url, timeout=30) as c, c.stream("GET", f"/games/{gid}/feed") as feed:
            assert feed.status_code == 200, feed.read()
            lines = feed.iter_lines()
            next(lines)  # the feed is open
            text = httpx.get(server.url + "/metrics", timeout=30).text
        series = _series(text)
        twice = sorted(k for k, n in Counter(series).items() if n > 1)
        assert not twice, twice
        families = [fam.name for fam in text_string_to_metric_families(text)]
        assert len(families) == len(set(families)), sorted(f for f in families if families.count(f) > 1)
        feeds = [s for fam in text_string_to_metric_families(text) for s in fam.samples
                 if s.name == "umpire_feed_subscribers"]
        assert [(s.labels, s.value) for s in feeds] == [({"node": feeds[0].labels["node"]}, 1.0)], feeds
        # the projector process's samples are in: its lag gauge (set once it has caught up and sampled), once
        deadline = time.monotonic() + 30
        while True:
            later = _series(httpx.get(server.url + "/metrics", timeout=30).text)
            lag = [labels for name, labels in later if name == "umpire_projector_lag_events"]
            if lag or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert len(lag) == 1, later
        assert not sorted(k for k, n in Counter(later).items() if n > 1)
    finally:
        server.stop()


def test_two_workers_scrape_has_each_series_once(two_workers):
    server, _, _ = two_workers
    series = _series(httpx.get(server.url + "/metrics", timeout=30).text)
    assert series and not sorted(k for k, n in Counter(series).items() if n > 1)


def test_two_nodes_on_postgresql_each_scrape_is_the_nodes_own(tmp_path, pg_server, redis_server, redis_client):
    url = pg_server.new_database()
    key = secrets.token_hex(32)
    env = {"UMPIRE_DATABASE_URL": url, "UMPIRE_REDIS_URL": redis_server.url, "UMPIRE_SIGNING_KEY": key}
    nodes = [Serve(tmp_path / f"node{i}", env={**env, "UMPIRE_NODE": f"node{i}"}) for i in range(2)]
    try:
        for n in nodes:
            n.wait()
        tally = Tally()
        play([n.url for n in nodes], tally)
        scrapes = [scrape(n.url) for n in nodes]
        assert_counts(scrapes, tally)
        for sc in scrapes:  # both nodes served commands (the script alternates them)
            assert sum(summed([sc], "umpire_commands_total", ()).values()) > 0
        # each node's projector lag gauge: set once its projector has caught up and sampled (seconds on a loaded
        # machine), so it is waited for, as in the one-worker test
        deadline = time.monotonic() + 30
        while True:
            lag_nodes = {labels["node"] for n in nodes for labels, _ in scrape(n.url).get("umpire_projector_lag_events", [])}
            if lag_nodes == {"node0", "node1"} or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert lag_nodes == {"node0", "node1"}
    finally:
        for n in nodes:
            n.stop()
        pg_server.drop_database(url)


# -- the sample dashboard and alert rules ------------------------------------------------------------------
_NAME = re.compile(r"\bumpire_[a-z_]+\b")


def _names_in(text: str) -> set[str]:
    return set(_NAME.findall(text))


def test_dashboard_and_alerts_name_only_metrics_of_a_real_scrape(two_workers):
    server, _, _ = two_workers
    # a game of two bots: their decision times (the script's games have none)
    r = httpx.post(server.url + "/games", timeout=60, json={"ruleset": "hoth", "scenario": GAMES["hoth"],
                                                           "bots": {"imperial": "greedy", "rebel": "greedy"}})
    assert r.status_code == 201, r.text
    deadline = time.monotonic() + 60
    while "umpire_bot_decision_seconds_count" not in scrape(server.url) and time.monotonic() < deadline:
        time.sleep(0.5)
    have = set(scrape(server.url))
    bots = summed([scrape(server.url)], "umpire_bot_decision_seconds_count", ("bot", "level"))
    assert bots and all(bot == "greedy" for bot, _ in bots), bots
    dashboard = json.loads((DEPLOY / "grafana-dashboard.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", ())]
    assert len(exprs) >= 8
    rules = yaml.safe_load((DEPLOY / "prometheus-alerts.yml").read_text())
    alerts = [r for g in rules["groups"] for r in g["rules"]]
    assert {a["alert"] for a in alerts} >= {"UmpireProjectorLag", "UmpireHttp5xxRate", "UmpireCommitTimeHigh"}
    named = set().union(*(_names_in(e) for e in exprs + [a["expr"] for a in alerts]))
    assert named, "no umpire metric named"
    missing = sorted(named - have)
    assert not missing, f"named by the dashboard or the alerts but not in a scrape: {missing}"


def test_route_labels_fold_ids_and_keep_scanners_out():
    from service.metrics import route_of

    assert route_of("/games/0f3a/events/12/ruling") == "/games/{id}/events/{n}/ruling"
    assert route_of("/rulesets/hoth/rules/HOTH-LOS-RIDGE-1") == "/rulesets/{id}/rules/{rule}"
    assert route_of("/campaigns/c1/ready") == "/campaigns/{id}/ready"
    assert route_of("/web/js/app.js") == "/web" and route_of("/schema/openapi.json") == "/schema"
    assert {route_of(p) for p in ("/wp-admin/setup.php", "/.env", "/games/a/b/c/d/e/f")} == {"other"}
