"""Attacks on a campaign's secrets as they cross battles: the sealed support hand a side keeps (UMPIRE-SEAL-1..3),
the secret objectives (content 3.1 rule 5), and the seat tokens that act in every battle (DESIGN 8).

The campaign is "Assault on Echo Base" (three battles, always): the winner of battle 1 draws a support card and
keeps it sealed into battle 2; in battle 2 neither side plays a support card, so it keeps it into battle 3. While battle 3 runs, the finished battle 2's log holds that card in its sealed ``support_dealt``.

Found and fixed (service/game_reading.py): a campaign seat's token, rotated out while battle 3 ran, still read
the finished battles as the seat on the process that had looked it up there before (UMPIRE-SEAT-4: "the old one
no longer acts, on any node"). The rotation is recorded in the battle being played, which is how every process
learns of it; a finished battle records nothing, and its remembered seat stood for ever. The old holder (the
creator who held both tokens in ``tokens`` seating, or whoever the leaked token reached) thus read battle 2's
sealed deal: the card the seat's new holder still holds in battle 3.

Real app (litestar's TestClient) on a real SQLite file; fixed battle ids and seed, so the same dice every run.
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.fairness.test_sealed_setup import _scrub
from tests.service.test_campaigns import play_to_the_end

CAMPAIGN = "CMP-1-ASSAULT-ON-ECHO-BASE"
LANGS = ("en", "uk", "cs", "ru", "it")


def _auth(tok: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {tok}"} if tok else {}


class _KeepsSupport(random.Random):
    """Never plays a support card when anything else is legal: the kept hand survives the battle."""

    def choice(self, seq):
        other = [c for c in seq if type(c).__name__ != "PlaySupport"
                 and not (isinstance(c, dict) and c.get("type") == "play_support")]
        return super().choice(other or seq)


class Campaign:
    def __init__(self, c: TestClient, cid: str, tokens: dict[str, str], battles: list[str]):
        self.c, self.cid, self.tokens, self.battles = c, cid, tokens, battles
        #: the winner of battle 1: it keeps a support card into battle 2 (content 3.1: the outcome draws one)
        self.keeper = ""

    def view(self, tok: str | None) -> dict:
        r = self.c.get(f"/campaigns/{self.cid}", headers=_auth(tok))
        assert r.status_code == 200, r.text
        return r.json()


@pytest.fixture
def campaign(tmp_path, monkeypatch) -> Iterator[Campaign]:
    """Battle 1 played (its winner keeps a support card, sealed, into battle 2, which runs)."""
    ids = iter(f"c1-battle-{n}" for n in range(1, 10))
    monkeypatch.setattr("service.game_service.new_game_id", lambda: next(ids))  # the dice depend on it
    # and on the campaign's id (each battle's seed is derived from it): fixed, so every run plays the same games
    monkeypatch.setattr("service.campaigns.uuid", SimpleNamespace(uuid4=lambda: SimpleNamespace(hex="a3" * 16)))
    with TestClient(create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)) as c:
        b = c.post("/campaigns", json={"ruleset": "hoth", "campaign": CAMPAIGN, "seed": "5a" * 32}).json()
        camp = Campaign(c, b["campaign_id"], b["seats"], [b["game_id"]])
        camp.keeper = play_to_the_end(c, b["game_id"], camp.tokens, _KeepsSupport(3))
        camp.battles.append(camp.view(None)["game_id"])
        yield camp


def _finish_battle_two(camp: Campaign) -> list[str]:
    """Battle 2 played without a support card: the keeper's hand (still sealed) goes on into battle 3."""
    k = camp.keeper
    kept = camp.view(camp.tokens[k])["carried"][k]["support_hand"]
    assert kept
    play_to_the_end(camp.c, camp.battles[1], camp.tokens, _KeepsSupport(4))
    now = camp.view(camp.tokens[k])
    assert now["status"] == "active" and now["game_id"] not in camp.battles, "battle 3 runs"
    camp.battles.append(now["game_id"])
    held = now["carried"][k]["support_hand"]
    still = [card for card in kept if card in held]
    assert still, (kept, held)
    return still


