"""The SQLite schema, as numbered steps (``PRAGMA user_version`` says how many ran). Later work appends
steps; never edit one that shipped. The PostgreSQL adapter keeps its twin of each step
(:data:`service.store.postgres.PG_MIGRATIONS`)."""
from __future__ import annotations

from collections.abc import Callable

import sqlite_utils


MIGRATIONS: list[Callable[[sqlite_utils.Database], None]] = []


def migration(fn: Callable[[sqlite_utils.Database], None]) -> Callable[[sqlite_utils.Database], None]:
    MIGRATIONS.append(fn)
    return fn


@migration
def _m1_core(db: sqlite_utils.Database) -> None:
    db["games"].create(
        {
            "game_id": str, "ruleset": str, "scenario": str, "setup": str,
            "seed_commitment": str, "status": str, "winner": str, "version": int,
            "created_at": str, "campaign_id": str,
        },
        pk="game_id",
        not_null={"ruleset", "scenario", "setup", "seed_commitment", "status", "version", "created_at"},
    )
    db.execute(
        """CREATE TABLE events (
            game_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL,
            payload TEXT NOT NULL, actor TEXT, visibility TEXT NOT NULL,
            command_id TEXT, engine_version TEXT NOT NULL, recorded_at TEXT NOT NULL,
            ruling TEXT, rolls TEXT NOT NULL, reveals INTEGER NOT NULL, turn INTEGER NOT NULL,
            prev_hash TEXT NOT NULL, hash TEXT NOT NULL,
            UNIQUE(game_id, seq), CHECK (seq >= 1))"""
    )
    db.execute(
        """CREATE TABLE commands (
            game_id TEXT NOT NULL, command_id TEXT NOT NULL,
            first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL,
            PRIMARY KEY (game_id, command_id))"""
    )
    db.execute(
        """CREATE TABLE seats (
            game_id TEXT NOT NULL, seat TEXT NOT NULL, token_hash TEXT NOT NULL,
            PRIMARY KEY (game_id, seat))"""
    )
    db.execute("CREATE UNIQUE INDEX seats_token ON seats(token_hash)")
    db.execute(
        """CREATE TABLE secrets (
            game_id TEXT PRIMARY KEY, seed TEXT NOT NULL, revealed INTEGER NOT NULL DEFAULT 0)"""
    )
    db.execute("CREATE INDEX games_status ON games(status, ruleset)")


@migration
def _m2_campaigns(db: sqlite_utils.Database) -> None:
    """Campaigns (DESIGN 8, POST /campaigns): a campaign is its own event stream next to the games
    of its battles (``games.campaign_id``); its seat tokens act in every battle."""
    db.execute(
        """CREATE TABLE campaigns (
            campaign_id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, campaign TEXT NOT NULL,
            seed TEXT NOT NULL, seed_commitment TEXT NOT NULL, status TEXT NOT NULL, winner TEXT,
            version INTEGER NOT NULL, created_at TEXT NOT NULL)"""
    )
    db.execute(
        """CREATE TABLE campaign_seats (
            campaign_id TEXT NOT NULL, seat TEXT NOT NULL, token_hash TEXT NOT NULL,
            PRIMARY KEY (campaign_id, seat))"""
    )
    db.execute("CREATE UNIQUE INDEX campaign_seats_token ON campaign_seats(token_hash)")
    db.execute(
        """CREATE TABLE campaign_events (
            campaign_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL,
            visibility TEXT NOT NULL, ruling TEXT, rolls TEXT NOT NULL, recorded_at TEXT NOT NULL,
            UNIQUE(campaign_id, seq), CHECK (seq >= 1))"""
    )


@migration
def _m3_command_bodies(db: sqlite_utils.Database) -> None:
    """The command behind each step (DESIGN 6: re-decide a disputed step with the current engine).
    Written in the same transaction as the step's events; an audit aid, not part of the hash chain."""
    db.execute(
        """CREATE TABLE command_bodies (
            game_id TEXT NOT NULL, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL,
            seat TEXT, body TEXT NOT NULL, PRIMARY KEY (game_id, first_seq))"""
    )


