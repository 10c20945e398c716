"""The languages umpire speaks (issue 28): ``GET /languages`` lists them with their own names, and
``GET /languages/{lang}/catalog`` hands the web client the strings of its own catalog entries (those
``ops/i18n-extract`` found in web/js/) with the language's plural forms, so the page speaks the same
catalogs as the API. English needs none: its catalog is empty and the client shows its own text."""
from __future__ import annotations

from typing import Any

from litestar import Request, Response, Router, get
from litestar.params import FromPath

from .. import i18n
from ..language import NATIVE_NAMES, PSEUDO, SUPPORTED, choose, pseudo_allowed
from ..problems import Problem


@get("/languages", sync_to_thread=False, summary="The languages umpire speaks, with their own names",
     description="Each answer with words chooses one of them by `?lang=` or `Accept-Language` and says which in "
                 "`Content-Language`.")
def languages(request: Request) -> dict[str, Any]:
    return {"languages": [{"id": k, "name": NATIVE_NAMES[k]} for k in SUPPORTED],
            "default": choose(None, request.headers.get("accept-language"))}


@get("/languages/{lang:str}/catalog", sync_to_thread=True,
     summary="The web client's strings in one language, with its plural forms",
     description="`messages`: English text -> translation (a list of forms for a plural); `plural`: a CLDR "
                 "plural category (`Intl.PluralRules`) -> the index of its form.")
def catalog(lang: FromPath[str]) -> Response[dict[str, Any]]:
    if lang not in SUPPORTED and not (lang == PSEUDO and pseudo_allowed()):
        raise Problem(404, "not-found", f"no language {lang!r} (known: {', '.join(SUPPORTED)})", field="lang")
    return Response(i18n.web_catalog(lang), headers={"Cache-Control": "no-cache", "Content-Language": lang})


ROUTER = Router(path="/", route_handlers=[languages, catalog], tags=["languages"])
