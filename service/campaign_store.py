"""The campaign tables of the event store (store migrations 2 and 4): one chained stream per campaign.

Campaign rows, seat token hashes and campaign events live in the same SQLite file as the games; every
write is one ``BEGIN IMMEDIATE`` transaction of the store, with an optimistic version check. Campaign
events are chained through the same mechanism as a game's (:mod:`domain.kernel.chain`, chain version 2:
public part + keyed commitment with the campaign's seed), so a campaign's log can be verified over
what anyone sees and, once it ends, every commitment against the revealed seed.
"""
from __future__ import annotations

import hmac
from datetime import datetime, timezone
from typing import Any

import msgspec

from domain.kernel import Emitted, SeatReady, commitment, registry
from domain.kernel.campaign import SeedChosen, campaign_rules_of
from domain.kernel.seats import SeatClaimed, SeatRotated, SeatsOffered
from domain.kernel.dice import Roll

from domain.kernel import chain
from .store import ChainReport, NewEvent, SeatRefused, token_hash
from .store_contract import Store

#: Kernel events whose ``actor`` is the seat that made them.
_SEAT_ACTS = (SeatReady, SeatClaimed, SeatRotated)

_decoders: dict[str, msgspec.json.Decoder] = {}
_rolls = msgspec.json.Decoder(list[Roll])
_COLUMNS = ("campaign_id", "seq", "type", "payload", "visibility", "ruling", "rolls", "recorded_at", "actor",
            "public_payload", "commitment", "prev_hash", "hash")


def _decoder(ruleset: str) -> msgspec.json.Decoder:
    """The decoder of a campaign stream of ``ruleset``: its campaign events and the kernel's ``seat_ready``."""
    dec = _decoders.get(ruleset)
    if dec is None:
        rules = campaign_rules_of(registry.get(ruleset))
        if rules is None:
            raise LookupError(f"ruleset {ruleset!r} has no campaigns")
        dec = _decoders[ruleset] = msgspec.json.Decoder(rules.event_type | SeatReady | SeatsOffered | SeatClaimed
                                                        | SeatRotated | SeedChosen)
    return dec


class CampaignConflict(Exception):
    """Another writer appended to the same campaign first."""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def chain_row(r: dict[str, Any]) -> dict[str, Any]:
    """A stored campaign event as the chain functions read a row (a campaign has no turns, engine
    version, command ids or reveals: fixed values)."""
    return {"game_id": r["campaign_id"], "seq": r["seq"], "type": r["type"], "actor": r["actor"],
            "recorded_at": r["recorded_at"], "payload": r["payload"], "public_payload": r["public_payload"],
            "visibility": r["visibility"], "ruling": r["ruling"], "rolls": r["rolls"], "reveals": False, "turn": 0,
            "engine_version": "", "command_id": None, "step": None, "commitment": r["commitment"]}


