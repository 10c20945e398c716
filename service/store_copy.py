"""Moving a whole store between backends (DESIGN section 11): SQLite -> PostgreSQL and back.

:func:`copy_store` copies every game (rows, seat token hashes, secret seeds, every event byte for byte,
the command ids with their body hashes, the command bodies) and every campaign (rows, seats, chained
events) from one store to another, then verifies each copy against its source: the chain of every game
(and its commitments against its seed where the seed is there), the same head, the same rows, and every
campaign's chain. Each game goes through :func:`service.transfer.import_game` (the JSON-lines export
with secrets: everything is checked before anything is written, one transaction per game); a game or
campaign id already in the destination is refused (:class:`service.store.GameExists`), nothing is
overwritten. ``umpire migrate --to URL`` runs it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from .campaign_store import CampaignStore
from .store import GameExists, StoreError
from .store_contract import Store
from .transfer import export_lines, import_game
from .verify import verify_game

_CAMPAIGN_COLS = ("campaign_id", "ruleset", "campaign", "seed", "seed_commitment", "status", "winner", "version",
                  "created_at", "chain_version")
_CAMPAIGN_EVENT_COLS = ("campaign_id", "seq", "type", "payload", "visibility", "ruling", "rolls", "recorded_at",
                        "actor", "public_payload", "commitment", "prev_hash", "hash")


class CopyReport(msgspec.Struct, frozen=True, kw_only=True):
    games: list[str]
    campaigns: list[str]
    events: int


def _insert(conn: Any, table: str, cols: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
    if rows:
        conn.executemany(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({','.join('?' * len(cols))})", rows)


def _copy_game_extras(src: Any, dest: Any, game_id: str) -> None:
    """What the JSON-lines export leaves out: the body hash of each command id, the command bodies."""
    hashes = src.rows("SELECT seat, command_id, body_hash FROM commands WHERE game_id = ? AND body_hash IS NOT NULL",
                      (game_id,))
    bodies = src.rows("SELECT game_id, first_seq, last_seq, seat, body FROM command_bodies WHERE game_id = ?",
                      (game_id,))
    invitations = src.rows("SELECT game_id, seat, invitation_hash FROM invitations WHERE game_id = ?", (game_id,))

    def tx(conn: Any) -> None:
        for seat, command_id, body_hash in hashes:
            conn.execute("UPDATE commands SET body_hash = ? WHERE game_id = ? AND seat = ? AND command_id = ?",
                         (body_hash, game_id, seat, command_id))
        _insert(conn, "command_bodies", ("game_id", "first_seq", "last_seq", "seat", "body"),
                [tuple(r) for r in bodies])
        _insert(conn, "invitations", ("game_id", "seat", "invitation_hash"), [tuple(r) for r in invitations])

    if hashes or bodies or invitations:
        dest.transaction(tx)


def _copy_campaign(src: Any, dest: Any, campaign_id: str) -> None:
    row = src.rows(f"SELECT {', '.join(_CAMPAIGN_COLS)} FROM campaigns WHERE campaign_id = ?", (campaign_id,))
    seats = src.rows("SELECT campaign_id, seat, token_hash FROM campaign_seats WHERE campaign_id = ?", (campaign_id,))
    invitations = src.rows("SELECT campaign_id, seat, invitation_hash FROM campaign_invitations WHERE campaign_id = ?",
                           (campaign_id,))
    events = src.rows(f"SELECT {', '.join(_CAMPAIGN_EVENT_COLS)} FROM campaign_events WHERE campaign_id = ?"
                      " ORDER BY seq", (campaign_id,))

    def tx(conn: Any) -> None:
        if conn.execute("SELECT 1 FROM campaigns WHERE campaign_id = ?", (campaign_id,)).fetchone():
            raise GameExists(campaign_id)
        _insert(conn, "campaigns", _CAMPAIGN_COLS, [tuple(r) for r in row])
        _insert(conn, "campaign_seats", ("campaign_id", "seat", "token_hash"), [tuple(r) for r in seats])
        _insert(conn, "campaign_events", _CAMPAIGN_EVENT_COLS, [tuple(r) for r in events])
        _insert(conn, "campaign_invitations", ("campaign_id", "seat", "invitation_hash"), [tuple(r) for r in invitations])

    dest.transaction(tx)


def verify_copy(src: Any, dest: Any, game_ids: list[str], campaign_ids: list[str]) -> None:
    """Every copied game and campaign verifies in ``dest`` and is the same as in ``src``; StoreError if not."""
    for gid in game_ids:
        report = verify_game(dest, gid)
        if not (report.chain_ok and report.row_ok):
            raise StoreError(f"game {gid!r} does not verify after the copy: {report.problem or report}")
        if dest.require_game(gid) != src.require_game(gid) or dest.load(gid) != src.load(gid):
            raise StoreError(f"game {gid!r} differs from its source after the copy")
        if dest.seat_hashes(gid) != src.seat_hashes(gid):
            raise StoreError(f"the seats of game {gid!r} differ from their source after the copy")
    s_camp, d_camp = CampaignStore(src), CampaignStore(dest)
    for cid in campaign_ids:
        chain_report, _ = d_camp.verify(cid, with_seed=False)
        if not chain_report.ok or d_camp.stored(cid) != s_camp.stored(cid) or d_camp.row(cid) != s_camp.row(cid):
            raise StoreError(f"campaign {cid!r} does not verify after the copy: {chain_report.problem}")


def copy_store(src: Store, dest: Store, *, progress: Callable[[str], None] | None = None) -> CopyReport:
    """Copy everything in ``src`` into ``dest`` (both :class:`service.store_contract.Store`), verified."""
    game_ids = src.game_ids()
    campaign_ids = [r[0] for r in src.rows("SELECT campaign_id FROM campaigns ORDER BY campaign_id")]
    events = 0
    for gid in game_ids:
        import_game(dest, export_lines(src, gid, with_secrets=True))
        _copy_game_extras(src, dest, gid)
        events += dest.version(gid)
        if progress:
            progress(f"game {gid}")
    for cid in campaign_ids:
        _copy_campaign(src, dest, cid)
        if progress:
            progress(f"campaign {cid}")
    verify_copy(src, dest, game_ids, campaign_ids)
    return CopyReport(games=game_ids, campaigns=campaign_ids, events=events)


__all__ = ["CopyReport", "copy_store", "verify_copy"]
