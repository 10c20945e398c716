"""Attacks on the merged features where they meet, as a player who wants to win unfairly.

Each test is an attack against the real app over HTTP (a real uvicorn process or litestar's TestClient on a
real SQLite file, a real Redis where the app uses one). A test that passes because the attack fails is a
regression test; where an attack succeeded, the product was fixed and the test stays.

Attacks here (fixed where they succeeded: the feed, the undo request, the metrics labels, the limits):

- the pushed feed (one read per commit, fanned out) shows each feed only what its own seat may see: toy
  cards, Hoth hands and the Emperor's order deck, through the catch-up and through the hub; a finished
  game's feeds end;
- a feed opened with a token that is then rotated gets no new private event and closes (was: it went on
  getting the seat's secrets); a dead token or an invitation opens no feed;
- an undo request made with a token that is then rotated lapses (was: the opponent could still accept it
  into an agreed re-roll the seat's new holder never agreed to), in a game and in a campaign's battle;
- redecide (and ``by_choice``), past states and the verifier of a running game answer nothing hidden;
- labels and warnings of legal commands (DESIGN 12): Smoke's secret columns, the Emperor's face-down order
  cards, Hoth cards of another hand or a deck;
- /metrics names no game and no token and made-up paths add no series (was: a path segment became a label);
- claims and rotations spend the commands budget (was: unlimited);
- a campaign side's kept support hand (was: readable in the next battle's public header; now sealed,
  UMPIRE-SEAL-1..3).
"""
from __future__ import annotations

import json
import re
import threading
import time

import httpx
import pytest

from tests.service.api_client import SEED, Server, sse_blocks


def _parse(text: str) -> list[dict]:
    return [{"id": f.get("id"), "event": f.get("event"), "data": json.loads(f["data"])}
            for f in sse_blocks(text) if "data" in f]


class Feed:
    """One open ``GET /games/{id}/feed`` in a thread: what it got, and whether the server closed it."""

    def __init__(self, url: str, gid: str, token: str | None, after: int, idle: float = 4.0):
        self.text = ""
        self.closed_by_server = False
        self.opened = threading.Event()
        self._idle = idle
        self._th = threading.Thread(target=self._run, args=(url, gid, token, after), daemon=True)
        self._th.start()
        assert self.opened.wait(30), "the feed did not open"

    def _run(self, url: str, gid: str, token: str | None, after: int) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        with httpx.Client(base_url=url, timeout=httpx.Timeout(30.0, read=self._idle)) as c:
            try:
                with c.stream("GET", f"/games/{gid}/feed", params={"after": after}, headers=headers) as r:
                    assert r.status_code == 200, r.read()
                    self.opened.set()
                    for chunk in r.iter_text():
                        self.text += chunk
                    self.closed_by_server = True
            except httpx.ReadTimeout:  # idle for ``idle`` seconds: the feed stayed open
                pass
            finally:
                self.opened.set()

    def join(self) -> list[dict]:
        self._th.join(60)
        assert not self._th.is_alive()
        return _parse(self.text)


