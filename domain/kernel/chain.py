"""The hash chain of an event stream, as pure functions (DESIGN section 2). No I/O: every store
backend (SQLite here, PostgreSQL later) and every verifier uses these.

**Chain version 2** (every game created since issue 10; ``games.chain_version``):

- the **public part** of an event is exactly what a spectator sees of it::

      {"game_id", "seq", "type", "actor", "recorded_at", "payload": <spectator payload>}

  where the spectator payload is the payload without the event's private fields and with
  ``"redacted": true`` when the event is not public (``public_payload``; the payload itself for a
  public event);
- its **private part** is everything else that is stored::

      {"payload": {<the private fields>}, "visibility", "ruling", "rolls", "reveals", "turn",
       "engine_version", "command_id", "step"}

- ``commitment = HMAC-SHA256(k_commit, f"{game_id}|{seq}|".encode() + canonical(private part))``,
  lowercase hex, with ``k_commit = HMAC-SHA256(seed, b"umpire-commit-key-v1")`` (revealed with the
  seed when the game ends);
- ``hash = sha256(f"{prev_hash}|".encode() + canonical(public part) + f"|{commitment}".encode())``,
  lowercase hex; ``prev_hash`` of seq 1 is 64 zeros.

``canonical(x)`` is JSON with the keys of every object sorted, no whitespace, UTF-8 (msgspec's
``order="sorted"``). So the chain can be checked by anyone over what they see at any time (the
redacted events carry their commitment) and reveals nothing it hides; once the seed is revealed,
every commitment can be checked against the revealed private parts.

**Chain version 1** (games stored before): ``hash = sha256(prev_hash + canonical(every stored
field but the hashes))``. Those games keep verifying under it; history is never rewritten.
"""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from typing import Any

import msgspec

GENESIS = "0" * 64
CHAIN_V1 = 1
CHAIN_V2 = 2
CHAIN_VERSIONS = (CHAIN_V1, CHAIN_V2)
PUBLIC = "public"
COMMIT_KEY_LABEL = b"umpire-commit-key-v1"

_V1_FIELDS = ("game_id", "seq", "type", "payload", "actor", "visibility", "command_id",
              "engine_version", "recorded_at", "ruling", "rolls", "reveals", "turn")


def canonical(obj: Any) -> bytes:
    """Sorted-key, compact JSON (the bytes the chain covers)."""
    return msgspec.json.encode(obj, order="sorted")


def _json(text: str | None) -> Any:
    return None if text is None else msgspec.json.decode(text)


# -- chain version 1 -------------------------------------------------------------------------------
def v1_canonical(e: Mapping[str, Any]) -> bytes:
    body = {k: e[k] for k in _V1_FIELDS}
    body["reveals"] = bool(body["reveals"])
    return msgspec.json.encode(body, order="sorted")


def v1_hash(prev_hash: str, e: Mapping[str, Any]) -> str:
    return hashlib.sha256(prev_hash.encode() + v1_canonical(e)).hexdigest()


# -- chain version 2 -------------------------------------------------------------------------------
def commit_key(seed: bytes) -> bytes:
    """``k_commit``, derived from the game's secret seed."""
    return hmac.new(seed, COMMIT_KEY_LABEL, hashlib.sha256).digest()


def spectator_payload(payload: Mapping[str, Any], private_fields: frozenset[str] | set[str]) -> dict[str, Any]:
    """A non-public event's payload as a spectator sees it: without its private fields, ``redacted``."""
    out = {k: v for k, v in payload.items() if k not in private_fields}
    out["redacted"] = True
    return out


def hidden_fields(payload: Mapping[str, Any], public_payload: Mapping[str, Any] | None) -> list[str]:
    """The payload fields a spectator does not see (sorted)."""
    if public_payload is None:
        return []
    return sorted(k for k in payload if k not in public_payload)


def public_part(game_id: str, seq: int, type: str, actor: str | None, recorded_at: str,
                public_payload: Any) -> dict[str, Any]:
    return {"game_id": game_id, "seq": seq, "type": type, "actor": actor, "recorded_at": recorded_at,
            "payload": public_payload}


def private_part(*, payload: Mapping[str, Any], public_payload: Mapping[str, Any] | None, visibility: str,
                 ruling: Any, rolls: Any, reveals: bool, turn: int, engine_version: str, command_id: str | None,
                 step: int | None) -> dict[str, Any]:
    hidden = {k: payload[k] for k in hidden_fields(payload, public_payload)}
    return {"payload": hidden, "visibility": visibility, "ruling": ruling, "rolls": rolls, "reveals": bool(reveals),
            "turn": turn, "engine_version": engine_version, "command_id": command_id, "step": step}


def commitment(key: bytes, game_id: str, seq: int, private: Mapping[str, Any]) -> str:
    return hmac.new(key, f"{game_id}|{seq}|".encode() + canonical(private), hashlib.sha256).hexdigest()


