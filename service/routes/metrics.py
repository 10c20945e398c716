"""``GET /metrics``: the Prometheus text of every process of this node (DESIGN 16; :mod:`service.metrics`)."""
from __future__ import annotations

from litestar import Request, Response, Router, get

from ..metrics import CONTENT_TYPE_LATEST, scrape
from ._common import svc_of


@get("/metrics", sync_to_thread=True, include_in_schema=False)
def metrics(request: Request) -> Response[bytes]:
    """Prometheus's text format (an operator's endpoint: not part of the API document)."""
    return Response(content=scrape(svc_of(request).store), media_type=CONTENT_TYPE_LATEST)


ROUTER = Router(path="/", route_handlers=[metrics])
