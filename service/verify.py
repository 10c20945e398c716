"""Verification of one stored game (DESIGN sections 2, 3 and 8).

- **Chain**: the hash of every event under the game's chain version (:mod:`service.chain`), the
  seqs run 1..version without a gap. Chain version 2 covers each event's public part and the
  commitment of the rest, so the same check runs over what any caller sees.
- **Row against the log**: the games row is a cache. Its version must be the last seq; its ruleset,
  scenario, setup, seed commitment, campaign and creation time must be what the ``game_created``
  header (event 1) says; its status and winner must be the fold's. Every disagreement is listed.
- **Receipt** (optional): a receipt the service signed must verify with its public key, and the log
  must still hold the head it signed (a tail cut or a rewrite below it is proven).
- **Seed** (once the *fold* says finished: editing the row cannot reveal the seed early): it is 32
  bytes whose sha256 is the published commitment; chain version 2: every event's commitment matches
  its stored private part and every spectator payload is the payload without its private fields.
- **Dice** (once finished): every recorded draw is recomputed from the revealed seed (and the seats'
  client seeds of a ``when_ready`` game); every index of every stream is used exactly once, in order;
  and the faces recorded in each event follow from its draws' values (the ruleset's optional
  ``check_rolls(event, rolls)``; rulesets without it record no faces of their own to check).

``GET /games/{id}/verify`` answers :meth:`VerifyReport.body`; ``umpire verify`` prints the report.
"""
from __future__ import annotations

import base64
import binascii
from typing import Any

import msgspec

from domain.kernel import FINISHED, GameCreated, Setup, registry
from domain.kernel.dice import Roll, check_commitment, check_next, verify_roll
from domain.kernel.fold import decode_event

from domain.kernel import chain
from .receipts import check_against_log, signature_ok
from .seating import seats_public
from .store import EventStore, GameRow, SeedUnavailable, StoredEvent, verify_chain, verify_commitments

_rolls_decoder = msgspec.json.Decoder(list[Roll])


class VerifyReport(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    version: int
    events: int
    #: The status of the fold of the log (the row's when the ruleset is not installed here).
    status: str
    chain_ok: bool
    chain_version: int = 1
    first_broken_seq: int | None = None
    problem: str | None = None
    #: The games row agrees with the log (header, version, status, winner).
    row_ok: bool = True
    row_problems: tuple[str, ...] = ()
    #: The client seeds of a ``when_ready`` game (seat -> seed or None), once recorded.
    client_seeds: dict[str, str | None] | None = None
    #: The game's creator gave its seed (the header says so): the creator can compute every draw.
    seed_given: bool | None = None
    #: DESIGN 4 (UMPIRE-SEAT-5): ``{"seating", "seats", "creator_holds"}``, from the log's seat events.
    seating: dict[str, Any] | None = None
    #: A given receipt: signed by this server and still held by the log.
    receipt_ok: bool | None = None
    receipt_problem: str | None = None
    #: Only once the game is finished: the revealed seed, 64 lowercase hex.
    seed: str | None = None
    commitment_ok: bool | None = None
    #: Chain version 2, once finished: every event's commitment against its private part.
    commitments_ok: bool | None = None
    first_bad_commitment_seq: int | None = None
    commitments_problem: str | None = None
    dice_ok: bool | None = None
    rolls_checked: int | None = None
    #: The first event whose recorded rolls do not match the seed.
    first_bad_roll_seq: int | None = None
    dice_problem: str | None = None

    @property
    def finished(self) -> bool:
        return self.status == FINISHED

    @property
    def ok(self) -> bool:
        """Everything that can be checked now checks out."""
        if not self.chain_ok or not self.row_ok or self.receipt_ok is False:
            return False
        if self.finished:
            return bool(self.commitment_ok) and bool(self.dice_ok) and self.commitments_ok is not False
        return True

    def body(self) -> dict[str, Any]:
        """The JSON body of ``GET /games/{id}/verify`` (DESIGN section 8, CONTRACTS): ``chain_ok``
        always; ``seed``, ``dice_ok`` (and ``commitment_ok``, ``commitments_ok``) only once finished;
        ``client_seeds`` for a ``when_ready`` game; ``first_broken_seq``/``problem``,
        ``row_problems`` when something is wrong; ``receipt_ok`` when a receipt was given."""
        out: dict[str, Any] = {"game_id": self.game_id, "version": self.version, "status": self.status,
                               "chain_version": self.chain_version, "chain_ok": self.chain_ok, "row_ok": self.row_ok}
        if not self.chain_ok:
            out["first_broken_seq"] = self.first_broken_seq
            out["problem"] = self.problem
        if not self.row_ok:
            out["row_problems"] = list(self.row_problems)
        if self.client_seeds is not None:
            out["client_seeds"] = self.client_seeds
        if self.seed_given is not None:
            out["seed_given"] = self.seed_given
        if self.seating is not None:
            out.update(self.seating)
        if self.receipt_ok is not None:
            out["receipt_ok"] = self.receipt_ok
            if self.receipt_problem:
                out["receipt_problem"] = self.receipt_problem
        if self.finished:
            out["seed"] = self.seed
            out["commitment_ok"] = self.commitment_ok
            if self.commitments_ok is not None:
                out["commitments_ok"] = self.commitments_ok
                if not self.commitments_ok:
                    out["first_bad_commitment_seq"] = self.first_bad_commitment_seq
                    out["commitments_problem"] = self.commitments_problem
            out["dice_ok"] = self.dice_ok
            out["rolls_checked"] = self.rolls_checked
            if not self.dice_ok:
                out["first_bad_roll_seq"] = self.first_bad_roll_seq
                out["dice_problem"] = self.dice_problem
        return out


def parse_receipt(text: str) -> dict[str, Any]:
    """A receipt given as its JSON, or base64url of its JSON (ValueError otherwise)."""
    raw = text.strip()
    if len(raw) > 8192:
        raise ValueError("receipt: too long for a receipt")
    if not raw.startswith("{"):
        try:
            raw = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)).decode()
        except (binascii.Error, ValueError, UnicodeDecodeError):
            raise ValueError("receipt: give the receipt's JSON, or base64url of it") from None
    try:
        out = msgspec.json.decode(raw.encode() if isinstance(raw, str) else raw)
    except (msgspec.DecodeError, RecursionError):
        raise ValueError("receipt: not JSON") from None
    if isinstance(out, dict) and isinstance(out.get("receipt"), dict):
        out = out["receipt"]  # a whole answer that carries a receipt
    if not isinstance(out, dict):
        raise ValueError("receipt: a JSON object {game_id, version, head, key_id, signature}")
    return out


