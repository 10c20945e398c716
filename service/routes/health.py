"""``GET /health`` and ``GET /rulesets``."""
from __future__ import annotations

from litestar import Request, Response, Router, get

from ..language import content_language
from ..problems import Problem
from ..ruleset_listing import listing, localized
from ..schemas import Health, PublicKey, RulesetInfo
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


@get("/rulesets", sync_to_thread=False, summary="Rulesets with their scenarios, campaigns, game options and bots",
     description="`options` is the JSON schema of the `options` object of POST /games for that ruleset; each "
                 "property says what the option does. `bots`: the built-in players a seat of the ruleset can be "
                 "given (POST /games `\"bots\": {\"<seat>\": \"<bot id>[:level]\"}`; the first level is the default). "
                 "Titles, descriptions and the rule choices' questions, readings and reasons are in the reader's "
                 "language (`lang`, else `Accept-Language`; `Content-Language` says which); ids, enums and the "
                 "originals' quoted `sources` are the same in every language.")
def rulesets(request: Request) -> Response[list[RulesetInfo]]:
    lang = lang_of(request)
    return Response([localized(e, lang) for e in listing()], headers=content_language(lang))  # type: ignore[arg-type]


@get("/.well-known/umpire-key", sync_to_thread=False,
     summary="The public key that signs receipts (Ed25519, base64url of the 32 raw bytes)")
def umpire_key(request: Request) -> PublicKey:
    signer = svc_of(request).signer
    if signer is None:
        raise Problem(503, "unavailable", "this server signs no receipts")
    return signer.public_document()  # type: ignore[return-value]


ROUTER = Router(path="/", route_handlers=[health, rulesets, umpire_key], tags=["service"])
