"""``GET /health`` and ``GET /rulesets``."""
from __future__ import annotations

from typing import Any

from litestar import Request, Router, get

from bots import infos
from domain.kernel import SetupError, registry
from domain.kernel import choices as rule_choices

from ..problems import Problem
from ..schemas import Health, PublicKey, RulesetInfo
from ..i18n import gettext_
from ._common import lang_of, svc_of


@get("/health", sync_to_thread=True, summary="Liveness of the service, its store and its Redis")
def health(request: Request) -> Health:
    svc = svc_of(request)
    try:
        svc.store.game("-health-")
        store = "ok"
    except Exception as exc:  # report, never fail the probe
        store = f"error: {exc}"
    client = request.app.state.redis
    if client is None:
        redis_state = "not configured"
    else:
        try:
            client.ping()
            redis_state = "ok"
        except Exception:
            redis_state = "down"
    return {"status": "ok" if store == "ok" else "error", "store": store, "redis": redis_state}


def options_schema(rs: Any) -> dict[str, Any]:
    """The JSON schema of a ruleset's game options (kernel protocol ``options_schema``; none: no options)."""
    hook = getattr(rs, "options_schema", None)
    if callable(hook):
        return hook()
    return {"type": "object", "maxProperties": 0, "description": f"{rs.id} takes no options."}


def default_seats(rs: Any, scenario: str) -> list[str]:
    """The seats of a game of ``scenario`` with no options (what a client offers bots or invitations for)."""
    try:
        return list(rs.seats(scenario, {}))
    except SetupError:
        return []


def bot_infos(ruleset_id: str) -> list[dict[str, Any]]:
    """The built-in players of a ruleset (DESIGN 13): what POST /games ``bots`` may name."""
    return [{"id": b.id, "title": b.title, "levels": list(b.levels)} for b in infos(ruleset_id)]


def _titled(schema: dict[str, Any], lang: str) -> dict[str, Any]:
    """The options schema with each property's ``title`` (the field's name for people) in the reader's language."""
    props = schema.get("properties")
    if not isinstance(props, dict):
        return schema
    return {**schema, "properties": {k: ({**p, "title": gettext_(p["title"], lang)} if isinstance(p, dict) and "title" in p
                                         else p) for k, p in props.items()}}


@get("/rulesets", sync_to_thread=False, summary="Rulesets with their scenarios, campaigns, game options and bots",
     description="`options` is the JSON schema of the `options` object of POST /games for that ruleset; each "
                 "property says what the option does. `bots`: the built-in players a seat of the ruleset can be "
                 "given (POST /games `\"bots\": {\"<seat>\": \"<bot id>[:level]\"}`; the first level is the default).")
def rulesets(request: Request) -> list[RulesetInfo]:
    lang = lang_of(request)
    return [
        {
            "id": rs.id,
            "title": getattr(rs, "title", rs.id),
            "scenarios": [{"id": c.id, "title": c.title, "seats": default_seats(rs, c.id)} for c in rs.scenarios()],
            "campaigns": [{"id": c.id, "title": c.title} for c in rs.campaigns()],
            "options": _titled(options_schema(rs), lang),
            "bots": bot_infos(rs.id),
            "choices": [rule_choices.describe(c) for c in rule_choices.declared(rs)],
        }
        for rs in registry.all_rulesets()
    ]  # type: ignore[return-value]


@get("/.well-known/umpire-key", sync_to_thread=False,
     summary="The public key that signs receipts (Ed25519, base64url of the 32 raw bytes)")
def umpire_key(request: Request) -> PublicKey:
    signer = svc_of(request).signer
    if signer is None:
        raise Problem(503, "unavailable", "this server signs no receipts")
    return signer.public_document()  # type: ignore[return-value]


ROUTER = Router(path="/", route_handlers=[health, rulesets, umpire_key], tags=["service"])