def link(prev_hash: str, public: Mapping[str, Any], commitment_hex: str) -> str:
    """``sha256(prev_hash | canonical public part | commitment)``."""
    return hashlib.sha256(f"{prev_hash}|".encode() + canonical(public) + f"|{commitment_hex}".encode()).hexdigest()


# -- a stored row (mapping with the store's column names) -------------------------------------------
def row_public(e: Mapping[str, Any]) -> dict[str, Any]:
    pub = e.get("public_payload")
    return public_part(e["game_id"], e["seq"], e["type"], e["actor"], e["recorded_at"],
                       _json(pub) if pub is not None else _json(e["payload"]))


def row_private(e: Mapping[str, Any]) -> dict[str, Any]:
    pub = e.get("public_payload")
    return private_part(payload=_json(e["payload"]), public_payload=_json(pub) if pub is not None else None,
                        visibility=e["visibility"], ruling=_json(e["ruling"]), rolls=_json(e["rolls"]),
                        reveals=bool(e["reveals"]), turn=e["turn"], engine_version=e["engine_version"],
                        command_id=e["command_id"], step=e.get("step"))


def seal(prev_hash: str, key: bytes, e: Mapping[str, Any]) -> tuple[str, str]:
    """``(commitment, hash)`` of a row about to be stored after ``prev_hash``."""
    c = commitment(key, e["game_id"], e["seq"], row_private(e))
    return c, link(prev_hash, row_public(e), c)


def row_hash(prev_hash: str, e: Mapping[str, Any], chain_version: int) -> str:
    """The hash a stored row must have (version 2: from its stored commitment)."""
    if chain_version == CHAIN_V1:
        return v1_hash(prev_hash, e)
    return link(prev_hash, row_public(e), e["commitment"] or "")


def public_payload_problem(e: Mapping[str, Any], full: Any = None, pub: Any = None) -> str | None:
    """The stored spectator payload must be the payload minus some fields, marked ``redacted``, and
    exist exactly for the events that are not public. (``full``/``pub``: already decoded.)"""
    pub_text = e.get("public_payload")
    if e["visibility"] == PUBLIC:
        return None if pub_text is None else "a public event has a separate spectator payload"
    if pub_text is None:
        return f"an event visible to {e['visibility']!r} only has no spectator payload"
    pub = _json(pub_text) if pub is None else pub
    full = _json(e["payload"]) if full is None else full
    if not isinstance(pub, dict) or not isinstance(full, dict) or pub.get("redacted") is not True:
        return "the spectator payload is not the redacted payload"
    for k, v in pub.items():
        if k != "redacted" and (k not in full or full[k] != v):
            return f"the spectator payload's field {k!r} differs from the payload"
    return None


def private_problem(key: bytes, e: Mapping[str, Any]) -> str | None:
    """Chain version 2 with ``k_commit``: the stored private part against its commitment, and the
    spectator payload against the payload (each JSON column decoded once)."""
    try:
        full = _json(e["payload"])
        pub_text = e.get("public_payload")
        pub = _json(pub_text) if pub_text is not None else None
        problem = public_payload_problem(e, full, pub)
        if problem is not None:
            return problem
        priv = private_part(payload=full, public_payload=pub, visibility=e["visibility"], ruling=_json(e["ruling"]),
                            rolls=_json(e["rolls"]), reveals=bool(e["reveals"]), turn=e["turn"],
                            engine_version=e["engine_version"], command_id=e["command_id"], step=e.get("step"))
    except (msgspec.DecodeError, TypeError, KeyError) as exc:
        return f"the stored event cannot be read ({exc})"
    if commitment(key, e["game_id"], e["seq"], priv) != e.get("commitment"):
        return "the commitment does not match the event's private part"
    return None


# -- what a caller sees (GET /games/{id}/events entries) ---------------------------------------------
def entry_public(game_id: str, entry: Mapping[str, Any]) -> dict[str, Any]:
    """The public part of an event from a caller's event entry: its payload as a spectator sees it
    (an entry the caller sees in full lists the fields a spectator does not see in ``hidden``)."""
    payload = entry["payload"]
    hidden = entry.get("hidden")
    if hidden is not None and payload.get("redacted") is not True:
        payload = spectator_payload(payload, set(hidden))
    return public_part(game_id, entry["seq"], entry["type"], entry["actor"], entry["recorded_at"], payload)


__all__ = [
    "CHAIN_V1", "CHAIN_V2", "CHAIN_VERSIONS", "GENESIS", "canonical", "commit_key", "commitment", "entry_public",
    "hidden_fields", "link", "private_part", "private_problem", "public_part", "public_payload_problem", "row_hash", "row_private",
    "row_public", "seal", "spectator_payload", "v1_canonical", "v1_hash",
]