def _send(c: httpx.Client, gid: str, token: str, command: dict) -> dict:
    v = c.get(f"/games/{gid}").json()["version"]
    r = c.post(f"/games/{gid}/commands", json={"command": command, "expected_version": v},
               headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201, r.text
    return r.json()


def _drawn_cards(msgs: list[dict]) -> list[str | None]:
    return [m["data"]["payload"].get("card") for m in msgs
            if m["event"] == "event" and m["data"]["type"] == "card_drawn"]


# -- the fan-out: each feed renders for its own seat --------------------------------------------------------
def test_one_read_fanned_out_to_three_feeds_still_shows_each_only_its_own_secrets(server):
    with httpx.Client(base_url=server.url, timeout=30) as c:
        g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
        gid, t, v = g["game_id"], g["seats"], g["version"]
        feeds = {who: Feed(server.url, gid, t.get(who), v) for who in ("north", "south", "spectator")}
        time.sleep(0.3)
        _send(c, gid, t["north"], {"type": "draw"})  # private to north (TOY-DRAW-1)
        _send(c, gid, t["north"], {"type": "end_turn"})
        _send(c, gid, t["south"], {"type": "draw"})  # private to south
    got = {who: f.join() for who, f in feeds.items()}
    for who, msgs in got.items():
        assert [m["data"]["type"] for m in msgs] == ["card_drawn", "turn_ended", "card_drawn"], who
    north, south = _drawn_cards(got["north"]), _drawn_cards(got["south"])
    assert north[0].startswith("N") and north[1] is None
    assert south[0] is None and south[1].startswith("S")
    assert _drawn_cards(got["spectator"]) == [None, None]
    # neither the summary nor the `by` of a redacted entry names the card
    for who, msgs in got.items():
        for m in msgs:
            if m["data"]["payload"].get("redacted"):
                words = json.dumps([m["data"].get("summary"), m["data"].get("by")])
                for card in (*north, *south):
                    if card:
                        assert card not in words, (who, words)


# -- a rotated-out token's open feed ------------------------------------------------------------------------
def test_a_feed_opened_with_a_token_that_is_then_rotated_gets_no_new_private_event(server):
    """UMPIRE-SEAT-4: after a rotation the old token no longer acts; whoever still holds it (the creator who
    handed the seat over, a leaked link with ?token=) must not go on reading the seat's secrets through a feed
    it opened before the rotation."""
    with httpx.Client(base_url=server.url, timeout=30) as c:
        g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
        gid, t, v = g["game_id"], g["seats"], g["version"]
        _send(c, gid, t["north"], {"type": "end_turn"})
        v += 1
        old = Feed(server.url, gid, t["south"], v)  # the creator keeps south's first token and listens
        time.sleep(0.3)
        r = c.post(f"/games/{gid}/seats/south/rotate", headers={"Authorization": f"Bearer {t['south']}"})
        assert r.status_code == 201, r.text
        new = r.json()["token"]
        _send(c, gid, new, {"type": "draw"})  # the real holder of south draws: private to south
        # the holder's own new feed sees its card
        own = c.get(f"/games/{gid}/events", params={"after": v}, headers={"Authorization": f"Bearer {new}"}).json()
        drawn = [e["payload"]["card"] for e in own["events"] if e["type"] == "card_drawn"]
        assert drawn and drawn[0].startswith("S")
    msgs = old.join()
    assert drawn[0] not in old.text
    assert all(card is None for card in _drawn_cards(msgs)), msgs
    # and the dead token's feed does not stay open to follow the seat's next secrets
    assert old.closed_by_server, "the rotated-out token's feed stayed open"


def test_a_dead_token_cannot_open_a_feed(server):
    with httpx.Client(base_url=server.url, timeout=30) as c:
        g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
        gid, t = g["game_id"], g["seats"]
        assert c.post(f"/games/{gid}/seats/south/rotate",
                      headers={"Authorization": f"Bearer {t['south']}"}).status_code == 201
        for kw in ({"headers": {"Authorization": f"Bearer {t['south']}"}}, {"params": {"token": t["south"]}}):
            r = c.get(f"/games/{gid}/feed", **kw)
            assert r.status_code == 401, r.text


# -- /metrics -----------------------------------------------------------------------------------------------
def test_metrics_name_no_game_no_token_and_paths_a_client_makes_up_do_not_grow_the_labels(server):
    """/metrics is for operators and may be scraped by anyone who reaches it: no game id, no seat token, no
    invitation in any label, whatever path a client sends (a token pasted where a seat's name goes, a
    made-up segment after a game's id); and made-up segments do not each add a new series."""
    with httpx.Client(base_url=server.url, timeout=30) as c:
        g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED, "seating": "invitations",
                                   "keep": ["north"]}).json()
        gid, north, code = g["game_id"], g["seats"]["north"], g["invitations"]["south"]
        secrets_ = [gid, north, code]
        c.post(f"/games/{gid}/seats/{code}/claim", json={"invitation": code})  # the invitation as a seat name
        c.post(f"/games/{gid}/seats/{north}/rotate", headers={"Authorization": f"Bearer {north}"})  # a token as seat
        c.get(f"/games/{gid}/{north}")
        c.get(f"/games/{gid}/events/{north}/ruling")
        c.get(f"/campaigns/{gid}/seats/{code}/claim")
        c.get(f"/rulesets/toy/rules/{code}")
        c.get(f"/games/{gid}/feed", params={"token": north, "limit": 1})
        # a token as a command's type, a rule's id or an undo's target: refused, and named in no label
        statuses = []
        for body in ({"command": {"type": north}, "expected_version": 1}, {"command": {"type": "step", north: 1}},
                     {"command": {"type": "undo", "to_version": code}}):
            statuses.append(c.post(f"/games/{gid}/commands", json=body,
                                   headers={"Authorization": f"Bearer {north}"}).status_code)
        statuses.append(c.post(f"/games/{gid}/commands", params={"dry_run": "true"}, json={"command": {"type": code}},
                               headers={"Authorization": f"Bearer {north}"}).status_code)
        assert 401 not in statuses and all(400 <= s < 500 for s in statuses), statuses  # refused past the token
        before = c.get("/metrics").text
        for i in range(20):  # a scanner's made-up paths under a known prefix
            c.get(f"/games/{gid}/seats/scan{i}x/claim")
            c.post(f"/games/{gid}/seats/scan{i}x/rotate")
            c.get(f"/games/{gid}/scan{i}x")
            c.get(f"/rulesets/toy/scan{i}x")
        after = c.get("/metrics").text
    for s in secrets_:
        assert s not in after, s
    assert "scan" not in after
    routes = lambda text: set(re.findall(r'route="([^"]*)"', text))
    made_up = routes(after) - routes(before) - {"other", "/metrics"}
    # the 80 made-up paths add at most the two seat routes they look like, never one series each
    assert made_up <= {"/games/{id}/seats/{seat}/claim", "/games/{id}/seats/{seat}/rotate"}, made_up
    assert all("{" in r or r.count("/") <= 1 for r in routes(after)), routes(after)


