"""A cheater sends the same turn many times at once to a served umpire (real HTTP, ``umpire serve``), hoping that
one of the copies lands beside another and a second outcome is kept: a write alone is now committed on the event
loop (docs/decisions/0001-command-path-on-the-loop.md), copies that arrive together go to the committer as one
group. Whatever path each copy takes, exactly one is stored at the version it expected, the others are refused
(409, the game moved on; or 422, no longer legal) with nothing written, and the log holds one outcome."""
from __future__ import annotations

import asyncio

import httpx

from tests.web.harness import UmpireServer


async def _at_once(base: str, gid: str, token: str, version: int, commands: list[dict]) -> list[httpx.Response]:
    async with httpx.AsyncClient(base_url=base, timeout=60,
                                 headers={"authorization": f"Bearer {token}"}) as client:
        return await asyncio.gather(*[
            client.post(f"/games/{gid}/commands", json={"command": cmd, "expected_version": version,
                                                         "command_id": f"cheat-{i}"})
            for i, cmd in enumerate(commands)])


def test_copies_of_a_turn_sent_at_once_keep_one_outcome():
    with UmpireServer() as srv:
        g = httpx.post(f"{srv.url}/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD"}).json()
        gid = g["game_id"]
        for _ in range(3):  # three rounds: the first copies find nothing being written, later ones a busy store
            view = httpx.get(f"{srv.url}/games/{gid}").json()
            seat = view["to_act"][0]
            token = g["seats"][seat]
            legal = httpx.get(f"{srv.url}/games/{gid}/legal-commands",
                              headers={"authorization": f"Bearer {token}"}).json()
            cmds = legal["commands"]
            answers = asyncio.run(_at_once(srv.url, gid, token, legal["version"],
                                           [cmds[i % len(cmds)] for i in range(8)]))
            codes = sorted(a.status_code for a in answers)
            assert codes.count(201) == 1 and set(codes) <= {201, 409, 422}, codes  # 422: not legal any more
            kept = next(a.json() for a in answers if a.status_code == 201)
            after = httpx.get(f"{srv.url}/games/{gid}").json()
            assert after["version"] == kept["version"]  # nothing of the refused copies was written
            events = httpx.get(f"{srv.url}/games/{gid}/events", params={"after": legal["version"]},
                               headers={"authorization": f"Bearer {token}"}).json()["events"]
            assert [e["seq"] for e in events] == list(range(legal["version"] + 1, after["version"] + 1))
        assert httpx.get(f"{srv.url}/games/{gid}/verify").json()["chain_ok"] is True