def _events(c: TestClient, gid: str, tok: str | None, **params) -> list[dict]:
    out, after = [], 0
    while True:
        page = c.get(f"/games/{gid}/events", params={"after": after, "limit": 1000, **params}, headers=_auth(tok))
        assert page.status_code == 200, page.text
        got = page.json()["events"]
        out += got
        if len(got) < 1000:
            return out
        after = got[-1]["seq"]


def _reads_of_a_finished_battle(c: TestClient, gid: str, tok: str | None, lang: str) -> dict[str, str]:
    """Everything ``tok`` (None: a spectator) reads of the finished battle ``gid`` in ``lang``: the log, the view,
    the timeline, the pictures, the past states and rulings at the support windows, the re-decided steps that
    opened them, /verify and the feed."""
    h = {**_auth(tok), "Accept-Language": lang} if lang != "en" else _auth(tok)
    q = {"lang": lang}
    events = _events(c, gid, tok, **q)
    windows = [e["seq"] for e in events if e["type"] == "decision_pending"
               and e["payload"]["pending"]["kind"] in ("support", "reroll")][:6]
    dealt = [e["seq"] for e in events if e["type"] == "support_dealt"]
    out = {"events": json.dumps(_scrub(events), ensure_ascii=False),
           "view": json.dumps(_scrub(c.get(f"/games/{gid}", headers=h, params=q).json()), ensure_ascii=False),
           "timeline": c.get(f"/games/{gid}/timeline", headers=h).text,
           "board": c.get(f"/games/{gid}/board.svg", headers=h).text,
           "verify": c.get(f"/games/{gid}/verify").text,
           "feed": json.dumps(_scrub([json.loads(line[5:]) for line in c.get(
               f"/games/{gid}/feed", params={"after": max(0, events[-1]["seq"] - 300), **q}, headers=h).text.splitlines()
               if line.startswith("data:")]), ensure_ascii=False)}
    for seq in (*dealt, *windows, events[-1]["seq"]):
        out[f"state {seq}"] = json.dumps(_scrub(c.get(f"/games/{gid}/states/{seq}", headers=h).json()),
                                         ensure_ascii=False)
        out[f"ruling {seq}"] = c.get(f"/games/{gid}/events/{seq}/ruling", headers=h, params=q).text
        out[f"board {seq}"] = c.get(f"/games/{gid}/board.svg", params={"at": seq, **q}, headers=h).text
    for seq in windows:
        r = c.get(f"/games/{gid}/events/{seq}/redecide", headers=h)
        assert r.status_code == 200, r.text
        out[f"redecide {seq}"] = json.dumps(_scrub(r.json()))
    return out


def test_a_rotated_out_campaign_token_reads_no_battle_of_the_campaign_as_the_seat(campaign):
    camp, c = campaign, campaign.c
    kept = _finish_battle_two(camp)
    k = camp.keeper
    old = camp.tokens[k]
    # the holder reads every battle as the seat (this process now remembers the token there) ...
    for gid in camp.battles:
        assert c.get(f"/games/{gid}/events", params={"limit": 10}, headers=_auth(old)).status_code == 200
    # ... and battle 2's sealed deal names the card it still holds in battle 3 (the check below can see it)
    dealt = [e["payload"] for e in _events(c, camp.battles[1], old) if e["type"] == "support_dealt"]
    assert any(card in (p.get("cards") or []) for p in dealt for card in kept), dealt

    rot = c.post(f"/campaigns/{camp.cid}/seats/{k}/rotate", headers=_auth(old))
    assert rot.status_code == 201, rot.text
    new = rot.json()["token"]

    # UMPIRE-SEAT-4: the old token no longer acts, in any battle of the campaign, on any route
    for gid in camp.battles:
        for path, params in ((f"/games/{gid}/events", {"limit": 1000}), (f"/games/{gid}", {}),
                             (f"/games/{gid}/states/1", {}), (f"/games/{gid}/board.svg", {}),
                             (f"/games/{gid}/feed", {"after": 0, "limit": 1}), (f"/games/{gid}/legal-commands", {})):
            r = c.get(path, params=params, headers=_auth(old))
            assert r.status_code == 401, (path, r.status_code, r.text[:200])
            assert not [card for card in kept if card in r.text], path
    assert c.get(f"/campaigns/{camp.cid}", headers=_auth(old)).status_code == 401
    # the seat's new holder reads the same deal with the same check, and its hand in battle 3
    dealt = [e["payload"] for e in _events(c, camp.battles[1], new) if e["type"] == "support_dealt"]
    assert any(card in (p.get("cards") or []) for p in dealt for card in kept), dealt
    assert set(kept) <= set(c.get(f"/games/{camp.battles[2]}", headers=_auth(new)).json()["state"]["support"][k])


