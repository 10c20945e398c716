"""Verification of one stored game (DESIGN sections 2, 3 and 8).

- **Chain**: the hash of every event under the chain version the *log* states (:func:`log_header`:
  event 1's ``game_created`` header says 2; a log without a header is one stored before, version 1),
  never the games row's; the seqs run 1..version without a gap. Chain version 2 covers each event's
  public part and the commitment of the rest, so the same check runs over what any caller sees. Every
  event must also be readable (it decodes as an event of the header's ruleset, its type column is its
  payload's type): an edited event is reported at its seq, never raised.
- **Row against the log**: the games row is a cache and trusted for nothing. Its version must be the
  last seq; its chain version, ruleset, scenario, setup (seats, options), seed commitment, campaign and
  creation time must be what the header says; its status and winner must be the fold's (folded with the
  header's ruleset and setup). Every disagreement is listed.
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

Over 500 lines on purpose: every check of one stored game (chain, row against log, dice, sealed parts,
receipt) reports into the same report, in the order DESIGN 2 and 3 state them.
"""
from __future__ import annotations

import base64
import binascii
from typing import Any

import msgspec

from domain.kernel import FINISHED, GameCreated, Setup, chain, game_status, registry
from domain.kernel import choices as rule_choices
from domain.kernel.dice import Roll, check_commitment, check_next, verify_roll
from domain.kernel.envelope import event_type_name
from domain.kernel.fold import decode_event
from domain.kernel.reveals import event_classes
from domain.kernel.seals import is_sealed_type, seal_problems

from .game_service import _fold_records
from .receipts import check_against_log, signature_ok
from .seating import seats_public
from .store import (
    GameRow,
    SeedUnavailable,
    StoredEvent,
    verify_chain,
    verify_commitments,
)
from .store_contract import Store

_rolls_decoder = msgspec.json.Decoder(list[Roll])
_header_decoder = msgspec.json.Decoder(GameCreated)
_type_decoder = msgspec.json.Decoder(dict[str, Any])
HEADER_TYPE = "game_created"


class LogHeader(msgspec.Struct, frozen=True, kw_only=True):
    """What the log itself says about its chain (never the games row): event 1's ``game_created`` header,
    the chain version it states, and what is wrong with event 1 (None: nothing)."""

    chain_version: int
    header: GameCreated | None = None
    problem: str | None = None


def log_header(events: list[StoredEvent]) -> LogHeader:
    """The chain version a log states. Every game stored since chain version 2 opens with its
    ``game_created`` header (the header and chain version 2 came together), which states its chain version:
    the log is verified under it. A log whose event 1 is no header is a game stored before (chain version
    1). Event 1 counts as a header when its type column *or* its payload's ``type`` says so, so renaming
    one of them does not turn a chain-version-2 game into a chain-version-1 one."""
    if not events or events[0].seq != 1:
        return LogHeader(chain_version=chain.CHAIN_V1)
    first = events[0]
    try:
        payload_type = _type_decoder.decode(first.payload).get("type")
    except (msgspec.DecodeError, msgspec.ValidationError):
        payload_type = None
    if first.type != HEADER_TYPE and payload_type != HEADER_TYPE:
        return LogHeader(chain_version=chain.CHAIN_V1)
    if first.type != payload_type:
        return LogHeader(chain_version=chain.CHAIN_V2, problem=f"event 1: its type column says {first.type!r} but "
                         f"its payload says {payload_type!r} (a game_created header renamed)")
    try:
        header = _header_decoder.decode(first.payload)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        return LogHeader(chain_version=chain.CHAIN_V2, problem=f"event 1: the game_created header does not decode ({exc})")
    if header.chain_version != chain.CHAIN_V2:
        # verified under what it states, and reported: no header was ever written under another chain version
        return LogHeader(chain_version=header.chain_version if header.chain_version in chain.CHAIN_VERSIONS
                         else chain.CHAIN_V2, header=header,
                         problem=f"event 1: the game_created header states chain version {header.chain_version!r};"
                         f" headers are only written under chain version {chain.CHAIN_V2}")
    return LogHeader(chain_version=header.chain_version, header=header)


def v1_problem(events: list[StoredEvent]) -> tuple[int, str] | None:
    """A chain-version-1 log holds nothing of chain version 2 (events stored under version 1 never had a
    commitment, a spectator payload or a step): the first event that does, as ``(seq, why)``."""
    for ev in events:
        if ev.commitment is not None or ev.public_payload is not None or ev.step is not None:
            return ev.seq, "a chain-version-1 log with a chain-version-2 event (commitment, spectator payload or step)"
    return None


