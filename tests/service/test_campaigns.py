"""Campaigns over REST: POST /campaigns, GET /campaigns/{id}, battles created one after another.

The real app on a real SQLite file and on a real PostgreSQL (answers from the log, no read models). The battles are
played by a seeded random bot that only sends legal commands; one command goes over HTTP with
the campaign's seat token, the rest through the same command path in-process (GameService.command)
to keep the test fast.
"""
from __future__ import annotations

import random

import pytest

from domain.kernel import commitment, registry
from service.game_service import CommandRequest
from service.campaigns import battle_seed

from .api_client import assert_problem
from .api_client import both_stores as client  # noqa: F401  (the app on SQLite and on PostgreSQL)

SEED = "5a" * 32
CAMPAIGN = "CMP-2-OUTPOST-DELTA"
#: content 5.5: leaders each battle gets from the outcome before it (CMP-2).
LEADERS_AFTER = {("C2-1", "imperial"): {"imperial": "piett"}, ("C2-1", "rebel"): {"rebel": "han"},
                 ("C2-2", "imperial"): {"imperial": "vader"}}
NEXT = {("C2-1", "imperial"): "C2-3", ("C2-1", "rebel"): "C2-2", ("C2-2", "imperial"): "C2-3"}


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def play_to_the_end(client, game_id, tokens, rng):
    svc = client.app.state.games
    rs = registry.get("hoth")
    # One command over HTTP with the campaign's token: the same tokens act in every battle.
    cur = svc.current(game_id)
    seat = rs.status(cur.state).to_act[0]
    legal = client.get(f"/games/{game_id}/legal-commands", headers=auth(tokens[seat]))
    assert legal.status_code == 200, legal.text
    assert legal.json()["seat"] == seat
    r = client.post(f"/games/{game_id}/commands", headers=auth(tokens[seat]),
                    json={"command": rng.choice(legal.json()["commands"]), "expected_version": legal.json()["version"]})
    assert r.status_code == 201, r.text
    for _ in range(20_000):
        cur = svc.current(game_id)
        st = rs.status(cur.state)
        if st.status == "finished":
            return st.winner
        seat = rng.choice(st.to_act)
        cmds = rs.legal_commands(cur.state, seat)
        import msgspec
        raw = msgspec.to_builtins(rng.choice(cmds))
        ans = svc.command(game_id, tokens[seat], CommandRequest(command=raw, expected_version=cur.version))
        assert ans.status == 201, ans.body
    pytest.fail(f"battle {game_id} did not end")


