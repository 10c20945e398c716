"""docs/verification.md is exact: a verifier written here from that page alone -- ``hashlib``, ``hmac``,
``json`` (and ``cryptography`` for the Ed25519 receipt signature), nothing of umpire -- re-verifies a
finished Battle of Hoth game (with client seeds) from what any caller gets over HTTP: the header, the
chain, every commitment, every draw and its stream order, the shuffles' shape and a receipt. And it is
not vacuous: one changed value anywhere makes it fail."""
from __future__ import annotations

import base64
import copy
import hashlib
import hmac
import json
import math
import random
from typing import Any

import msgspec
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from litestar.testing import TestClient

from domain.kernel import registry
from service.app import create_app
from service.game_service import CommandRequest
from service.settings import Settings


# -- the verifier, from docs/verification.md ----------------------------------------------------------
def number(x: float) -> str:
    """Section 1: the shortest round-trip digits; plain decimal for 1e-5 <= |x| < 1e16, else
    <mantissa>e<exponent> without '+' or leading zeros; NaN and infinities as null."""
    if math.isnan(x) or math.isinf(x):
        return "null"
    r = repr(x)
    if "e" not in r:
        return r
    mant, exp = r.split("e")
    e = int(exp)
    if 1e-5 <= abs(x) < 1e16:  # repr used an exponent where plain decimal is wanted (1e-5 .. 1e-4)
        sign = "-" if mant.startswith("-") else ""
        digits = mant.lstrip("-").replace(".", "")
        return f"{sign}0.{'0' * (-e - 1)}{digits}"
    return f"{mant}e{e}"


def canonical_text(x: Any) -> str:
    if x is None:
        return "null"
    if x is True:
        return "true"
    if x is False:
        return "false"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        return number(x)
    if isinstance(x, str):
        return json.dumps(x, ensure_ascii=False)
    if isinstance(x, list):
        return "[" + ",".join(canonical_text(v) for v in x) + "]"
    if isinstance(x, dict):
        return "{" + ",".join(f"{json.dumps(k, ensure_ascii=False)}:{canonical_text(x[k])}" for k in sorted(x)) + "}"
    raise TypeError(type(x))


def canonical(x: Any) -> bytes:
    return canonical_text(x).encode("utf-8")


def draw(seed: bytes, label: str, sides: int) -> int:
    if sides == 1:
        return 0
    limit = 2**64 - (2**64 % sides)
    k = 0
    while True:
        msg = label if k == 0 else f"{label}|{k}"
        d = hmac.new(seed, msg.encode(), hashlib.sha256).digest()
        for w in range(4):
            word = int.from_bytes(d[8 * w:8 * w + 8], "big")
            if word < limit:
                return word % sides
        k += 1