def test_every_route_of_the_app_has_its_own_metrics_label(tmp_path):
    """The labels are a closed list (service.metrics._ROUTES): a route added later must be listed there, or
    its requests would all count as ``other``."""
    from service.app import create_app
    from service.metrics import route_of
    from service.settings import Settings

    app = create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)
    sample = {"seq": "12", "rel": "js/app.js", "file_path": "x.css"}
    for path in {r.path for r in app.routes}:
        concrete = re.sub(r"\{([^}:]+)[^}]*\}", lambda m: sample.get(m.group(1), "some-id"), path)
        assert route_of(concrete) != "other", path


# -- a campaign's kept support hand (UMPIRE-SEAL-1..3: sealed, see tests/fairness/test_sealed_setup.py) ------
def test_the_other_side_cannot_read_a_campaign_sides_kept_support_hand(tmp_path):
    """The campaign shows each side only its own carried cards (``carried``: own only; content 3.1 keeps the
    unplayed support cards in a hand from battle to battle). Attack: the loser of battle 1 reads the
    winner's hand for battle 2 from battle 2's header and from battle 1's log."""
    import random

    from litestar.testing import TestClient

    from service.app import create_app
    from service.settings import Settings
    from tests.service.test_campaigns import CAMPAIGN, play_to_the_end

    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        b = c.post("/campaigns", json={"ruleset": "hoth", "campaign": CAMPAIGN, "seed": "5a" * 32}).json()
        cid, tokens, first = b["campaign_id"], b["seats"], b["game_id"]
        winner = play_to_the_end(c, first, tokens, random.Random(3))
        loser = next(s for s in tokens if s != winner)
        own = c.get(f"/campaigns/{cid}", headers={"Authorization": f"Bearer {tokens[winner]}"}).json()
        hand = own["carried"][winner]["support_hand"]
        assert hand, "the winner keeps support cards into battle 2"
        second = own["game_id"]
        from tests.fairness.test_sealed_setup import _scrub  # game_opened lists every support card: no clue

        seen = json.dumps([_scrub(c.get(f"/games/{gid}/events", params={"limit": 1000},
                                        headers={"Authorization": f"Bearer {tokens[loser]}"}).json())
                           for gid in (first, second)])
        assert not any(card in seen for card in hand), [card for card in hand if card in seen]


