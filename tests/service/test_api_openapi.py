"""The OpenAPI document (snapshot, discriminators) and generated requests from it: never a 5xx."""
from __future__ import annotations

import string
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings

from .api_client import PROBLEM, SEED
from .toy_ruleset import register

REF = "#/components/schemas/"


def _doc(tmp_path) -> dict:
    register()
    app = create_app(Settings(data_dir=str(tmp_path / "data")), read_models=None)
    with TestClient(app) as c:
        r = c.get("/schema/openapi.json")
        assert r.status_code == 200
        assert c.get("/schema/swagger").status_code == 200  # interactive docs
        assert "<html" in c.get("/schema").text.lower()
        return r.json()


def _only_toy(doc: dict) -> dict:
    """The document without other rulesets' components (they change with their engines): a component named
    ``<ruleset>_...`` is kept for the toy only, and every union and mapping loses its other members."""
    def other(name: str) -> bool:
        return "_" in name and not name.startswith("toy_")

    def keep_ref(node: Any) -> bool:
        ref = node.get("$ref", "") if isinstance(node, dict) else ""
        return not (ref.startswith(REF) and other(ref[len(REF):]))

    def clean(node: Any) -> Any:
        if isinstance(node, dict):
            out = {}
            for k, v in node.items():
                if k in ("oneOf", "anyOf") and isinstance(v, list):
                    v = [x for x in v if keep_ref(x)]
                elif k == "mapping" and isinstance(v, dict):
                    v = {t: r for t, r in v.items() if not other(r[len(REF):])}
                out[k] = clean(v)
            return out
        if isinstance(node, list):
            return [clean(x) for x in node]
        return node

    doc["components"]["schemas"] = {k: v for k, v in doc["components"]["schemas"].items() if not other(k)}
    return clean(doc)


def test_openapi_document_snapshot(tmp_path, snapshot):
    doc = _doc(tmp_path)
    assert _only_toy(doc) == snapshot


def test_command_union_has_a_discriminator_mapping(tmp_path):
    doc = _doc(tmp_path)
    schemas = doc["components"]["schemas"]
    toy = schemas["toy_Command"]
    assert toy["discriminator"]["propertyName"] == "type"
    assert toy["discriminator"]["mapping"]["step"] == REF + "toy_Step"
    assert schemas["CommandRequest"]["properties"]["command"] == {"$ref": REF + "Command"}
    assert {"$ref": REF + "toy_Command"} in schemas["Command"]["anyOf"]
    assert schemas["CreateGameRequest"]["discriminator"]["mapping"]["toy"] == REF + "toy_CreateGame"
    assert schemas["toy_Event"]["discriminator"]["mapping"]["undone"] == REF + "toy_Undone"
    post = doc["paths"]["/games/{game_id}/commands"]["post"]["responses"]
    for code in ("400", "401", "403", "404", "409", "422", "503"):
        assert post[code]["content"][PROBLEM]["schema"] == {"$ref": REF + "ProblemDetails"}


# -- generated requests ------------------------------------------------------------
def _resolve(doc: dict, sch: dict) -> dict:
    while "$ref" in sch:
        sch = doc["components"]["schemas"][sch["$ref"][len(REF):]]
    return sch


junk = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**6) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def from_schema(doc: dict, sch: dict, depth: int = 0) -> st.SearchStrategy:
    if not isinstance(sch, dict):  # the schemas `true` / `false`
        return junk
    sch = _resolve(doc, sch)
    if depth > 4:
        return junk
    if "oneOf" in sch or "anyOf" in sch:
        return st.one_of([from_schema(doc, s, depth + 1) for s in sch.get("oneOf", sch.get("anyOf"))])
    if "enum" in sch:
        return st.sampled_from(sch["enum"])
    if "const" in sch:
        return st.just(sch["const"])
    t = sch.get("type")
    if isinstance(t, list):
        return st.one_of([from_schema(doc, {**sch, "type": x}, depth + 1) for x in t])
    if t == "object" or "properties" in sch:
        props = sch.get("properties", {})
        req = set(sch.get("required", []))
        fixed = {k: from_schema(doc, v, depth + 1) for k, v in props.items() if k in req}
        optional = {k: from_schema(doc, v, depth + 1) for k, v in props.items() if k not in req}
        return st.fixed_dictionaries(fixed, optional=optional)
    if t == "array":
        return st.lists(from_schema(doc, sch.get("items", {}), depth + 1), max_size=3)
    if t == "integer":
        return st.integers(-3, 40) | st.integers(2**62, 2**80)  # beyond SQLite's 64-bit integers too
    if t == "number":
        return st.floats(allow_nan=False, allow_infinity=False)
    if t == "string":
        return st.text(string.ascii_letters + string.digits + "-_", max_size=10) | st.just(SEED)
    if t == "boolean":
        return st.booleans()
    if t == "null":
        return st.none()
    return junk


def test_generated_requests_never_get_a_5xx(tmp_path):
    doc = _doc(tmp_path)
    register()
    app = create_app(Settings(data_dir=str(tmp_path / "data2")), read_models=None)
    with TestClient(app) as c:
        g = c.post("/games", json={"ruleset": "toy", "scenario": "duel", "seed": SEED}).json()
        gid, tokens = g["game_id"], g["seats"]
        c.post(f"/games/{gid}/commands", json={"command": {"type": "roll"}, "expected_version": g["version"]},
               headers={"Authorization": f"Bearer {tokens['north']}"})
        ops = [(p, m, op) for p, item in doc["paths"].items() for m, op in item.items()
               if isinstance(op, dict) and "responses" in op and not p.endswith("/feed") and not p.startswith("/schema")]

        @st.composite
        def request(draw):
            path, method, op = draw(st.sampled_from(ops))
            params: dict[str, Any] = {}
            url = path
            for prm in op.get("parameters", []):
                s = prm.get("schema", {})
                if prm["in"] == "path":
                    if prm["name"] == "game_id":
                        v = draw(st.just(gid) | st.text(string.ascii_letters, min_size=1, max_size=6))
                    else:
                        v = draw(from_schema(doc, s))
                    url = url.replace("{" + prm["name"] + "}", str(v))
                elif prm["in"] == "query" and draw(st.booleans()):
                    params[prm["name"]] = draw(from_schema(doc, s) | st.text(max_size=4))
            body = None
            if "requestBody" in op:
                sch = op["requestBody"]["content"]["application/json"]["schema"]
                body = draw(from_schema(doc, sch) | junk)
            auth = draw(st.sampled_from([None, tokens["north"], tokens["south"], "junk"]))
            return method, url, params, body, auth

        seen: set[int] = set()

        @settings(max_examples=250, deadline=None, derandomize=True,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
        @given(request())
        def run(req):
            method, url, params, body, auth = req
            headers = {"Authorization": f"Bearer {auth}"} if auth else {}
            kw: dict[str, Any] = {"params": {k: (v if isinstance(v, (str, int)) else str(v)) for k, v in params.items()},
                                  "headers": headers}
            if body is not None:
                kw["json"] = body
            r = c.request(method.upper(), url, **kw)
            seen.add(r.status_code)
            assert r.status_code < 500, (method, url, params, body, r.status_code, r.text)
            if r.status_code >= 400:
                assert r.headers["content-type"].startswith(PROBLEM), (url, r.headers["content-type"])

        run()
        # the generated requests reach the handlers, not only the validation layer
        assert {200, 400, 404}.issubset(seen), seen
        assert seen & {401, 403, 409, 422}, seen
        print(sorted(seen))
