"""``GET /`` and ``/web/...`` (service/routes/web.py): content types, cache headers, no directory
traversal, nothing fetched from elsewhere, and the files shipped in the wheel (``pip install .``)."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from web import ROOT

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    data = tmp_path_factory.mktemp("web-data")
    with TestClient(create_app(Settings(data_dir=data), read_models=None)) as c:
        yield c


def test_index_and_assets_with_their_types_and_cache_headers(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"] == "text/html; charset=utf-8"
    assert r.headers["cache-control"] == "no-cache" and r.headers["x-content-type-options"] == "nosniff"
    csp = r.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "connect-src 'self'" in csp and "script-src 'self'" in csp
    assert '<script type="module" src="/web/js/main.js">' in r.text
    for path, ctype in [("/web/js/main.js", "text/javascript; charset=utf-8"), ("/web/app.css", "text/css; charset=utf-8"),
                        ("/web/icon.svg", "image/svg+xml")]:
        a = client.get(path)
        assert a.status_code == 200 and a.headers["content-type"] == ctype, path
        etag = a.headers["etag"]
        again = client.get(path, headers={"if-none-match": etag})
        assert again.status_code == 304 and again.content == b""
    assert client.get("/", headers={"if-none-match": r.headers["etag"]}).status_code == 304


@pytest.mark.parametrize("path", [
    "/web/../service/app.py", "/web/%2e%2e/pyproject.toml", "/web/..%2f..%2fpyproject.toml", "/web/__init__.py",
    "/web/.hidden.js", "/web/js/../../service/routes/web.py", "/web/js", "/web/", "/web/nothing.js",
    "/web/%5c..%5cpyproject.toml", "/web//etc/passwd.txt",
])
def test_nothing_outside_the_client_is_served(client, path):
    r = client.get(path)
    assert r.status_code == 404, (path, r.status_code)
    assert r.headers["content-type"].startswith("application/problem+json")


def test_a_symlink_out_of_the_folder_is_not_served(client, tmp_path):
    outside = tmp_path / "secret.txt"
    outside.write_text("secret")
    link = ROOT / "link-out.txt"
    link.symlink_to(outside)
    try:
        assert client.get("/web/link-out.txt").status_code == 404
    finally:
        link.unlink()


def test_the_web_client_is_not_in_the_api_document(client):
    paths = client.get("/schema/openapi.json").json()["paths"]
    assert "/" not in paths and not any(p.startswith("/web") for p in paths)


def test_every_asset_is_local():
    """No file of the client names another origin (no CDN; the page works with no network)."""
    for f in ROOT.rglob("*"):
        if f.suffix in (".html", ".js", ".css"):
            text = f.read_text()
            urls = re.findall(r"https?://[^\s'\"`)]+", text)
            assert not [u for u in urls if not u.startswith("http://www.w3.org/")], (f, urls)
    index = (ROOT / "index.html").read_text()
    for ref in re.findall(r'(?:src|href)="(/web/[^"]+)"', index):
        assert (ROOT / ref[len("/web/"):]).is_file(), ref


def test_the_package_ships_the_client(tmp_path):
    """What ``pip install .`` installs: setuptools' build_py of a copy of the project (the step that
    puts packages and their package data into a wheel), with the project's own pyproject.toml."""
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(REPO / "pyproject.toml", src)
    for pkg in ("domain", "service", "projections", "scenarios", "web"):
        shutil.copytree(REPO / pkg, src / pkg, ignore=shutil.ignore_patterns("__pycache__", "artifacts"))
    out = subprocess.run([sys.executable, "-c", "from setuptools import setup; setup()", "-q", "build_py",
                          "-d", str(tmp_path / "lib")], cwd=src, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    lib = tmp_path / "lib" / "web"
    shipped = {f.relative_to(lib).as_posix() for f in lib.rglob("*") if f.is_file()}
    wanted = {f.relative_to(ROOT).as_posix() for f in ROOT.rglob("*")
              if f.is_file() and f.suffix in (".html", ".js", ".css", ".svg", ".py") and "__pycache__" not in f.parts}
    assert wanted <= shipped, wanted - shipped
    assert {"index.html", "js/main.js", "js/rulesets/hoth.js", "app.css"} <= shipped