# -- the fan-out on the real rulesets: a feed shows a seat exactly what its own log listing shows -------------
@pytest.mark.parametrize(("ruleset", "steps"), [("hoth", 40), ("emperor", 6), ("emperor", 400)])
def test_each_feed_of_a_real_game_shows_exactly_what_its_seat_may_list(server, ruleset, steps):
    """Hidden hands (Hoth) and the order deck nobody sees (the Emperor): the hub reads each commit once for all
    feeds; each feed must equal ``GET /events`` for its own seat (which the adversarial battery vets), never
    another seat's rendering."""
    import random

    rng = random.Random(11)
    with httpx.Client(base_url=server.url, timeout=60) as c:
        rs = next(r for r in c.get("/rulesets").json() if r["id"] == ruleset)
        scenario = rs["scenarios"][0]["id"]
        g = c.post("/games", json={"ruleset": ruleset, "scenario": scenario, "seed": SEED})
        assert g.status_code == 201, g.text
        g = g.json()
        gid, tokens = g["game_id"], g["seats"]
        watchers = {**{s: t for s, t in tokens.items()}, "spectator": None}
        # the opening through each feed's own catch-up, then the play through the hub
        feeds = {w: Feed(server.url, gid, t, 0, idle=6.0) for w, t in watchers.items()}
        time.sleep(0.3)
        for _ in range(steps):
            view = c.get(f"/games/{gid}").json()
            if view["status"] == "finished":
                break
            seat = rng.choice(view["to_act"])
            legal = c.get(f"/games/{gid}/legal-commands", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
            cmds = [x for x in legal["commands"] if x["type"] not in ("undo", "undo_accept", "undo_decline")]
            if not cmds:
                break
            r = c.post(f"/games/{gid}/commands", json={"command": rng.choice(cmds), "expected_version": legal["version"]},
                       headers={"Authorization": f"Bearer {tokens[seat]}"})
            assert r.status_code == 201, r.text
        listed = {w: c.get(f"/games/{gid}/events", params={"after": 0, "limit": 1000},
                           headers={"Authorization": f"Bearer {t}"} if t else {}).json()["events"]
                  for w, t in watchers.items()}
        finished = c.get(f"/games/{gid}").json()["status"] == "finished"
    msgs = {w: f.join() for w, f in feeds.items()}
    got = {w: [m["data"] for m in ms if m["event"] == "event"] for w, ms in msgs.items()}
    if finished:  # everything is public now; each feed got every event, then its end, and was closed
        for w, f in feeds.items():
            assert msgs[w][-1]["event"] == "end" and f.closed_by_server, w
            assert [e["seq"] for e in got[w]] == [e["seq"] for e in listed[w]], w
        return
    assert any(e["payload"].get("redacted") for e in listed["spectator"]), "the game hid nothing: no attack"
    strip = lambda es: [{k: e[k] for k in ("seq", "type", "payload", "summary", "by") if k in e} for e in es]
    for w in watchers:
        assert strip(got[w]) == strip(listed[w]), w


# -- redecide and past states of a game that runs -------------------------------------------------------------
@pytest.fixture
def toy(tmp_path):
    from litestar.testing import TestClient

    from service.app import create_app
    from service.settings import Settings
    from tests.service.toy_ruleset import register

    register()
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        yield c


def test_redecide_answers_nothing_while_the_game_runs_whoever_asks(toy):
    """DESIGN 6 and 14: re-deciding a step (and ``by_choice``, the step under other rule choices) uses the
    seed; while the game runs it must be refused for every step and every caller, or a seat would learn its
    next draw (decide a past roll again with the same counters) or another seat's hidden card."""
    c = toy
    g = c.post("/games", json={"ruleset": "toy", "scenario": "duel"}).json()
    gid, t = g["game_id"], g["seats"]
    for cmd in ({"type": "roll"}, {"type": "draw"}, {"type": "end_turn"}, {"type": "draw"}):
        seat = "north" if c.get(f"/games/{gid}").json()["to_act"] == ["north"] else "south"
        v = c.get(f"/games/{gid}").json()["version"]
        r = c.post(f"/games/{gid}/commands", json={"command": cmd, "expected_version": v},
                   headers={"Authorization": f"Bearer {t[seat]}"})
        assert r.status_code == 201, r.text
    version = c.get(f"/games/{gid}").json()["version"]
    hidden = [e["payload"]["card"] for e in c.get(f"/games/{gid}/events", params={"limit": 1000},
                                                  headers={"Authorization": f"Bearer {t['north']}"}).json()["events"]
              if e["type"] == "card_drawn" and "card" in e["payload"]]
    assert hidden
    # the verifier of a running game shows no seed and nothing hidden (it never trusts the row's status)
    v = c.get(f"/games/{gid}/verify")
    assert v.status_code == 200 and "seed" not in v.json() and not any(card in v.text for card in hidden)
    for who in (None, t["north"], t["south"]):
        headers = {"Authorization": f"Bearer {who}"} if who else {}
        for seq in range(1, version + 1):
            r = c.get(f"/games/{gid}/events/{seq}/redecide", headers=headers)
            assert r.status_code == 409 and r.headers["content-type"].startswith("application/problem+json"), r.text
            assert all(card not in r.text for card in hidden)
        # a past state as another seat sees it names none of north's cards
        if who != t["north"]:
            for seq in range(0, version + 1):
                r = c.get(f"/games/{gid}/states/{seq}", headers=headers)
                assert r.status_code == 200, r.text
                north_cards = [x for x in hidden if x.startswith("N")]
                assert not any(card in r.text for card in north_cards), (seq, r.text[:400])


# -- Smoke's secret column numbering through every read a seat has ------------------------------------------
def _column_shapes(columns: list[list[str]]) -> list[str]:
    """The ways a column of the secret numbering would be written in an answer (JSON, a list in words)."""
    out = []
    for col in columns:
        if len(col) >= 2:
            out += [json.dumps(col), json.dumps(col, separators=(",", ":")), ", ".join(col)]
    return out


def test_smoke_secret_columns_reach_the_other_seat_by_no_read(toy):
    """SMOKE-DEP-2/3: each seat numbers its columns in secret. Attack by the other seat while they are secret:
    its legal commands with their labels and templates (DESIGN 12), the timeline (summaries and ``by``),
    the game view, a past state, the board picture and the log listing."""
    import random

    import msgspec

    from domain.kernel import registry

    c, smoke = toy, registry.get("smoke")
    g = c.post("/games", json={"ruleset": "smoke", "scenario": "BTL-OPEN-FIELD", "seed": "3c" * 32})
    assert g.status_code == 201, g.text
    gid, tokens = g.json()["game_id"], g.json()["seats"]
    svc = c.app.state.games
    rng, checked = random.Random(5), 0
    for _ in range(80):
        cur = svc.current(gid)
        d = cur.state.deployment
        if d is not None:
            for owner, cols in d.columns.items():
                if not cols or owner in d.revealed:
                    continue
                shapes = _column_shapes([list(col) for col in cols])
                for other, tok in [*((s, t) for s, t in tokens.items() if s != owner), ("spectator", None)]:
                    h = {"Authorization": f"Bearer {tok}"} if tok else {}
                    texts = [c.get(f"/games/{gid}/legal-commands", headers=h).text if tok else "",
                             c.get(f"/games/{gid}/timeline", headers=h).text,
                             c.get(f"/games/{gid}").text if not tok else c.get(f"/games/{gid}", headers=h).text,
                             c.get(f"/games/{gid}/states/{cur.version}", headers=h).text,
                             c.get(f"/games/{gid}/board.svg", headers=h).text,
                             c.get(f"/games/{gid}/events", params={"limit": 1000}, headers=h).text]
                    for shape in shapes:
                        assert not any(shape in t for t in texts), (owner, other, shape)
                    checked += 1
                # the check can see a leak: the owner's own listing does show its columns
                own = c.get(f"/games/{gid}/events", params={"limit": 1000},
                            headers={"Authorization": f"Bearer {tokens[owner]}"}).text
                assert any(shape in own for shape in shapes)
        seat = cur.status.to_act[0]
        cmds = smoke.legal_commands(cur.state, seat)
        if not cmds or cur.status.status == "finished":
            break
        body = msgspec.to_builtins(cmds[0] if rng.random() < 0.8 else rng.choice(cmds))
        r = c.post(f"/games/{gid}/commands", json={"command": body, "expected_version": cur.version},
                   headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert r.status_code == 201, r.text
        if any(e["type"] == "columns_revealed" for e in r.json().get("events", [])):
            break
    assert checked >= 4, f"only {checked} reads with secret columns were attacked"


# -- rate limits on the seat routes ---------------------------------------------------------------------------
def test_claims_and_rotations_spend_the_commands_budget(tmp_path, redis_server, redis_client):
    """Claiming and rotating take the game's lock and write the log, like a command: a player who floods
    them (guessing invitations or tokens, or only holding the opponent's table up) must meet the same
    budget per address as commands."""
    env = {"UMPIRE_LIMIT_LOOPBACK": "1", "UMPIRE_LIMIT_COMMANDS_ADDRESS": "6/minute",
           "UMPIRE_LIMIT_OPEN_GAMES": "0"}
    srv = Server(str(tmp_path / "data"), redis_server.url, factory="service.cli:worker_app", env=env).wait()
    try:
        with httpx.Client(base_url=srv.url, timeout=30,
                          transport=httpx.HTTPTransport(local_address="127.0.0.5")) as c:
            g = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "seed": SEED,
                                       "seating": "invitations", "keep": ["imperial"]})
            assert g.status_code == 201, g.text
            gid = g.json()["game_id"]
            statuses = []
            for i in range(10):
                guess = f"guess{i:02d}" + "x" * 26
                if i % 2:
                    r = c.post(f"/games/{gid}/seats/rebel/claim", json={"invitation": guess})
                else:
                    r = c.post(f"/games/{gid}/seats/rebel/rotate", headers={"Authorization": f"Bearer {guess}"})
                statuses.append(r.status_code)
            assert 429 in statuses, statuses
            assert statuses[:6].count(429) == 0 and set(statuses[6:]) == {429}, statuses
    finally:
        srv.stop()