def test_campaign_over_rest_creates_each_battle_when_the_last_one_ends(client):
    r = client.post("/campaigns", json={"ruleset": "hoth", "campaign": CAMPAIGN, "seed": SEED})
    assert r.status_code == 201, r.text
    body = r.json()
    cid, tokens, game_id = body["campaign_id"], body["seats"], body["game_id"]
    assert set(tokens) == {"imperial", "rebel"} and game_id
    # The first battle is a game of the campaign's starting scenario.
    g = client.get(f"/games/{game_id}", headers=auth(tokens["rebel"])).json()
    assert g["scenario"] == "PROP-SCN-OUTPOST-DELTA"
    rng = random.Random(3)
    seen_games = [game_id]
    node = "C2-1"
    for battle in range(1, 4):
        views = {s: client.get(f"/campaigns/{cid}", headers=auth(t)).json() for s, t in tokens.items()}
        spectator = client.get(f"/campaigns/{cid}").json()
        imp, reb = views["imperial"], views["rebel"]
        assert imp["status"] == "active" and imp["game_id"] == seen_games[-1] and imp["node"] == node
        assert "seed" not in imp and "seed" not in spectator
        assert len(imp["battles"]) == battle and imp["battles"][-1]["winner"] is None
        # Carried cards: own only.
        assert set(imp["carried"]) == {"imperial"} and set(reb["carried"]) == {"rebel"}
        assert spectator["carried"] == {}
        # The support cards each side keeps come into the battle (content 3.1).
        battle_state = client.app.state.games.current(seen_games[-1]).state
        for side, view in views.items():
            assert list(battle_state.support.get(side, ())) == view["carried"][side]["support_hand"]
        winner = play_to_the_end(client, seen_games[-1], tokens, rng)
        end_state = client.app.state.games.current(seen_games[-1]).state
        after = client.get(f"/campaigns/{cid}", headers=auth(tokens[winner])).json()
        assert after["battles"][battle - 1]["winner"] == winner
        nxt = NEXT.get((node, winner))
        # Cards played in the battle are gone; the rest are kept; the winner of a battle that leads on
        # draws 1 more (content 5.5).
        kept = list(end_state.support.get(winner, ()))
        assert after["carried"][winner]["support_hand"][:len(kept)] == kept
        assert after["support_hand_sizes"][winner] == len(kept) + (1 if nxt else 0)
        if nxt is None:
            assert after["status"] == "finished" and after["winner"] == winner and after["game_id"] is None
            # Once the campaign is over everything is public.
            assert set(client.get(f"/campaigns/{cid}").json()["carried"]) == {"imperial", "rebel"}
            break
        # The next battle was created when this one ended, with the leaders the outcome gives.
        assert after["status"] == "active" and after["game_id"] not in seen_games
        assert after["node"] == nxt
        assert after["battles"][-1]["leaders"] == LEADERS_AFTER[(node, winner)]
        leader = LEADERS_AFTER[(node, winner)].get(winner)
        if leader:
            assert after["carried"][winner]["leader"] == leader
            cards = after["carried"][winner]["leader_cards"]
            assert len(cards) == 3
            # The engine shuffled exactly those 3 leader cards into the winner's deck for this battle.
            st = client.app.state.games.current(after["game_id"]).state
            own = set(st.decks[winner]) | set(st.hands[winner])
            assert set(cards) <= own and len(own) == 16 + 3
        seen_games.append(after["game_id"])
        node = nxt
    else:
        pytest.fail("the campaign did not end within 3 battles")
    # Every battle is a game of this campaign.
    store = client.app.state.games.store
    assert [store.game(gid).campaign_id for gid in seen_games] == [cid] * len(seen_games)
    # The campaign seed is revealed at the end; each battle's seed is derived from it (verifiable).
    final = client.get(f"/campaigns/{cid}").json()
    assert final["seed"] == SEED and final["seed_commitment"] == commitment(bytes.fromhex(SEED))
    for n, gid in enumerate(seen_games, start=1):
        assert store.game(gid).seed_commitment == commitment(bytes.fromhex(battle_seed(bytes.fromhex(SEED), cid, n)))


def test_campaign_errors(client):
    assert_problem(client.post("/campaigns", json={"ruleset": "hoth", "campaign": "CMP-9"}), 422, field="campaign")
    assert_problem(client.post("/campaigns", json={"ruleset": "chess", "campaign": CAMPAIGN}), 422, field="ruleset")
    assert_problem(client.post("/campaigns", json={"ruleset": "hoth", "campaign": CAMPAIGN, "seed": "xy"}), 400,
                   field="seed")
    assert_problem(client.get("/campaigns/nope"), 404)
    r = client.post("/campaigns", json={"ruleset": "hoth", "campaign": CAMPAIGN, "seed": SEED}).json()
    assert_problem(client.get(f"/campaigns/{r['campaign_id']}", headers=auth("not-a-token")), 401)
    # A campaign token is a seat of its own campaign's battles only.
    other = client.post("/campaigns", json={"ruleset": "hoth", "campaign": CAMPAIGN, "seed": SEED}).json()
    assert_problem(client.get(f"/games/{other['game_id']}/legal-commands",
                              headers=auth(r["seats"]["imperial"])), 401)
    assert_problem(client.get(f"/campaigns/{other['campaign_id']}", headers=auth(r["seats"]["rebel"])), 401)


def test_campaign_tokens_act_only_in_the_battles_the_campaign_recorded(client):
    r = client.post("/campaigns", json={"ruleset": "hoth", "campaign": CAMPAIGN, "seed": SEED}).json()
    token = r["seats"]["imperial"]
    assert client.get(f"/games/{r['game_id']}/legal-commands", headers=auth(token)).status_code == 200
    # A game that names the campaign but was never recorded as its battle (e.g. orphaned by a lost race).
    from service.game_service import CreateGameRequest

    stray = client.app.state.games.create_game(
        CreateGameRequest(ruleset="hoth", scenario="PROP-SCN-OUTPOST-DELTA", seed=SEED), campaign_id=r["campaign_id"])
    assert_problem(client.get(f"/games/{stray['game_id']}/legal-commands", headers=auth(token)), 401)
