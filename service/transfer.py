"""Export and import of one game as JSON lines (DESIGN section 2, issue 2).

Line 1, the header::

    {"kind": "umpire-game", "format": 2, "game": {<games row>},
     "seats": {"<seat>": "<sha256 of the token>"}, "events": <count>,
     "seed": "<64 hex>",          # seed only if finished, or exported with secrets
     "invitations": {"<seat>": "<sha256 of the invitation>"}}   # open invitations (UMPIRE-SEAT-2)

Then one line per stored event, every column as stored (hashes included)::

    {"kind": "event", "game_id": ..., "seq": 1, ..., "prev_hash": ..., "hash": ...}

Import checks everything before writing anything: the header, every line,
the hash chain, the version, that the seed matches the commitment; it refuses
a game id that is already in the store; then it writes the game in one
transaction. A game exported without its seed can be verified (chain) but not
played on: its dice cannot be rolled without the seed. The invitations still open travel
with the game (their hashes only), so a seat offered by invitation can still be claimed
after the import; an invitation for a seat the game does not have is refused.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import IO

import msgspec

from .store import GameRow, SeedUnavailable, StoreError, StoredEvent, verify_chain, verify_commitments
from .store_contract import Store
from .verify import log_header, v1_problem

#: 2: games carry ``chain_version`` and chain-version-2 events their ``public_payload``,
#: ``commitment`` and ``step`` (issue 10). Files of format 1 are read too.
FORMAT = 2
FORMATS = (1, 2)
HEADER_KIND = "umpire-game"
EVENT_KIND = "event"
FINISHED = "finished"


class TransferError(StoreError):
    """A malformed or inconsistent export file; the message names the line and the problem."""


class Header(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    kind: str
    format: int
    game: GameRow
    seats: dict[str, str]
    events: int
    seed: str | None = None
    #: seat -> sha256 of its invitation still open (absent in files written before invitations travelled).
    invitations: dict[str, str] = {}


class EventLine(StoredEvent, frozen=True, kw_only=True, forbid_unknown_fields=True):
    kind: str


_enc = msgspec.json.Encoder()
_header_dec = msgspec.json.Decoder(Header)
_event_dec = msgspec.json.Decoder(EventLine)


def export_lines(store: Store, game_id: str, *, with_secrets: bool = False) -> Iterable[bytes]:
    """The export of one game, line by line (no newline at the end of each)."""
    game = store.require_game(game_id)
    events = store.load(game_id)
    seed: str | None = None
    if game.status == FINISHED or with_secrets:
        try:
            seed = store.seed(game_id).hex()
        except SeedUnavailable:
            seed = None
    header = Header(kind=HEADER_KIND, format=FORMAT, game=game, seats=store.seat_hashes(game_id),
                    events=len(events), seed=seed, invitations=store.invitation_hashes(game_id))
    yield _enc.encode(header)
    for ev in events:
        d = msgspec.structs.asdict(ev)
        d["kind"] = EVENT_KIND
        yield _enc.encode(d)


def export_game(store: Store, game_id: str, out: IO[bytes], *, with_secrets: bool = False) -> int:
    """Write the export to a binary stream; returns the number of events written."""
    n = -1
    for line in export_lines(store, game_id, with_secrets=with_secrets):
        out.write(line + b"\n")
        n += 1
    return n


def _decode(lines: Iterable[bytes | str]) -> tuple[Header, list[StoredEvent]]:
    header: Header | None = None
    events: list[StoredEvent] = []
    for lineno, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        if header is None:
            try:
                header = _header_dec.decode(line)
            except msgspec.DecodeError as exc:
                raise TransferError(f"line {lineno}: not an umpire game header: {exc}") from None
            if header.kind != HEADER_KIND:
                raise TransferError(f"line {lineno}: kind is {header.kind!r}, expected {HEADER_KIND!r}")
            if header.format not in FORMATS:
                raise TransferError(f"line {lineno}: format {header.format} is not supported (this umpire reads "
                                    f"{', '.join(map(str, FORMATS))})")
            continue
        try:
            e = _event_dec.decode(line)
        except msgspec.DecodeError as exc:
            raise TransferError(f"line {lineno}: not an event line: {exc}") from None
        if e.kind != EVENT_KIND:
            raise TransferError(f"line {lineno}: kind is {e.kind!r}, expected {EVENT_KIND!r}")
        if e.game_id != header.game.game_id:
            raise TransferError(f"line {lineno}: event of game {e.game_id!r} in the export of {header.game.game_id!r}")
        d = msgspec.structs.asdict(e)
        del d["kind"]
        events.append(StoredEvent(**d))
    if header is None:
        raise TransferError("empty file: no umpire game header")
    return header, events


def read_export(lines: Iterable[bytes | str]) -> tuple[Header, list[StoredEvent], bytes | None]:
    """Parse and check an export completely; raises :class:`TransferError` on the first problem."""
    header, events = _decode(lines)
    game = header.game
    if header.events != len(events):
        raise TransferError(f"header announces {header.events} events, the file has {len(events)}")
    stated = log_header(events)  # the chain version event 1 states, never the export's word for it
    if stated.problem is not None:
        raise TransferError(f"chain broken at seq 1: {stated.problem}")
    if game.chain_version != stated.chain_version:
        raise TransferError(f"game.chain_version is {game.chain_version!r} but the log states chain version "
                            f"{stated.chain_version}")
    if stated.chain_version == 1 and (bad := v1_problem(events)) is not None:
        raise TransferError(f"chain broken at seq {bad[0]}: {bad[1]}")
    chain = verify_chain(events, stated.chain_version)
    if not chain.ok:
        raise TransferError(f"chain broken at seq {chain.first_broken_seq}: {chain.problem}")
    if game.version != len(events):
        raise TransferError(f"game.version is {game.version} but the file has {len(events)} events")
    seats = set((stated.header.seats if stated.header is not None else ()) or header.seats)
    stray = sorted(set(header.invitations) - seats)
    if stray:
        raise TransferError(f"invitations: {stray[0]!r} is not a seat of this game")
    seed: bytes | None = None
    if header.seed is not None:
        try:
            seed = bytes.fromhex(header.seed)
        except ValueError:
            seed = None
        if seed is None or len(seed) != 32 or header.seed != seed.hex():
            raise TransferError("seed: must be 64 lowercase hex characters")
        if hashlib.sha256(seed).hexdigest() != game.seed_commitment:
            raise TransferError("seed: does not match the game's seed_commitment")
        if game.chain_version == 2:
            commits = verify_commitments(events, seed)
            if not commits.ok:
                raise TransferError(f"commitment broken at seq {commits.first_broken_seq}: {commits.problem}")
    elif game.status == FINISHED:
        raise TransferError("seed: a finished game's export must carry its revealed seed")
    return header, events, seed


def import_game(store: Store, lines: Iterable[bytes | str]) -> GameRow:
    """Check an export and write it into ``store`` in one transaction; returns the game row.

    Raises :class:`TransferError` for a bad file and :class:`service.store.GameExists`
    when the game id is already in the store.
    """
    header, events, seed = read_export(lines)
    store.import_game(header.game, header.seats, seed, events, header.invitations)
    return header.game


def import_file(store: Store, path: str) -> GameRow:
    try:
        with open(path, "rb") as f:
            return import_game(store, f)
    except OSError as exc:
        raise TransferError(f"cannot read {path}: {exc.strerror}") from None


__all__ = ["Header", "TransferError", "export_game", "export_lines", "import_file", "import_game", "read_export"]