def event_problem(ruleset: Any, events: list[StoredEvent]) -> tuple[int, str] | None:
    """The first event this engine cannot read, as ``(seq, why)``: its payload does not decode as an event
    of ``ruleset``, its type column is not its payload's type, or its rolls are not a list of rolls."""
    for ev in events:
        try:
            decoded = decode_event(ruleset, ev.payload)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            return ev.seq, f"the event does not decode as an event of ruleset {ruleset.id!r} ({exc})"
        tag = event_type_name(decoded)
        if tag != ev.type:
            return ev.seq, f"its type column says {ev.type!r} but its payload is a {tag!r} event"
        try:
            _rolls_decoder.decode(ev.rolls)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            return ev.seq, f"its rolls column is not a list of rolls ({exc})"
    return None


class VerifyReport(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    version: int
    events: int
    #: The status of the fold of the log (the row's when this engine cannot fold it: its ruleset is not
    #: installed here, or an event does not decode -- then ``chain_ok`` is False).
    status: str
    chain_ok: bool
    #: The chain version the log states (event 1's header; 1 for a log without one), never the row's.
    chain_version: int = 1
    #: The game is finished by the fold of the log (by the row only when the ruleset is not installed here,
    #: or for the operator's own check): the seed, commitments and dice are shown and checked.
    finished: bool = False
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
    #: The rule choices in force (DESIGN 14): the header's, or for a header written before choices existed the
    #: readings it is folded under. None when the ruleset is not installed here or the log cannot be folded.
    choices: dict[str, str] | None = None
    #: The same in words, the ids beside them ("E-Web re-roll: all dice (HOTH-CHOICE-EWEB all)"), for the CLI.
    choice_words: tuple[str, ...] | None = None
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
    #: UMPIRE-SEAL-2: a game handed a sealed setup: ``{"parts", "ok", "problems"}`` (each sealed event against
    #: the header's commitment, checked by the service, which holds them; nothing of their content is shown).
    sealed: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        """Everything that can be checked now checks out."""
        if not self.chain_ok or not self.row_ok or self.receipt_ok is False:
            return False
        if self.sealed is not None and not self.sealed["ok"]:
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
        if self.choices is not None:
            out["choices"] = self.choices
        if self.sealed is not None:
            out["sealed"] = self.sealed
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
            try:
                bad = check_rolls(event, tuple(rolls)) if event is not None else None
            except Exception as exc:  # noqa: BLE001 -- an event edited into a shape the ruleset's check does not expect
                bad = f"its faces cannot be checked against its draws ({type(exc).__name__}: {exc})"
            if bad:
                return False, checked, ev.seq, f"seq {ev.seq}: {bad}"
    return True, checked, None, None


def _setup(row: GameRow, header: GameCreated | None) -> Setup:
    """The setup the log states (the header's), else the row's (a log stored before headers)."""
    if header is not None:
        return Setup(game_id=header.game_id, ruleset=header.ruleset, scenario=header.scenario, seats=tuple(header.seats),
                     options=dict(header.options), choices=dict(header.choices or {}))
    return msgspec.json.decode(row.setup, type=Setup)


class _Fold(msgspec.Struct, frozen=True, kw_only=True):
    """The fold of a log for the verifier: its status and kernel state, or the first seq it cannot read."""

    status: Any = None
    kernel: Any = None
    bad_seq: int | None = None
    problem: str | None = None


def _fold(row: GameRow, header: GameCreated | None, events: list[StoredEvent], folded: Any = None) -> _Fold | None:
    """The log folded by this engine; None when the ruleset is not installed here. The ruleset and setup
    are the header's (the row's only for a log stored before headers). ``folded``: the service's fold of
    the same log (it keeps one), used only when the row agrees with the header on what it folds with."""
    rs = registry.get(header.ruleset if header is not None else row.ruleset)
    if rs is None:
        return None

    last = events[-1].seq if events else 0
    try:
        setup = _setup(row, header)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        return _Fold(bad_seq=1, problem=f"games.setup cannot be read ({exc})")
    bad = event_problem(rs, events)
    if bad is not None:
        return _Fold(bad_seq=bad[0], problem=f"seq {bad[0]}: {bad[1]}")
    same = header is None or (row.ruleset == header.ruleset and _row_setup(row) == setup)

    try:
        if not (same and folded is not None and folded.version == last):
            folded = _fold_records(rs, setup, events)
        return _Fold(status=game_status(rs, folded.state, folded.kernel), kernel=folded.kernel)
    except Exception as exc:  # a log this engine cannot fold is reported, not raised
        return _Fold(bad_seq=last or 1, problem=f"the log cannot be folded ({type(exc).__name__}: {exc})")


def _sealed_report(header: GameCreated | None, events: list[StoredEvent]) -> dict[str, Any] | None:
    """UMPIRE-SEAL-2: the sealed events of the log against the header's commitments (None: nothing sealed)."""
    rs = registry.get(header.ruleset) if header is not None else None
    if rs is None or header is None:
        return None
    declared = {} if header.sealed is msgspec.UNSET else dict(header.sealed)
    types = {t for t, c in event_classes(rs).items() if is_sealed_type(c)}
    try:
        dealt = [decode_event(rs, e.payload) for e in events if e.type in types]
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        return {"parts": sorted(declared), "ok": False, "problems": [f"a sealed event cannot be read ({exc})"]}
    problems = seal_problems(declared, dealt)
    if not declared and not problems:
        return None
    return {"parts": sorted(declared), "ok": not problems, "problems": problems}


def _row_setup(row: GameRow) -> Setup | None:
    try:
        return msgspec.json.decode(row.setup, type=Setup)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def _row_problems(row: GameRow, events: list[StoredEvent], lh: LogHeader, st: Any) -> list[str]:
    """What the games row claims against what the log says: its version against the last seq; its chain
    version against the one the log states (event 1); every field event 1's header states (ruleset,
    scenario, seats, options, seed commitment, campaign, creation time); its status and winner against
    the fold of the log."""
    out: list[str] = []
    last = events[-1].seq if events else 0
    if row.version != last:
        out.append(f"games.version is {row.version} but the log ends at seq {last}")
    header = lh.header
    if row.chain_version != lh.chain_version:
        said = "the game_created header says" if header is not None else "the log (no game_created header) says"
        out.append(f"games.chain_version is {row.chain_version!r} but {said} {lh.chain_version!r}")
    if header is None and lh.chain_version == chain.CHAIN_V2:
        out.append("event 1 is not the game's game_created header")
    if header is not None:
        first = events[0]
        try:
            setup = msgspec.json.decode(row.setup)
        except msgspec.DecodeError:
            setup = {}
        want = {"game_id": header.game_id, "ruleset": header.ruleset, "scenario": header.scenario,
                "seed_commitment": header.seed_commitment, "campaign_id": header.campaign_id,
                "created_at": first.recorded_at,
                "setup.seats": list(header.seats), "setup.options": header.options,
                "setup.choices": header.choices or {}}
        have = {"game_id": row.game_id, "ruleset": row.ruleset, "scenario": row.scenario,
                "seed_commitment": row.seed_commitment, "campaign_id": row.campaign_id,
                "created_at": row.created_at,
                "setup.seats": list(setup.get("seats", ())) if isinstance(setup, dict) else None,
                "setup.options": setup.get("options", {}) if isinstance(setup, dict) else None,
                "setup.choices": setup.get("choices", {}) if isinstance(setup, dict) else None}
        for k, v in want.items():
            if have[k] != v:
                out.append(f"games.{k} is {have[k]!r} but the game_created header says {v!r}")
    if st is not None:  # the fold's Status
        if row.status != st.status:
            out.append(f"games.status is {row.status!r} but the fold of the log says {st.status!r}")
        if row.winner != st.winner:
            out.append(f"games.winner is {row.winner!r} but the fold of the log says {st.winner!r}")
    return out


def verify_game(store: Store, game_id: str, *, receipt: dict[str, Any] | None = None,
                public_key: bytes | None = None, folded: Any = None, private_before_end: bool = True) -> VerifyReport:
    """Verify one game; raises :class:`service.store.UnknownGame` for an unknown id.

    Nothing the games row says is trusted: the chain version, ruleset and setup are event 1's (the
    ``game_created`` header), the status and winner the fold's; the row is compared with them
    (``row_problems``). A log this engine cannot read is reported at its first unreadable seq, never raised.

    ``receipt`` (with the server's ``public_key``, raw 32 bytes): also prove the log against it.
    ``folded``: the service's fold of the log (:class:`service.game_service.Folded`), to spare a fold.
    ``private_before_end``: also check the private parts against their commitments while the game runs
    (the operator's ``umpire verify`` does; ``GET /verify`` checks them once the game is finished, when
    every caller can)."""
    game = store.require_game(game_id)
    events = store.load(game_id)
    lh = log_header(events)
    version_of_chain = lh.chain_version
    report = verify_chain(events, version_of_chain)
    chain_ok, first, problem = report.ok, report.first_broken_seq, report.problem

    def broken(seq: int | None, why: str | None) -> None:
        nonlocal chain_ok, first, problem
        if seq is not None and (first is None or seq < first):
            chain_ok, first, problem = False, seq, why

    if lh.problem is not None:
        broken(1, lh.problem)
    if version_of_chain == chain.CHAIN_V1:
        bad = v1_problem(events)
        if bad is not None:
            broken(*bad)
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
    if version_of_chain == chain.CHAIN_V2 and seed_known is not None and private_before_end:
        # this verifier holds the seed (the service, the operator): the private parts are checked against
        # their commitments now; every caller can check them once the seed is revealed at the end
        commits = verify_commitments(events, seed_known)
        if not commits.ok:
            broken(commits.first_broken_seq, commits.problem)
    fold = _fold(game, lh.header, events, folded)
    if fold is not None and fold.problem is not None:
        broken(fold.bad_seq, fold.problem)
    folded_ok = fold is not None and fold.problem is None
    problems = _row_problems(game, events, lh, fold.status if folded_ok else None)  # type: ignore[union-attr]
    status = fold.status.status if folded_ok else game.status  # type: ignore[union-attr]
    kernel = fold.kernel if folded_ok else None  # type: ignore[union-attr]
    # the seed is shown once the fold of the log says finished. The row's word counts only when this engine
    # does not have the ruleset at all, or for the operator (``private_before_end``: it holds the seed) when
    # the log cannot be folded: an edited row, or a log edited so that it cannot be folded, never reveals it
    finished = status == FINISHED and (folded_ok or fold is None or private_before_end)
    client_seeds = kernel.client_seeds if kernel is not None else None
    seed_given = kernel.header.seed_given if kernel is not None and kernel.header is not None else None
    choices = choice_words = None
    if kernel is not None and kernel.header is not None:
        declared = rule_choices.declared(registry.get(kernel.header.ruleset))
        choices = rule_choices.in_force(declared, kernel.header.choices)
        choice_words = tuple(rule_choices.phrases(declared, choices))
    fields: dict[str, Any] = {"seating": seats_public(kernel)}
    if receipt is not None:
        if public_key is None:
            fields.update(receipt_ok=False, receipt_problem="no public key to check the receipt's signature with")
        else:
            bad = signature_ok(receipt, public_key) or check_against_log(receipt, game_id, [e.hash for e in events])
            if bad is None and not chain_ok and first is not None and first <= receipt["version"]:
                bad = f"the log below the receipt does not verify (chain broken at seq {first})"
            fields.update(receipt_ok=bad is None, receipt_problem=bad)
    if finished:
        seed = seed_known
        if seed is None:
            fields.update(commitment_ok=False, dice_ok=False, rolls_checked=0,
                          dice_problem="the seed is not in this store")
        else:
            commitment = lh.header.seed_commitment if lh.header is not None else game.seed_commitment
            dice_ok, checked, bad_seq, dice_problem = check_dice(
                seed, game_id, events, kernel.mix if kernel is not None else None,
                registry.get(lh.header.ruleset if lh.header is not None else game.ruleset))
            fields.update(
                seed=seed.hex(),
                commitment_ok=len(seed) == 32 and check_commitment(seed, commitment),
                dice_ok=dice_ok,
                rolls_checked=checked,
                first_bad_roll_seq=bad_seq,
                dice_problem=dice_problem,
            )
            if version_of_chain == chain.CHAIN_V2:
                if commits is None:
                    commits = verify_commitments(events, seed)
                fields.update(commitments_ok=commits.ok, first_bad_commitment_seq=commits.first_broken_seq,
                              commitments_problem=commits.problem)
    return VerifyReport(
        game_id=game_id, version=game.version, events=len(events), status=status, finished=finished,
        chain_version=version_of_chain, chain_ok=chain_ok, first_broken_seq=first, problem=problem,
        row_ok=not problems, row_problems=tuple(problems), client_seeds=client_seeds, seed_given=seed_given, choices=choices,
        choice_words=choice_words,
        sealed=_sealed_report(lh.header, events), **fields,
    )


__all__ = ["LogHeader", "VerifyReport", "check_dice", "event_problem", "log_header", "parse_receipt", "v1_problem",
           "verify_game"]