def check_dice(seed: bytes, game_id: str, events: list[Any], mix: str | None = None,
               ruleset: Any = None) -> tuple[bool, int, int | None, str | None]:
    """``(ok, rolls_checked, first_bad_seq, problem)`` for the ``rolls`` of ``events``: each value from
    the seed, every stream's indices used once and in order, the event's faces from the values."""
    checked = 0
    nxt: dict[str, int] = {}
    check_rolls = getattr(ruleset, "check_rolls", None) if ruleset is not None else None
    for ev in events:
        try:
            rolls = _rolls_decoder.decode(ev.rolls)
        except (msgspec.DecodeError, TypeError) as exc:
            return False, checked, ev.seq, f"seq {ev.seq}: rolls column is not a list of rolls ({exc})"
        for r in rolls:
            checked += 1
            if not verify_roll(seed, game_id, r, mix):
                return False, checked, ev.seq, (
                    f"seq {ev.seq}: roll {r.stream}#{r.index} (d{r.sides}) recorded {r.value},"
                    " the seed does not give that"
                )
        problem = check_next(rolls, nxt)
        if problem is not None:
            return False, checked, ev.seq, f"seq {ev.seq}: {problem}"
        if check_rolls is not None and rolls:
            try:
                event = decode_event(ruleset, ev.payload)
            except (msgspec.DecodeError, msgspec.ValidationError):
                event = None  # not an event of this ruleset: no faces of its own to check
            bad = check_rolls(event, tuple(rolls)) if event is not None else None
            if bad:
                return False, checked, ev.seq, f"seq {ev.seq}: {bad}"
    return True, checked, None, None


def _fold(row: GameRow, events: list[StoredEvent], folded: Any = None) -> tuple[Any, Any, Any] | None:
    """(ruleset, status, kernel state) of the log, or None when the ruleset is not installed here
    or the log cannot be folded. ``folded``: the service's fold of the same log (it keeps one)."""
    rs = registry.get(row.ruleset)
    if rs is None:
        return None
    from domain.kernel import game_status as _status

    if folded is not None and folded.version == (events[-1].seq if events else 0):
        return rs, _status(rs, folded.state, folded.kernel), folded.kernel
    from .game_service import _fold_records
    from domain.kernel import game_status

    try:
        setup = msgspec.json.decode(row.setup, type=Setup)
        folded = _fold_records(rs, setup, events)
    except Exception:  # a log this engine cannot fold is reported, not raised
        return None
    return rs, game_status(rs, folded.state, folded.kernel), folded.kernel


def _row_problems(row: GameRow, events: list[StoredEvent], folded: Any) -> list[str]:
    out: list[str] = []
    last = events[-1].seq if events else 0
    if row.version != last:
        out.append(f"games.version is {row.version} but the log ends at seq {last}")
    if row.chain_version == chain.CHAIN_V2:
        first = events[0] if events else None
        header = None
        if first is not None and first.type == "game_created":
            try:
                header = msgspec.json.decode(first.payload, type=GameCreated)
            except (msgspec.DecodeError, msgspec.ValidationError):
                header = None
        if header is None:
            out.append("event 1 is not the game's game_created header")
        else:
            try:
                setup = msgspec.json.decode(row.setup)
            except msgspec.DecodeError:
                setup = {}
            want = {"game_id": header.game_id, "ruleset": header.ruleset, "scenario": header.scenario,
                    "seed_commitment": header.seed_commitment, "campaign_id": header.campaign_id,
                    "chain_version": header.chain_version, "created_at": first.recorded_at,  # type: ignore[union-attr]
                    "setup.seats": list(header.seats), "setup.options": header.options}
            have = {"game_id": row.game_id, "ruleset": row.ruleset, "scenario": row.scenario,
                    "seed_commitment": row.seed_commitment, "campaign_id": row.campaign_id,
                    "chain_version": row.chain_version, "created_at": row.created_at,
                    "setup.seats": list(setup.get("seats", ())) if isinstance(setup, dict) else None,
                    "setup.options": setup.get("options", {}) if isinstance(setup, dict) else None}
            for k, v in want.items():
                if have[k] != v:
                    out.append(f"games.{k} is {have[k]!r} but the game_created header says {v!r}")
    if folded is not None:
        st = folded[1]
        if row.status != st.status:
            out.append(f"games.status is {row.status!r} but the fold of the log says {st.status!r}")
        if row.winner != st.winner:
            out.append(f"games.winner is {row.winner!r} but the fold of the log says {st.winner!r}")
    return out


