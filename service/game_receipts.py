"""Receipts on answers (DESIGN 2): every answer that appended carries the signed receipt of
``(game, version, head)`` (:class:`service.receipts.Signer`)."""
from __future__ import annotations

from typing import Any


class Receipts:
    """:class:`service.game_service.GameService`'s receipts."""

    def receipt(self, game_id: str, version: int, head: str | None = None) -> dict[str, Any] | None:
        """The signed receipt of ``(game_id, version, head)`` (CONTRACTS), or None without a signer."""
        if self.signer is None:
            return None
        if head is None:
            head = self.store.head(game_id, version)
            if head is None:
                return None
        return self.signer.receipt(game_id, version, head)

    def _with_receipt(self, game_id: str, body: dict[str, Any], version: int, head: str | None = None) -> dict[str, Any]:
        r = self.receipt(game_id, version, head)
        if r is not None:
            body["receipt"] = r
        return body

    def with_receipt(self, game_id: str, body: dict[str, Any], version: int, head: str | None = None) -> dict[str, Any]:
        return self._with_receipt(game_id, body, version, head)



__all__ = ["Receipts"]
