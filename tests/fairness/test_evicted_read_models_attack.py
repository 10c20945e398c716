"""A finished game's read models leave Redis (``UMPIRE_FINISHED_TTL``, projections/read_models.py); every read of
it is then answered from the log. Attack: the other side of a Battle of Hoth campaign waits for a finished
battle's models to go and reads the battle again by every route (the feed from the start, the log, the view, past
states, the timeline, rulings, the board), hoping that the log's answer of a *finished* game says more
than the read models did -- here the winner's kept support hand, which stays sealed while the campaign goes on
(UMPIRE-SEAL-3; the kept cards are dealt in the next battle, which is being played).

What must hold: before and after the models expire, no read of the loser or of a spectator names a sealed card;
every route answers the same before and after (the log says no more than Redis did); the winner's own reads name
its hand (the check can see a card). Real app (litestar's TestClient) on a real SQLite file and a real Redis,
projecting in its own thread as one worker of ``umpire serve`` does. The product sets the models' expiry; the test
then brings it forward (each key's own expiry set to 1 ms) rather than wait for it.
"""
from __future__ import annotations

import json
import time
from types import SimpleNamespace

from litestar.testing import TestClient

from projections.keys import GameKeys
from service.app import create_app
from service.settings import Settings
from tests.service.test_campaigns import play_to_the_end

from .test_campaign_token_after_rotation import CAMPAIGN, _KeepsSupport
from .test_sealed_setup import _auth, _scrub

#: Seconds a finished game's models stay: long enough for the reads made while they are there; then the test
#: brings their end forward (each key's own expiry set to 1 ms) instead of waiting.
TTL = 600
#: How long the test waits at most for Redis to hold a finished game's models, then to drop them.
PATIENCE = 120


def _reads(c: TestClient, gid: str, tok: str | None) -> dict[str, str]:
    """The reads the read models answer while they are there (the view, the timeline, past states, the board)
    and the log's own (events, the feed, rulings), of a finished battle."""
    h = _auth(tok)
    events = c.get(f"/games/{gid}/events", params={"limit": 1000}, headers=h).json()["events"]
    version = events[-1]["seq"]
    dealt = [e["seq"] for e in events if e["type"] == "support_dealt"]
    out = {"events": json.dumps(_scrub(events)),
           "view": json.dumps(_scrub(c.get(f"/games/{gid}", headers=h).json())),
           "timeline": c.get(f"/games/{gid}/timeline", headers=h).text,
           "board": c.get(f"/games/{gid}/board.svg", headers=h).text,
           "feed": json.dumps(_scrub([json.loads(line[5:]) for line in c.get(
               f"/games/{gid}/feed", params={"after": 0, "limit": 1000}, headers=h).text.splitlines()
               if line.startswith("data:")]))}
    for seq in sorted({*dealt, *(d + 1 for d in dealt), version // 2, version - 1, version}):
        out[f"state {seq}"] = json.dumps(_scrub(c.get(f"/games/{gid}/states/{seq}", headers=h).json()))
        out[f"ruling {seq}"] = c.get(f"/games/{gid}/events/{seq}/ruling", headers=h).text
        out[f"board {seq}"] = c.get(f"/games/{gid}/board.svg", params={"at": seq}, headers=h).text
    return out


def _wait(what: str, done) -> None:
    deadline = time.monotonic() + PATIENCE
    while not done():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.1)


def test_a_finished_battles_reads_from_the_log_after_its_models_expired_keep_the_kept_hand_sealed(
        tmp_path, monkeypatch, redis_url, redis_client):
    monkeypatch.setenv("UMPIRE_FINISHED_TTL", str(TTL))
    # the set-up of tests/fairness/test_campaign_token_after_rotation.py: "Assault on Echo Base" with fixed ids; the
    # winner of battle 1 keeps a support card, neither side plays one in battle 2, so it is still held in battle 3
    ids = iter(f"c1-battle-{n}" for n in range(1, 10))
    monkeypatch.setattr("service.game_service.new_game_id", lambda: next(ids))  # the dice depend on it
    monkeypatch.setattr("service.campaigns.uuid", SimpleNamespace(uuid4=lambda: SimpleNamespace(hex="a3" * 16)))
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data"), redis_url=redis_url))) as c:
        b = c.post("/campaigns", json={"ruleset": "hoth", "campaign": CAMPAIGN, "seed": "5a" * 32}).json()
        cid, tokens, first = b["campaign_id"], b["seats"], b["game_id"]
        winner = play_to_the_end(c, first, tokens, _KeepsSupport(3))
        loser = next(s for s in tokens if s != winner)
        own = c.get(f"/campaigns/{cid}", headers=_auth(tokens[winner])).json()
        hand, second = own["carried"][winner]["support_hand"], own["game_id"]
        assert hand, "the winner keeps support cards into battle 2"
        play_to_the_end(c, second, tokens, _KeepsSupport(4))
        now = c.get(f"/campaigns/{cid}", headers=_auth(tokens[winner])).json()
        assert now["status"] == "active" and now["game_id"] not in (first, second), "battle 3 runs"
        sealed = [card for card in hand if card in now["carried"][winner]["support_hand"]]
        assert sealed, "the kept card was played: nothing stays sealed to attack"

        keys = GameKeys(second)
        _wait("battle 2's models projected as finished",
              lambda: (redis_client.hget(keys.meta, "status") or b"").decode() == "finished")
        assert redis_client.ttl(keys.meta) > 0, "a finished game's models are kept for a time only"
        assert all(redis_client.pttl(k) > 0 for k in redis_client.keys(keys.pattern())), \
            "every model of a finished game is kept for a time only"
        readers = ((loser, tokens[loser]), ("spectator", None))
        before = {who: _reads(c, second, tok) for who, tok in readers}
        assert redis_client.exists(keys.meta, keys.view(loser), keys.timeline) == 3, "the first reads had the models"
        for k in redis_client.keys(keys.pattern()):  # the configured time passes
            redis_client.pexpire(k, 1)
        _wait("battle 2's models expired", lambda: not redis_client.keys(keys.pattern()))
        after = {who: _reads(c, second, tok) for who, tok in readers}
        for who in before:
            for when, texts in (("before", before[who]), ("after", after[who])):
                for route, text in texts.items():
                    leaked = [card for card in sealed if card in text]
                    assert not leaked, (when, who, route, leaked)
            changed = sorted(r for r in set(before[who]) | set(after[who]) if before[who].get(r) != after[who].get(r))
            assert not changed, (who, changed)
        # the check can see a card: the winner's own reads of the battle (from the log now) name its hand
        mine = _reads(c, second, tokens[winner])
        assert all(card in mine["events"] and card in mine["view"] for card in sealed)