class CampaignStore:
    """The campaign tables of the event store (one SQLite file)."""

    def __init__(self, store: Store):
        self.store = store

    def row(self, campaign_id: str) -> dict[str, Any] | None:
        r = self.store.rows("SELECT campaign_id, ruleset, campaign, seed, seed_commitment, status, winner, version,"
                            " created_at, chain_version FROM campaigns WHERE campaign_id = ?", (campaign_id,))
        if not r:
            return None
        keys = ("campaign_id", "ruleset", "campaign", "seed", "seed_commitment", "status", "winner", "version",
                "created_at", "chain_version")
        return dict(zip(keys, r[0]))

    def seat(self, campaign_id: str, token: str) -> str | None:
        r = self.store.rows("SELECT seat FROM campaign_seats WHERE campaign_id = ? AND token_hash = ?",
                            (campaign_id, token_hash(token)))
        return r[0][0] if r else None

    def is_battle(self, campaign_id: str, game_id: str, battle_started_type: str) -> bool:
        """Was ``game_id`` recorded as a battle of the campaign (not a game another writer orphaned)?
        ``battle_started_type``: the tag of the event that starts a battle (its payload names ``game_id``)."""
        for (payload,) in self.store.rows("SELECT payload FROM campaign_events WHERE campaign_id = ? AND type = ?",
                                          (campaign_id, battle_started_type)):
            if msgspec.json.decode(payload).get("game_id") == game_id:
                return True
        return False

    def events(self, campaign_id: str) -> list[tuple[Any, list[Roll]]]:
        """The campaign's events (decoded by its ruleset's campaign rules) with their draws."""
        rows = self.store.rows("SELECT c.ruleset, e.payload, e.rolls FROM campaign_events e JOIN campaigns c"
                               " ON c.campaign_id = e.campaign_id WHERE e.campaign_id = ? ORDER BY e.seq",
                               (campaign_id,))
        return [(_decoder(rs).decode(p), _rolls.decode(r)) for rs, p, r in rows]

    def stored(self, campaign_id: str) -> list[dict[str, Any]]:
        rows = self.store.rows(f"SELECT {', '.join(_COLUMNS)} FROM campaign_events WHERE campaign_id = ? ORDER BY seq",
                               (campaign_id,))
        return [dict(zip(_COLUMNS, r)) for r in rows]

    @staticmethod
    def _insert(conn: Any, campaign_id: str, first: int, emitted: list[Emitted], chain_version: int,
                seed: bytes, actor: str | None = None) -> None:
        now = _now()
        prev = chain.GENESIS
        if first > 1:
            got = conn.execute("SELECT hash FROM campaign_events WHERE campaign_id = ? AND seq = ?",
                               (campaign_id, first - 1)).fetchone()
            prev = (got[0] if got else None) or chain.GENESIS
        key = chain.commit_key(seed)
        for i, em in enumerate(emitted, start=first):
            payload = msgspec.json.encode(em.event).decode()
            r: dict[str, Any] = {
                "campaign_id": campaign_id, "seq": i, "type": type(em.event).__struct_config__.tag,
                "payload": payload, "visibility": em.visibility,
                "ruling": msgspec.json.encode(em.ruling).decode() if em.ruling else None,
                "rolls": msgspec.json.encode(list(em.rolls)).decode(), "recorded_at": now,
                "actor": actor if isinstance(em.event, _SEAT_ACTS) else None,
                "public_payload": None, "commitment": None, "prev_hash": None, "hash": None,
            }
            if chain_version == chain.CHAIN_V2:
                if em.visibility != chain.PUBLIC:
                    r["public_payload"] = msgspec.json.encode(
                        chain.spectator_payload(msgspec.json.decode(payload), em.event.private)).decode()
                r["prev_hash"] = prev
                r["commitment"], r["hash"] = chain.seal(prev, key, chain_row(r))
                prev = r["hash"]
            conn.execute(f"INSERT INTO campaign_events ({', '.join(_COLUMNS)}) VALUES ({','.join('?' * len(_COLUMNS))})",
                         tuple(r[c] for c in _COLUMNS))

    def create(self, campaign_id: str, ruleset: str, campaign: str, seed: bytes, tokens: dict[str, str],
               emitted: list[Emitted], status: str, invitations: dict[str, str] | None = None) -> None:
        """``tokens`` and ``invitations``: seat -> secret (only their hashes are stored)."""
        def tx(conn: Any) -> None:
            conn.execute(
                "INSERT INTO campaigns (campaign_id, ruleset, campaign, seed, seed_commitment, status, winner,"
                " version, created_at, chain_version) VALUES (?,?,?,?,?,?,NULL,?,?,?)",
                (campaign_id, ruleset, campaign, seed.hex(), commitment(seed), status, len(emitted), _now(),
                 chain.CHAIN_V2),
            )
            for seat, tok in tokens.items():
                conn.execute("INSERT INTO campaign_seats (campaign_id, seat, token_hash) VALUES (?,?,?)",
                             (campaign_id, seat, token_hash(tok)))
            for seat, code in (invitations or {}).items():
                conn.execute("INSERT INTO campaign_invitations (campaign_id, seat, invitation_hash) VALUES (?,?,?)",
                             (campaign_id, seat, token_hash(code)))
            self._insert(conn, campaign_id, 1, emitted, chain.CHAIN_V2, seed)

        self.store.transaction(tx)

    def append(self, campaign_id: str, expected: int, emitted: list[Emitted], status: str,
               winner: str | None, actor: str | None = None) -> int:
        def tx(conn: Any) -> int:
            cur, seed, version_of_chain = conn.execute(
                "SELECT version, seed, chain_version FROM campaigns WHERE campaign_id = ?", (campaign_id,)).fetchone()
            if cur != expected:
                raise CampaignConflict()
            try:
                self._insert(conn, campaign_id, cur + 1, emitted, version_of_chain, bytes.fromhex(seed), actor)
            except self.store.integrity_errors:
                raise CampaignConflict() from None
            conn.execute("UPDATE campaigns SET version = ?, status = ?, winner = ? WHERE campaign_id = ?",
                         (cur + len(emitted), status, winner, campaign_id))
            return cur + len(emitted)

        return self.store.transaction(tx)

    def change_seat(self, campaign_id: str, expected: int, seat: str, emitted: list[Emitted], *,
                    new_token_hash: str, invitation_hash: str | None = None, old_token_hash: str | None = None,
                    battle: tuple[str, int, list[NewEvent]] | None = None) -> tuple[int, Any]:
        """A seat of the campaign changes hands, in one transaction (DESIGN 4): claimed with its invitation
        (``invitation_hash``: the invitation is retired, UMPIRE-SEAT-2) or rotated by its holder
        (``old_token_hash``, UMPIRE-SEAT-4); ``emitted`` (its ``seat_claimed``/``seat_rotated``) is appended to
        the campaign's stream and ``battle`` = (game id, expected version, events) to the battle being played.
        -> (the campaign's version, the battle's append result or None). :class:`SeatRefused`,
        :class:`CampaignConflict` or the store's ``VersionConflict`` leave everything as it was."""
        append_battle = self.store.append_tx(*battle) if battle is not None else None

        def tx(conn: Any) -> tuple[int, Any]:
            cur, seed, version_of_chain = conn.execute(
                "SELECT version, seed, chain_version FROM campaigns WHERE campaign_id = ?", (campaign_id,)).fetchone()
            if cur != expected:
                raise CampaignConflict()
            if invitation_hash is not None:
                row = conn.execute("SELECT invitation_hash FROM campaign_invitations WHERE campaign_id = ? AND seat = ?",
                                   (campaign_id, seat)).fetchone()
                if row is None:
                    raise SeatRefused("claimed")
                if not hmac.compare_digest(row[0], invitation_hash):
                    raise SeatRefused("wrong")
                conn.execute("DELETE FROM campaign_invitations WHERE campaign_id = ? AND seat = ?", (campaign_id, seat))
                conn.execute("INSERT INTO campaign_seats (campaign_id, seat, token_hash) VALUES (?,?,?)",
                             (campaign_id, seat, new_token_hash))
            else:
                changed = conn.execute("UPDATE campaign_seats SET token_hash = ? WHERE campaign_id = ? AND seat = ?"
                                       " AND token_hash = ?", (new_token_hash, campaign_id, seat, old_token_hash))
                if changed.rowcount != 1:
                    raise SeatRefused("not-holder")
            try:
                self._insert(conn, campaign_id, cur + 1, emitted, version_of_chain, bytes.fromhex(seed), seat)
            except self.store.integrity_errors:
                raise CampaignConflict() from None
            conn.execute("UPDATE campaigns SET version = ? WHERE campaign_id = ?", (cur + len(emitted), campaign_id))
            return cur + len(emitted), (append_battle(conn) if append_battle is not None else None)

        return self.store.transaction(tx)

    def verify(self, campaign_id: str, *, with_seed: bool) -> tuple[ChainReport, ChainReport | None]:
        """(the chain, the commitments -- only ``with_seed``) of a campaign's stream (chain version 2)."""
        row = self.row(campaign_id)
        assert row is not None
        rows = [chain_row(r) | {"prev_hash": r["prev_hash"], "hash": r["hash"]} for r in self.stored(campaign_id)]
        # the stream says whether it is chained, not the row: a campaign stored before chains has no hash or
        # commitment anywhere, so a row lowered to chain version 1 cannot switch the check off
        chained = any(r["hash"] is not None or r["commitment"] is not None for r in rows)
        if row["chain_version"] != chain.CHAIN_V2 and not chained:
            return ChainReport(ok=True, events=len(rows), problem="a campaign stored before chains: not chained"), None
        if row["chain_version"] != chain.CHAIN_V2:
            return ChainReport(ok=False, events=len(rows), first_broken_seq=1,
                               problem=f"campaigns.chain_version is {row['chain_version']!r} (not chained) but the "
                                       f"campaign's stream is chained (chain version {chain.CHAIN_V2})"), None
        prev = chain.GENESIS
        report = ChainReport(ok=True, events=len(rows))
        for n, r in enumerate(rows, start=1):
            problem = None
            if r["seq"] != n:
                problem = f"seq {n} missing or out of order"
            elif r["prev_hash"] != prev:
                problem = "prev_hash does not match the previous event's hash"
            elif chain.row_hash(prev, r, chain.CHAIN_V2) != r["hash"]:
                problem = "hash does not match the event's content"
            if problem is not None:
                report = ChainReport(ok=False, events=len(rows), first_broken_seq=n, problem=problem)
                break
            prev = r["hash"]
        if report.ok and len(rows) != row["version"]:
            report = ChainReport(ok=False, events=len(rows), first_broken_seq=min(len(rows), row["version"]) + 1,
                                 problem=f"the campaign is at version {row['version']} but its log has {len(rows)} events")
        if not with_seed:
            return report, None
        key = chain.commit_key(bytes.fromhex(row["seed"]))
        for r in rows:
            bad = chain.public_payload_problem(r)
            if bad is None and chain.commitment(key, campaign_id, r["seq"], chain.row_private(r)) != r["commitment"]:
                bad = "the commitment does not match the event's private part"
            if bad is not None:
                return report, ChainReport(ok=False, events=len(rows), first_broken_seq=r["seq"], problem=bad)
        return report, ChainReport(ok=True, events=len(rows))
