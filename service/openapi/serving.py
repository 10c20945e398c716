"""Serving the document (``/schema/openapi.json``, computed once per app) and the docs page (``/schema``):
Swagger UI from the files of the ``swagger-ui-py`` wheel (Apache-2.0, the licence is served beside them at
``/schema/static/LICENSE``), so it works without internet."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar import Request
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, SwaggerRenderPlugin
from litestar.static_files import create_static_files_router

from .document import DESCRIPTION, postprocess

DOCS_STATIC = "/schema/static"


class _Document:
    """The post-processed document, computed once per app (the registry does not change while it runs)."""

    def __init__(self) -> None:
        self.doc: dict[str, Any] | None = None

    def get(self, generated: dict[str, Any]) -> dict[str, Any]:
        if self.doc is None:
            self.doc = postprocess(generated)
        return self.doc


class DocumentJsonPlugin(JsonRenderPlugin):
    """``/schema/openapi.json``: the post-processed document."""

    def __init__(self, document: _Document) -> None:
        super().__init__()
        self._document = document
        self._bytes: bytes | None = None

    def render(self, request: Request, openapi_schema: dict[str, Any]) -> bytes:
        if self._bytes is None:
            self._bytes = self.render_json(request, self._document.get(openapi_schema))
        return self._bytes


class LocalSwaggerPlugin(SwaggerRenderPlugin):
    """Swagger UI on the post-processed document, every asset served by umpire itself."""

    def __init__(self, document: _Document, path: list[str]) -> None:
        super().__init__(
            js_url=f"{DOCS_STATIC}/swagger-ui-bundle.js", css_url=f"{DOCS_STATIC}/swagger-ui.css",
            standalone_preset_js_url=f"{DOCS_STATIC}/swagger-ui-standalone-preset.js", path=path,
            favicon=f"<link rel='icon' type='image/png' href='{DOCS_STATIC}/favicon-32x32.png'>")
        self._document = document

    def render(self, request: Request, openapi_schema: dict[str, Any]) -> bytes:
        return super().render(request, self._document.get(openapi_schema))


def swagger_ui_dir() -> Path:
    """The Swagger UI files of the ``swagger-ui-py`` wheel (swagger-ui-bundle.js, .css, LICENSE)."""
    import swagger_ui  # cold path: the API docs page, built once on first request

    return Path(swagger_ui.__file__).parent / "static"


def docs_static_router() -> Any:
    return create_static_files_router(path=DOCS_STATIC, directories=[swagger_ui_dir()], include_in_schema=False,
                                      name="docs-static")


def openapi_config(version: str) -> OpenAPIConfig:
    document = _Document()
    return OpenAPIConfig(
        title="umpire",
        version=version,
        description=DESCRIPTION,
        path="/schema",
        render_plugins=[DocumentJsonPlugin(document), LocalSwaggerPlugin(document, ["/", "/swagger"])],
    )