def test_an_invitation_is_no_token_for_a_feed_or_a_read(server):
    """UMPIRE-SEAT-2: an invitation only claims; before or after the claim it opens no feed as the seat and
    reads nothing as the seat."""
    with httpx.Client(base_url=server.url, timeout=30) as c:
        g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED, "seating": "invitations",
                                   "keep": ["north"]}).json()
        gid, code = g["game_id"], g["invitations"]["south"]
        for when in ("before", "after"):
            r = c.get(f"/games/{gid}/feed", params={"token": code, "limit": 1})
            assert r.status_code == 401, (when, r.text)
            r = c.get(f"/games/{gid}/events", headers={"Authorization": f"Bearer {code}"})
            assert r.status_code == 401, (when, r.text)
            if when == "before":
                assert c.post(f"/games/{gid}/seats/south/claim", json={"invitation": code}).status_code == 201


# -- an undo request made with a token that is then rotated ----------------------------------------------------
def test_a_request_made_with_a_rotated_out_token_cannot_be_accepted_after_the_rotation(toy):
    """Attack: the creator holds both tokens (``tokens`` seating), rolls badly as north, asks as south to undo
    back before the roll, hands south over (the new holder rotates: UMPIRE-SEAT-4), then accepts as north --
    an agreed re-roll that south's holder never agreed to. The rotation lapses the request (UMPIRE-UNDO-10)."""
    c = toy
    g = c.post("/games", json={"ruleset": "toy", "scenario": "duel"}).json()
    gid, t, v = g["game_id"], g["seats"], g["version"]
    auth = lambda tok: {"Authorization": f"Bearer {tok}"}
    assert c.post(f"/games/{gid}/commands", json={"command": {"type": "roll"}, "expected_version": v},
                  headers=auth(t["north"])).status_code == 201
    r = c.post(f"/games/{gid}/undo", json={"to_version": v}, headers=auth(t["south"]))
    assert r.status_code == 202, r.text  # waiting for north (the roll was a draw)
    rot = c.post(f"/games/{gid}/seats/south/rotate", headers=auth(t["south"]))
    assert rot.status_code == 201, rot.text
    assert c.get(f"/games/{gid}").json()["undo_request"] is None
    r = c.post(f"/games/{gid}/undo/accept", headers=auth(t["north"]),
               json={"expected_version": c.get(f"/games/{gid}").json()["version"]})
    assert r.status_code in (403, 409, 422), r.text
    events = c.get(f"/games/{gid}/events", params={"limit": 1000}).json()["events"]
    assert not any(e["type"] == "undone" for e in events)
    lapsed = [e for e in events if e["type"] == "undo_lapsed"]
    assert lapsed and lapsed[0]["seq"] < next(e["seq"] for e in events if e["type"] == "seat_rotated")
    ruling = c.get(f"/games/{gid}/events/{lapsed[0]['seq']}/ruling").json()["ruling"]
    assert {s["rule"] for s in ruling["steps"]} >= {"UMPIRE-UNDO-10"} and "UMPIRE-SEAT-4" in ruling["steps"][0]["text"]
    # the new holder may ask again, and it takes north's consent as before
    r = c.post(f"/games/{gid}/undo", json={"to_version": v}, headers=auth(rot.json()["token"]))
    assert r.status_code == 202, r.text


