"""Signed receipts (DESIGN section 2, CONTRACTS "Receipts").

Every accepted command (and ``GET /games/{id}``) carries::

    "receipt": {"game_id", "version", "head": <hash of event `version`>, "key_id",
                "signature": <base64url, no padding, Ed25519 over the UTF-8 bytes of
                              f"umpire-receipt-v1|{game_id}|{version}|{head}">}

The public key is served at ``GET /.well-known/umpire-key`` as ``{"alg": "Ed25519", "key_id": <first
16 hex chars of sha256(raw public key)>, "public_key": <base64url, no padding, 32 raw bytes>}``. A
client that keeps its last receipt can later prove that the log was cut or rewritten below it
(:func:`check_against_log`; ``umpire verify GAME --receipt FILE``, ``GET /games/{id}/verify?receipt=``).

The signing key lives in the data dir (``signing-key``, 64 hex characters of the Ed25519 private
key, file mode 0600, created on first start) or in ``UMPIRE_SIGNING_KEY`` (the same 64 hex
characters); never in the log. Pure helpers plus one small class; the ``cryptography`` package does
the signing.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PrivateFormat, PublicFormat, NoEncryption

log = logging.getLogger("umpire.service")

KEY_FILE = "signing-key"
ENV_SIGNING_KEY = "UMPIRE_SIGNING_KEY"
ALG = "Ed25519"
PREFIX = "umpire-receipt-v1"
#: Receipts kept signed in memory (a GET of an unchanged game signs nothing again).
CACHE = 4096


class ReceiptKeyError(ValueError):
    """The signing key cannot be read or made; the message says why (one line)."""


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    if not isinstance(text, str) or not text or len(text) > 4096:
        raise ValueError("not base64url")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not base64url") from None


def message(game_id: str, version: int, head: str) -> bytes:
    return f"{PREFIX}|{game_id}|{version}|{head}".encode()


def key_id(public_raw: bytes) -> str:
    return hashlib.sha256(public_raw).hexdigest()[:16]


def _private_from_hex(text: str, source: str) -> Ed25519PrivateKey:
    text = text.strip()
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raw = b""
    if len(raw) != 32 or raw.hex() != text.lower():
        raise ReceiptKeyError(f"{source}: the signing key is 64 hex characters (32 bytes)")
    return Ed25519PrivateKey.from_private_bytes(raw)


def _private_hex(key: Ed25519PrivateKey) -> str:
    return key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()).hex()


def load_or_create(data_dir: str | os.PathLike[str], env: Mapping[str, str] | None = None, *,
                   create: bool = True) -> Ed25519PrivateKey:
    """The service's signing key: ``UMPIRE_SIGNING_KEY`` if set, else ``<data dir>/signing-key``
    (created with mode 0600 the first time; several workers starting at once agree on one key)."""
    env = os.environ if env is None else env
    given = env.get(ENV_SIGNING_KEY)
    if given:
        return _private_from_hex(given, ENV_SIGNING_KEY)
    path = Path(data_dir) / KEY_FILE
    try:
        return _private_from_hex(path.read_text(), str(path))
    except FileNotFoundError:
        if not create:
            raise ReceiptKeyError(f"no signing key in {path.parent} (and {ENV_SIGNING_KEY} is not set)") from None
    except OSError as exc:
        raise ReceiptKeyError(f"cannot read {path}: {exc.strerror}") from None
    key = Ed25519PrivateKey.generate()
    tmp = path.with_name(f".{KEY_FILE}.{os.getpid()}.{threading.get_ident()}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(_private_hex(key) + "\n")
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)  # atomic: fails if another process made the key first
        except FileExistsError:
            return _private_from_hex(path.read_text(), str(path))
    except OSError as exc:
        raise ReceiptKeyError(f"cannot create the signing key {path}: {exc.strerror}") from None
    finally:
        try:
            tmp.unlink()
        except OSError:
            pass
    log.info("created the receipt signing key %s (key id %s)", path, Signer(key).key_id)
    return key


def public_key_of(data_dir: str | os.PathLike[str], env: Mapping[str, str] | None = None) -> bytes:
    """The raw public key of the data dir's signing key (read only; for ``umpire verify``)."""
    return load_or_create(data_dir, env, create=False).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


class Signer:
    """Signs receipts with one key (thread-safe; a small cache of recent receipts)."""

    def __init__(self, key: Ed25519PrivateKey):
        self._key = key
        self.public_raw = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.key_id = key_id(self.public_raw)
        self._cache: OrderedDict[tuple[str, int, str], str] = OrderedDict()
        self._lock = threading.Lock()

    def public_document(self) -> dict[str, str]:
        """The body of ``GET /.well-known/umpire-key``."""
        return {"alg": ALG, "key_id": self.key_id, "public_key": b64url(self.public_raw)}

    def receipt(self, game_id: str, version: int, head: str) -> dict[str, Any]:
        k = (game_id, version, head)
        with self._lock:
            sig = self._cache.get(k)
            if sig is not None:
                self._cache.move_to_end(k)
        if sig is None:
            sig = b64url(self._key.sign(message(game_id, version, head)))
            with self._lock:
                self._cache[k] = sig
                while len(self._cache) > CACHE:
                    self._cache.popitem(last=False)
        return {"game_id": game_id, "version": version, "head": head, "key_id": self.key_id, "signature": sig}


def signature_ok(receipt: Mapping[str, Any], public_raw: bytes) -> str | None:
    """None when ``receipt`` is well formed and signed by ``public_raw``; else the problem."""
    try:
        game_id, version, head = receipt["game_id"], receipt["version"], receipt["head"]
        sig = unb64url(receipt["signature"])
    except (KeyError, TypeError, ValueError):
        return "the receipt is not {game_id, version, head, key_id, signature} with a base64url signature"
    if not isinstance(game_id, str) or not isinstance(head, str) or type(version) is not int:
        return "the receipt's game_id and head are strings and its version an integer"
    if receipt.get("key_id") not in (None, key_id(public_raw)):
        return f"the receipt was signed by key {receipt.get('key_id')!r}, not by this server's key {key_id(public_raw)}"
    try:
        Ed25519PublicKey.from_public_bytes(public_raw).verify(sig, message(game_id, version, head))
    except (InvalidSignature, ValueError):
        return "the signature does not verify with the server's public key"
    return None


def check_against_log(receipt: Mapping[str, Any], game_id: str, hashes: Sequence[str]) -> str | None:
    """A signed receipt against the stored log (``hashes[i]`` = hash of seq i+1): None when the log
    still holds the head the receipt signed; else how it was cut or rewritten below the receipt."""
    if receipt.get("game_id") != game_id:
        return f"the receipt is for game {receipt.get('game_id')!r}, not {game_id!r}"
    version = receipt["version"]
    if version < 0:
        return "the receipt's version is negative"
    if version == 0:
        return None
    if len(hashes) < version:
        return (f"the log was cut: it ends at seq {len(hashes)}, but the server signed version {version} "
                f"(head {receipt['head'][:16]}...)")
    if hashes[version - 1] != receipt["head"]:
        return (f"the log was rewritten: event {version} has hash {hashes[version - 1][:16]}..., the server signed "
                f"{receipt['head'][:16]}...")
    return None


__all__ = ["ENV_SIGNING_KEY", "KEY_FILE", "ReceiptKeyError", "Signer", "b64url", "check_against_log", "key_id",
           "load_or_create", "message", "public_key_of", "signature_ok", "unb64url"]
