"""An outside verifier, written from the published formulas (DESIGN 2 and 3, CONTRACTS, the
docstring of service/chain.py) with the standard library and ``cryptography`` only: it imports
nothing of umpire, so a test that passes with it shows that a client can check umpire without
umpire's code.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

GENESIS = "0" * 64


def canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def public_part(game_id: str, entry: dict[str, Any]) -> dict[str, Any]:
    """An event entry (GET /events) -> its public part: the payload as a spectator sees it."""
    payload = entry["payload"]
    if "hidden" in entry and payload.get("redacted") is not True:
        payload = {k: v for k, v in payload.items() if k not in entry["hidden"]}
        payload["redacted"] = True
    return {"game_id": game_id, "seq": entry["seq"], "type": entry["type"], "actor": entry["actor"],
            "recorded_at": entry["recorded_at"], "payload": payload}


def link(prev: str, public: dict[str, Any], commitment: str) -> str:
    return hashlib.sha256(f"{prev}|".encode() + canonical(public) + f"|{commitment}".encode()).hexdigest()


def chain_problem(game_id: str, entries: list[dict[str, Any]]) -> str | None:
    """None when the entries (from seq 1, gapless) chain; else where they do not."""
    prev = GENESIS
    for n, e in enumerate(entries, start=1):
        if e["seq"] != n:
            return f"seq {n} missing"
        if "commitment" not in e or len(e["commitment"]) != 64:
            return f"seq {n} has no commitment"
        if link(prev, public_part(game_id, e), e["commitment"]) != e["hash"]:
            return f"seq {n}: hash does not match"
        prev = e["hash"]
    return None


def commit_key(seed: bytes) -> bytes:
    return hmac.new(seed, b"umpire-commit-key-v1", hashlib.sha256).digest()


def commitment_problem(game_id: str, seed_hex: str, entries: list[dict[str, Any]]) -> str | None:
    """Once finished: every entry's private part against its commitment, and its hidden payload
    fields against the payload shown."""
    key = commit_key(bytes.fromhex(seed_hex))
    for e in entries:
        private = e["private"]
        for k, v in private["payload"].items():
            if e["payload"].get(k) != v:
                return f"seq {e['seq']}: the private part's {k} differs from the payload"
        mac = hmac.new(key, f"{game_id}|{e['seq']}|".encode() + canonical(private), hashlib.sha256).hexdigest()
        if mac != e["commitment"]:
            return f"seq {e['seq']}: commitment does not match"
    return None


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def receipt_ok(receipt: dict[str, Any], public_key_b64: str) -> bool:
    msg = f"umpire-receipt-v1|{receipt['game_id']}|{receipt['version']}|{receipt['head']}".encode()
    try:
        Ed25519PublicKey.from_public_bytes(unb64url(public_key_b64)).verify(unb64url(receipt["signature"]), msg)
        return True
    except InvalidSignature:
        return False


def draw(seed: bytes, game_id: str, stream: str, index: int, sides: int,
         client_seeds: list[tuple[str, str | None]] | None = None) -> int:
    """CONTRACTS: HMAC-SHA256(seed, label), four 64-bit big-endian words, the first below the largest
    multiple of ``sides``; else ``label|k``."""
    if client_seeds is None:
        label = f"{game_id}|{stream}|{index}"
    else:
        mix = ",".join(f"{seat}={cs or ''}" for seat, cs in client_seeds)
        label = f"{game_id}|{mix}|{stream}|{index}"
    if sides == 1:
        return 0
    limit = (1 << 64) - ((1 << 64) % sides)
    k = 0
    while True:
        msg = label if k == 0 else f"{label}|{k}"
        d = hmac.new(seed, msg.encode(), hashlib.sha256).digest()
        for w in range(4):
            word = int.from_bytes(d[8 * w:8 * w + 8], "big")
            if word < limit:
                return word % sides
        k += 1


def shuffle(items: list[Any], values: list[int]) -> list[Any]:
    """Fisher-Yates from the last position down, swapping with the drawn index."""
    out = list(items)
    for k, i in enumerate(range(len(out) - 1, 0, -1)):
        j = values[k]
        out[i], out[j] = out[j], out[i]
    return out