def test_a_campaign_rotation_lapses_the_seats_waiting_undo_request_in_its_battle(tmp_path):
    """The same attack in a campaign's battle: the seat's token is the campaign's (POST /campaigns/{id}/seats/
    {seat}/rotate), and the battle being played records the rotation and the lapse."""
    import random

    from litestar.testing import TestClient

    from service.app import create_app
    from service.settings import Settings
    from tests.service.test_campaigns import CAMPAIGN

    rng = random.Random(2)
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        b = c.post("/campaigns", json={"ruleset": "hoth", "campaign": CAMPAIGN, "seed": "5a" * 32}).json()
        cid, t, gid = b["campaign_id"], b["seats"], b["game_id"]
        auth = lambda tok: {"Authorization": f"Bearer {tok}"}
        asker = None
        for _ in range(200):
            view = c.get(f"/games/{gid}").json()
            seat = view["to_act"][0]
            other = next(s for s in t if s != seat)
            start = view["version"]
            legal = c.get(f"/games/{gid}/legal-commands", headers=auth(t[seat])).json()
            cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
            r = c.post(f"/games/{gid}/commands", json={"command": rng.choice(cmds), "expected_version": legal["version"]},
                       headers=auth(t[seat]))
            assert r.status_code == 201, r.text
            if any(e["type"] in ("cards_drawn", "attack_rolled") for e in r.json()["events"]):
                r = c.post(f"/games/{gid}/undo", json={"to_version": start}, headers=auth(t[other]))
                if r.status_code == 202:
                    asker = other
                    break
        assert asker is not None, "no waiting undo request was made"
        rot = c.post(f"/campaigns/{cid}/seats/{asker}/rotate", headers=auth(t[asker]))
        assert rot.status_code == 201, rot.text
        assert c.get(f"/games/{gid}").json()["undo_request"] is None
        owner = next(s for s in t if s != asker)
        r = c.post(f"/games/{gid}/undo/accept", headers=auth(t[owner]),
                   json={"expected_version": c.get(f"/games/{gid}").json()["version"]})
        assert r.status_code in (403, 409, 422), r.text
        types = [e["type"] for e in c.get(f"/games/{gid}/events", params={"limit": 1000}).json()["events"]]
        assert "undone" not in types and types[-2:] == ["undo_lapsed", "seat_rotated"], types[-4:]


