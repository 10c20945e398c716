"""The web client (DESIGN 12): ``GET /`` and its assets under ``/web/``, from the ``web`` package.

Generic static serving, nothing about games: only files below the package folder with a known
extension (so no ``..``, no dotfile, no Python source is ever served), each with its content type,
``X-Content-Type-Options: nosniff`` and ``Cache-Control: no-cache`` plus a strong ETag (the file
names carry no version, so a browser revalidates and gets ``304`` for an unchanged file). The page
itself gets a Content-Security-Policy that allows nothing from other origins: the client works
with no network beyond this service. Seat tokens live in the URL fragment and the browser's
storage, never in a URL the server sees.
"""
from __future__ import annotations

import hashlib
import threading
from pathlib import Path, PurePosixPath

from litestar import Request, Response, Router, get
from litestar.params import FromPath

import web

from ..problems import Problem

#: Extension -> content type of what may be served (anything else is 404); litestar adds
#: "; charset=utf-8" to the text types.
CONTENT_TYPES: dict[str, str] = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".json": "application/json",
    ".txt": "text/plain",
}
#: The page's policy: scripts, styles, images and API calls from this origin only.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
INDEX = "index.html"


def web_root() -> Path:
    return web.ROOT


class _Files:
    """Served files by relative path, read once per change of size/mtime (cheap to revalidate)."""

    def __init__(self) -> None:
        self._cache: dict[Path, tuple[tuple[int, int], bytes, str]] = {}
        self._lock = threading.Lock()

    def get(self, rel: str) -> tuple[bytes, str, str] | None:
        """(body, content type, etag) of ``rel`` below the web root, or None."""
        parts = PurePosixPath(rel).parts
        if not parts or any(p in ("", ".", "..") or p.startswith(".") or "\\" in p for p in parts):
            return None
        ctype = CONTENT_TYPES.get(PurePosixPath(rel).suffix.lower())
        if ctype is None:
            return None
        root = web_root()
        path = root.joinpath(*parts)
        try:
            resolved = path.resolve(strict=True)
            resolved.relative_to(root)  # a symlink out of the folder is not served either
            st = resolved.stat()
        except (OSError, ValueError):
            return None
        if not resolved.is_file():
            return None
        key = (st.st_size, st.st_mtime_ns)
        with self._lock:
            hit = self._cache.get(resolved)
        if hit is None or hit[0] != key:
            body = resolved.read_bytes()
            hit = (key, body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"')
            with self._lock:
                self._cache[resolved] = hit
        return hit[1], ctype, hit[2]


FILES = _Files()


def _serve(request: Request, rel: str) -> Response[bytes]:
    found = FILES.get(rel)
    if found is None:
        raise Problem(404, "not-found", f"no such file of the web client: {rel!r}")
    body, ctype, etag = found
    headers = {"Cache-Control": "no-cache", "ETag": etag, "X-Content-Type-Options": "nosniff"}
    if rel == INDEX:
        headers["Content-Security-Policy"] = CSP
        headers["Referrer-Policy"] = "no-referrer"
    if etag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
        return Response(b"", status_code=304, headers=headers)
    return Response(body, media_type=ctype, headers=headers)


@get("/", include_in_schema=False, sync_to_thread=True)
def index(request: Request) -> Response[bytes]:
    return _serve(request, INDEX)


@get("/web/{rel:path}", include_in_schema=False, sync_to_thread=True)
def asset(request: Request, rel: FromPath[str]) -> Response[bytes]:
    return _serve(request, rel.lstrip("/"))


ROUTER = Router(path="/", route_handlers=[index, asset], tags=["web"])

__all__ = ["CONTENT_TYPES", "CSP", "FILES", "ROUTER", "web_root"]