def test_a_finished_battles_sealed_deal_stays_hidden_in_every_language_while_the_campaign_goes_on(campaign):
    """UMPIRE-SEAL-3 on a finished battle (everything else in it is public now) whose kept card is still held in
    the battle being played: the other side and a spectator, in every language, on every route, never read it;
    the holder's reads through the same function name it."""
    camp, c = campaign, campaign.c
    kept = _finish_battle_two(camp)
    second = camp.battles[1]
    other = next(s for s in camp.tokens if s != camp.keeper)
    for i, (who, tok) in enumerate(((other, camp.tokens[other]), ("spectator", None))):
        for lang in LANGS[i::2]:
            for route, text in _reads_of_a_finished_battle(c, second, tok, lang).items():
                leaked = [card for card in kept if card in text]
                assert not leaked, (who, lang, route, leaked)
    own = _reads_of_a_finished_battle(c, second, camp.tokens[camp.keeper], "uk")
    assert all(card in own["events"] for card in kept)


def test_the_other_sides_secret_objective_reaches_no_reader_while_battle_two_runs(campaign):
    """Content 3.1 rule 5: each side reads its own secret objective of battle 2 (C1-2); the other side and a
    spectator read neither its id, nor its title, nor its text, in the campaign's view or in the battle's words
    (in every language), while the battle runs; once one is met it is revealed to all (CAMPAIGN-5)."""
    camp, c = campaign, campaign.c
    gid = camp.battles[1]
    mine = {s: camp.view(camp.tokens[s])["secret_objectives"] for s in camp.tokens}
    assert all(len(v) == 1 for v in mine.values()), mine
    rng = random.Random(8)
    for step in range(12):
        for s, tok in (*camp.tokens.items(), (None, None)):
            lang = LANGS[(step + len(str(s))) % len(LANGS)]
            h, q = _auth(tok), {"lang": lang}
            texts = [json.dumps(camp.view(tok)), c.get(f"/games/{gid}", headers=h, params=q).text,
                     c.get(f"/games/{gid}/timeline", headers=h, params=q).text,
                     json.dumps(_events(c, gid, tok, **q), ensure_ascii=False),
                     c.get(f"/games/{gid}/board.svg", headers=h, params=q).text]
            if tok:
                texts.append(c.get(f"/games/{gid}/legal-commands", headers=h, params=q).text)
            text = "\n".join(texts)
            for other, objectives in mine.items():
                for so in objectives:
                    parts = (so["id"], so["title"], so["text"])
                    if other == s:  # the holder's own reads name it: the check can see a leak
                        assert all(p in text for p in parts), (s, so["id"])
                    else:
                        assert not [p for p in parts if p in text], (s, lang, so["id"])
        cur = c.app.state.games.current(gid)
        if cur.finished:
            break
        seat = cur.status.to_act[0]
        legal = c.get(f"/games/{gid}/legal-commands", headers=_auth(camp.tokens[seat])).json()
        cmds = [x for x in legal["commands"] if not x["type"].startswith("undo")]
        r = c.post(f"/games/{gid}/commands", json={"command": rng.choice(cmds), "expected_version": legal["version"]},
                   headers=_auth(camp.tokens[seat]))
        assert r.status_code == 201, r.text