# -- Hoth: a label naming a card in another hand or in a deck -------------------------------------------------
def test_hoth_labels_name_no_card_of_another_hand_or_a_deck(toy):
    """HOTH cards: a seat sees its own hand only. Its legal commands' labels (DESIGN 12: ``Play <title> (<id>):
    <text>``) must name no card that is in the other hand or face down in a deck, beyond what the public log
    and view name (played and discarded cards)."""
    import random

    c, rng = toy, random.Random(8)
    svc = c.app.state.games
    g = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD"}).json()
    gid, tokens = g["game_id"], g["seats"]
    word = re.compile(r"PROP-[A-Z0-9-]*[A-Z0-9]")
    checked = seen_own = 0
    for _ in range(120):
        cur = svc.current(gid)
        if cur.finished:
            break
        public = set(word.findall(c.get(f"/games/{gid}").text
                                  + c.get(f"/games/{gid}/events", params={"limit": 1000}).text))
        for seat, tok in tokens.items():
            own = set(cur.state.hands.get(seat, ()))
            secret = {x for s, hand in cur.state.hands.items() if s != seat for x in hand}
            secret |= {x for deck in cur.state.decks.values() for x in deck}
            secret -= own | public
            text = c.get(f"/games/{gid}/legal-commands", headers={"Authorization": f"Bearer {tok}"}).text
            assert not (set(word.findall(text)) & secret), (seat, set(word.findall(text)) & secret)
            checked += 1
            seen_own += bool(set(word.findall(text)) & own)  # the check reads card ids in labels
        seat = cur.status.to_act[0]
        legal = c.get(f"/games/{gid}/legal-commands", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        r = c.post(f"/games/{gid}/commands", json={"command": rng.choice(cmds), "expected_version": legal["version"]},
                   headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert r.status_code == 201, r.text
    assert checked >= 40 and seen_own, (checked, seen_own)


def test_a_feed_that_skips_ahead_past_the_rotation_still_stops(server):
    """The same attack with ``?after=`` one past the current version: the feed would never read the
    ``seat_rotated`` event itself (it skips that seq) and went on as the seat."""
    with httpx.Client(base_url=server.url, timeout=30) as c:
        g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
        gid, t = g["game_id"], g["seats"]
        _send(c, gid, t["north"], {"type": "end_turn"})
        v = c.get(f"/games/{gid}").json()["version"]
        old = Feed(server.url, gid, t["south"], v + 1)  # the rotation will be seq v + 1
        time.sleep(0.3)
        r = c.post(f"/games/{gid}/seats/south/rotate", headers={"Authorization": f"Bearer {t['south']}"})
        assert r.status_code == 201 and r.json()["version"] == v + 1, r.text
        _send(c, gid, r.json()["token"], {"type": "draw"})
        card = [e["payload"]["card"] for e in c.get(f"/games/{gid}/events", params={"after": v},
                                                       headers={"Authorization": f"Bearer {r.json()['token']}"}
                                                       ).json()["events"] if e["type"] == "card_drawn"][0]
    old.join()
    assert card not in old.text, old.text
    assert old.closed_by_server
