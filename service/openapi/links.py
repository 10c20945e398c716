"""OpenAPI links (stateful clients and testers follow them): from a created game to what can be asked of it."""
from __future__ import annotations

from typing import Any

from .operations import GAME

_GAME_ID = {"game_id": "$response.body#/game_id"}
LINKS: dict[tuple[str, str], dict[int, dict[str, tuple[tuple[str, str], dict[str, str]]]]] = {
    ("post", "/games"): {201: {
        "GameView": (("get", GAME), _GAME_ID),
        "LegalCommands": (("get", GAME + "/legal-commands"), _GAME_ID),
        "Events": (("get", GAME + "/events"), _GAME_ID),
        "Timeline": (("get", GAME + "/timeline"), _GAME_ID),
        "Verify": (("get", GAME + "/verify"), _GAME_ID),
        "Board": (("get", GAME + "/board.svg"), _GAME_ID),
        "StateNow": (("get", GAME + "/states/{seq}"), {**_GAME_ID, "seq": "$response.body#/version"}),
        "LastRuling": (("get", GAME + "/events/{seq}/ruling"), {**_GAME_ID, "seq": "$response.body#/version"}),
    }},
    ("post", GAME + "/commands"): {201: {
        "LastRuling": (("get", GAME + "/events/{seq}/ruling"), {"game_id": "$request.path.game_id",
                                                                 "seq": "$response.body#/version"}),
        "StateNow": (("get", GAME + "/states/{seq}"), {"game_id": "$request.path.game_id",
                                                       "seq": "$response.body#/version"}),
    }},
    ("post", "/campaigns"): {201: {
        "Campaign": (("get", "/campaigns/{campaign_id}"), {"campaign_id": "$response.body#/campaign_id"}),
        "FirstBattle": (("get", GAME), {"game_id": "$response.body#/game_id"}),
    }},
    ("get", "/rulesets"): {200: {
        "Rules": (("get", "/rulesets/{ruleset_id}/rules"), {"ruleset_id": "$response.body#/0/id"}),
    }},
}


def add_links(doc: dict[str, Any]) -> None:
    paths = doc.get("paths", {})
    for (method, path), by_status in LINKS.items():
        op = paths.get(path, {}).get(method)
        if not isinstance(op, dict):
            continue
        for status, links in by_status.items():
            resp = op.get("responses", {}).get(str(status))
            if resp is None:
                continue
            out = {}
            for name, ((t_method, t_path), params) in links.items():
                target = paths.get(t_path, {}).get(t_method)
                if isinstance(target, dict) and target.get("operationId"):
                    out[name] = {"operationId": target["operationId"], "parameters": dict(params)}
            if out:
                resp["links"] = out