def public_part(game_id: str, e: dict) -> dict:
    payload = e["payload"]
    if "hidden" in e and payload.get("redacted") is not True:
        payload = {k: v for k, v in payload.items() if k not in e["hidden"]}
        payload["redacted"] = True
    return {"game_id": game_id, "seq": e["seq"], "type": e["type"], "actor": e["actor"],
            "recorded_at": e["recorded_at"], "payload": payload}


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def verify(game_id: str, entries: list[dict], seed_hex: str, receipt: dict, key: dict) -> str | None:
    """None when everything docs/verification.md describes checks out, else the first problem."""
    header = entries[0]["payload"]
    if entries[0]["type"] != "game_created" or header["chain_version"] != 2:
        return "event 1 is not a chain-version-2 header"
    seed = bytes.fromhex(seed_hex)
    if len(seed) != 32 or hashlib.sha256(seed).hexdigest() != header["seed_commitment"]:
        return "the seed does not match the header's commitment"
    k_commit = hmac.new(seed, b"umpire-commit-key-v1", hashlib.sha256).digest()
    # the draws' label: client seeds from the header, or from the seats' seat_ready events
    seeds = header["client_seeds"]
    if seeds is None and header["start"] == "when_ready":
        seeds = {e["payload"]["seat"]: e["payload"].get("client_seed")
                 for e in entries if e["type"] == "seat_ready"}
    mix = None if seeds is None else ",".join(f"{s}={seeds.get(s) or ''}" for s in header["seats"])
    prev = "0" * 64
    nxt: dict[str, int] = {}
    shuffle_sides: list[int] = []
    announced: list[int] = []
    for n, e in enumerate(entries, start=1):
        if e["seq"] != n:
            return f"seq {n} missing"
        priv = e["private"]
        mac = hmac.new(k_commit, f"{game_id}|{n}|".encode() + canonical(priv), hashlib.sha256).hexdigest()
        if mac != e["commitment"]:
            return f"seq {n}: commitment"
        full = e["payload"]
        if set(priv["payload"]) != set(e.get("hidden", ())) or any(full.get(k) != v for k, v in priv["payload"].items()):
            return f"seq {n}: the private part's payload is not the hidden fields"
        h = hashlib.sha256(f"{prev}|".encode() + canonical(public_part(game_id, e)) + f"|{e['commitment']}".encode())
        if h.hexdigest() != e["hash"]:
            return f"seq {n}: hash"
        prev = e["hash"]
        for r in priv["rolls"]:
            if r["index"] != nxt.get(r["stream"], 0):
                return f"seq {n}: stream {r['stream']} index {r['index']} out of order"
            nxt[r["stream"]] = r["index"] + 1
            label = (f"{game_id}|{r['stream']}|{r['index']}" if mix is None
                     else f"{game_id}|{mix}|{r['stream']}|{r['index']}")
            if draw(seed, label, r["sides"]) != r["value"]:
                return f"seq {n}: draw {r['stream']}#{r['index']}"
        shuffle_sides += [r["sides"] for r in priv["rolls"] if r["stream"] == "shuffle"]
        if e["type"] == "deck_shuffled":  # Fisher-Yates: n-1 draws of sides n, n-1, ..., 2
            announced += list(range(full["size"], 1, -1))
    if shuffle_sides != announced:  # a command's draws may all be recorded in its first event
        return "the shuffle stream is not the shuffles the log announces"
    # the receipt: signed by the key the service publishes, over the head of its version
    raw = unb64url(key["public_key"])
    if key["alg"] != "Ed25519" or key["key_id"] != hashlib.sha256(raw).hexdigest()[:16]:
        return "the public key"
    msg = f"umpire-receipt-v1|{receipt['game_id']}|{receipt['version']}|{receipt['head']}".encode()
    try:
        Ed25519PublicKey.from_public_bytes(raw).verify(unb64url(receipt["signature"]), msg)
    except InvalidSignature:
        return "the receipt's signature"
    if receipt["head"] != entries[receipt["version"] - 1]["hash"]:
        return "the receipt's head is not in the log"
    return None


# -- a finished game, over HTTP ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def game(tmp_path_factory):
    hoth = registry.get("hoth")
    data = tmp_path_factory.mktemp("data")
    with TestClient(create_app(Settings(data_dir=str(data)), read_models=None)) as c:
        r = c.post("/games", json={"ruleset": "hoth", "scenario": "SCN-TAKE-DOWN-THE-SHIELD", "start": "when_ready"})
        assert r.status_code == 201, r.text
        gid, tokens = r.json()["game_id"], r.json()["seats"]
        for seat, cs in (("imperial", {"client_seed": "Al-pha_1"}), ("rebel", {})):
            assert c.post(f"/games/{gid}/ready", json=cs, headers={"Authorization": f"Bearer {tokens[seat]}"}) \
                .status_code == 201
        svc, rng = c.app.state.games, random.Random(11)
        for _ in range(20_000):
            cur = svc.current(gid)
            st = hoth.status(cur.state)
            if st.status == "finished":
                break
            seat = rng.choice(st.to_act)
            cmd = rng.choice(hoth.legal_commands(cur.state, seat))
            ans = svc.command(gid, tokens[seat], CommandRequest(command=msgspec.to_builtins(cmd),
                                                                expected_version=cur.version))
            assert ans.status == 201, ans.body
        entries: list[dict] = []
        while True:
            page = c.get(f"/games/{gid}/events", params={"after": len(entries), "limit": 1000}).json()["events"]
            if not page:
                break
            entries += page
        yield {"gid": gid, "entries": entries, "verify": c.get(f"/games/{gid}/verify").json(),
               "receipt": c.get(f"/games/{gid}").json()["receipt"], "key": c.get("/.well-known/umpire-key").json()}