def verify_game(store: EventStore, game_id: str, *, receipt: dict[str, Any] | None = None,
                public_key: bytes | None = None, folded: Any = None, private_before_end: bool = True) -> VerifyReport:
    """Verify one game; raises :class:`service.store.UnknownGame` for an unknown id.

    ``receipt`` (with the server's ``public_key``, raw 32 bytes): also prove the log against it.
    ``folded``: the service's fold of the log (:class:`service.game_service.Folded`), to spare a fold.
    ``private_before_end``: also check the private parts against their commitments while the game runs
    (the operator's ``umpire verify`` does; ``GET /verify`` checks them once the game is finished, when
    every caller can)."""
    game = store.require_game(game_id)
    events = store.load(game_id)
    report = verify_chain(events, game.chain_version)
    chain_ok, first, problem = report.ok, report.first_broken_seq, report.problem
    last = events[-1].seq if events else 0
    if chain_ok and game.version != last:
        # the log must end where the game says it is (a cut tail with a lowered version is proven by a receipt)
        chain_ok, first = False, min(game.version, last) + 1
        problem = (f"the game is at version {game.version} but the log ends at seq {last}" if game.version > last
                   else f"the log has events after the game's version {game.version}")
    seed_known: bytes | None
    try:
        seed_known = store.seed(game_id)
    except SeedUnavailable:
        seed_known = None
    commits = None
    if game.chain_version == chain.CHAIN_V2 and seed_known is not None and private_before_end:
        # this verifier holds the seed (the service, the operator): the private parts are checked against
        # their commitments now; every caller can check them once the seed is revealed at the end
        commits = verify_commitments(events, seed_known)
        if not commits.ok and (first is None or (commits.first_broken_seq or 0) < first):
            chain_ok, first, problem = False, commits.first_broken_seq, commits.problem
    folded = _fold(game, events, folded) if chain_ok else None
    problems = _row_problems(game, events, folded)
    status = folded[1].status if folded is not None else game.status
    kernel = folded[2] if folded is not None else None
    client_seeds = kernel.client_seeds if kernel is not None else None
    fields: dict[str, Any] = {}
    seed_given = kernel.header.seed_given if kernel is not None and kernel.header is not None else None
    fields["seating"] = seats_public(kernel)
    if receipt is not None:
        if public_key is None:
            fields.update(receipt_ok=False, receipt_problem="no public key to check the receipt's signature with")
        else:
            bad = signature_ok(receipt, public_key) or check_against_log(receipt, game_id, [e.hash for e in events])
            if bad is None and not chain_ok and first is not None and first <= receipt["version"]:
                bad = f"the log below the receipt does not verify (chain broken at seq {first})"
            fields.update(receipt_ok=bad is None, receipt_problem=bad)
    if status == FINISHED:
        try:
            seed = store.seed(game_id)
        except SeedUnavailable:
            seed = None
        if seed is None:
            fields.update(commitment_ok=False, dice_ok=False, rolls_checked=0,
                          dice_problem="the seed is not in this store")
        else:
            dice_ok, checked, bad_seq, dice_problem = check_dice(
                seed, game_id, events, kernel.mix if kernel is not None else None, registry.get(game.ruleset))
            fields.update(
                seed=seed.hex(),
                commitment_ok=len(seed) == 32 and check_commitment(seed, game.seed_commitment),
                dice_ok=dice_ok,
                rolls_checked=checked,
                first_bad_roll_seq=bad_seq,
                dice_problem=dice_problem,
            )
            if game.chain_version == chain.CHAIN_V2:
                if commits is None or seed != seed_known:
                    commits = verify_commitments(events, seed)
                fields.update(commitments_ok=commits.ok, first_bad_commitment_seq=commits.first_broken_seq,
                              commitments_problem=commits.problem)
    return VerifyReport(
        game_id=game_id, version=game.version, events=len(events), status=status, chain_version=game.chain_version,
        chain_ok=chain_ok, first_broken_seq=first, problem=problem, row_ok=not problems,
        row_problems=tuple(problems), client_seeds=client_seeds, seed_given=seed_given, **fields,
    )


__all__ = ["VerifyReport", "check_dice", "parse_receipt", "verify_game"]