@migration
def _m4_fair_chain(db: sqlite_utils.Database) -> None:
    """Issue 10 (DESIGN 2): chain version 2 per game (public part + keyed commitment), the command
    each event belongs to (undo goes back to command boundaries only), command ids per seat with the
    hash of the first request's body. Rows of games stored before keep chain version 1."""
    db.execute("ALTER TABLE games ADD COLUMN chain_version INTEGER NOT NULL DEFAULT 1")
    db.execute("ALTER TABLE events ADD COLUMN public_payload TEXT")
    db.execute("ALTER TABLE events ADD COLUMN commitment TEXT")
    db.execute("ALTER TABLE events ADD COLUMN step INTEGER")
    db.execute(
        """CREATE TABLE commands_v4 (
            game_id TEXT NOT NULL, seat TEXT NOT NULL, command_id TEXT NOT NULL,
            first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, body_hash TEXT,
            PRIMARY KEY (game_id, seat, command_id))"""
    )
    db.execute(
        """INSERT INTO commands_v4 (game_id, seat, command_id, first_seq, last_seq, body_hash)
           SELECT c.game_id, COALESCE(e.actor, ''), c.command_id, c.first_seq, c.last_seq, NULL
           FROM commands c LEFT JOIN events e ON e.game_id = c.game_id AND e.seq = c.first_seq"""
    )
    db.execute("DROP TABLE commands")
    db.execute("ALTER TABLE commands_v4 RENAME TO commands")
    # campaigns: their own chained stream through the same mechanism (domain.kernel.chain)
    db.execute("ALTER TABLE campaigns ADD COLUMN chain_version INTEGER NOT NULL DEFAULT 1")
    for col in ("actor TEXT", "public_payload TEXT", "commitment TEXT", "prev_hash TEXT", "hash TEXT"):
        db.execute(f"ALTER TABLE campaign_events ADD COLUMN {col}")


@migration
def _m5_lobby_order(db: sqlite_utils.Database) -> None:
    """The lobby's order (``created_at``, ``game_id``) as indexes, so a page of ``GET /games`` (a cursor and a
    limit, with or without a status or ruleset filter) reads that page's rows, not the whole table."""
    db.execute("CREATE INDEX IF NOT EXISTS games_created ON games(created_at, game_id)")
    db.execute("CREATE INDEX IF NOT EXISTS games_status_created ON games(status, created_at, game_id)")
    db.execute("CREATE INDEX IF NOT EXISTS games_ruleset_created ON games(ruleset, created_at, game_id)")


@migration
def _m6_invitations(db: sqlite_utils.Database) -> None:
    """DESIGN 4 (a seat belongs to the person who claimed it): the one-time invitation of each seat that a
    game's (or a campaign's) creator offered, by hash only; the row goes when the seat is claimed."""
    db.execute(
        """CREATE TABLE invitations (
            game_id TEXT NOT NULL, seat TEXT NOT NULL, invitation_hash TEXT NOT NULL,
            PRIMARY KEY (game_id, seat))"""
    )
    db.execute(
        """CREATE TABLE campaign_invitations (
            campaign_id TEXT NOT NULL, seat TEXT NOT NULL, invitation_hash TEXT NOT NULL,
            PRIMARY KEY (campaign_id, seat))"""
    )


#: The headers (event 1) that name bot seats (UMPIRE-BOT-1): a partial index of only those, so that a starting
#: process finds the games its bots must resume without reading one header per game (issue 26).
BOT_HEADERS = "e.seq = 1 AND json_extract(e.payload, '$.bots') != '{}'"


@migration
def _m7_bot_headers(db: sqlite_utils.Database) -> None:
    """The games with bot seats, indexed (a partial index over the headers that name bots)."""
    db.execute("CREATE INDEX IF NOT EXISTS events_bot_headers ON events(game_id) "
               "WHERE seq = 1 AND json_extract(payload, '$.bots') != '{}'")