def test_a_verifier_written_from_the_doc_verifies_a_finished_game(game):
    v = game["verify"]
    assert v["status"] == "finished" and v["dice_ok"] and v["commitments_ok"] and v["chain_ok"], v
    entries = game["entries"]
    assert len(entries) == v["version"] and all("private" in e for e in entries)
    rolls = sum(len(e["private"]["rolls"]) for e in entries)
    assert rolls == v["rolls_checked"] and rolls > 20
    assert any(e["type"] == "deck_shuffled" for e in entries) and any("hidden" in e for e in entries)
    assert verify(game["gid"], entries, v["seed"], game["receipt"], game["key"]) is None


def _tampered(game, change) -> str | None:
    entries = copy.deepcopy(game["entries"])
    change(entries)
    return verify(game["gid"], entries, game["verify"]["seed"], game["receipt"], game["key"])


def test_the_doc_verifier_finds_any_changed_value(game):
    entries = game["entries"]
    rolled = next(i for i, e in enumerate(entries) if e["private"]["rolls"] and e["type"] != "deck_shuffled")
    hidden = next(i for i, e in enumerate(entries) if e.get("hidden"))

    def roll_value(es):
        r = es[rolled]["private"]["rolls"][0]
        r["value"] = (r["value"] + 1) % r["sides"]

    def hidden_field(es):
        es[hidden]["payload"][es[hidden]["hidden"][0]] = "doctored"

    def public_field(es):
        es[3]["recorded_at"] = "2000-01-01T00:00:00+00:00"

    def mix_dropped(es):
        for e in es:
            if e["type"] == "seat_ready":
                e["payload"]["client_seed"] = None

    for change, want in ((roll_value, "commitment"), (hidden_field, "private part"), (public_field, "hash"),
                         (mix_dropped, "hash")):  # the seat_ready event is public: its hash breaks
        problem = _tampered(game, change)
        assert problem is not None and want in problem, (change.__name__, problem)
    assert verify(game["gid"], entries, "00" * 32, game["receipt"], game["key"]) is not None
    forged = dict(game["receipt"], version=game["receipt"]["version"] - 1)
    assert "signature" in verify(game["gid"], entries, game["verify"]["seed"], forged, game["key"])


def test_the_draw_formula_of_the_doc_is_the_draw_of_every_recorded_roll_without_the_commitments(game):
    """The draws checked on their own (a roll changed *and* its commitment recomputed is caught by the
    draw, not only by the commitment)."""
    v, gid, entries = game["verify"], game["gid"], game["entries"]
    seed = bytes.fromhex(v["seed"])
    mix = "imperial=Al-pha_1,rebel="
    assert v["client_seeds"] == {"imperial": "Al-pha_1", "rebel": None}
    plain_differs = 0
    for e in entries:
        for r in e["private"]["rolls"]:
            assert draw(seed, f"{gid}|{mix}|{r['stream']}|{r['index']}", r["sides"]) == r["value"]
            plain_differs += draw(seed, f"{gid}|{r['stream']}|{r['index']}", r["sides"]) != r["value"]
    assert plain_differs > 5  # the client seeds are really in the label


@pytest.mark.parametrize("x", [0.0, -0.0, 3.0, 0.1, 1e-5, -1e-5, 1.2345e-5, 9.999999999999999e-06, 1e-4, 1e-7,
                               2.5e-6, 5e-324, 1e15, 9999999999999998.0, 1e16, 1.2345e17, 1.5e300,
                               1.7976931348623157e308, float("nan"), float("inf"), 5.551115123125783e-17])
def test_the_doc_float_format_is_the_chain_s(x):
    from domain.kernel.chain import canonical as umpire_canonical

    assert canonical({"x": [x, {"b": x, "a": "é\n\x01"}]}) == umpire_canonical({"x": [x, {"b": x, "a": "é\n\x01"}]})
