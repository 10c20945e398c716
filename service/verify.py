"""Verification of one stored game (DESIGN sections 2, 3 and 8).

- **Chain**: every event's ``hash = sha256(prev_hash + canonical event)``, the
  seqs run 1..version without a gap, and the game row's version matches the
  last event. The first seq that does not fit is reported.
- **Seed** (once the game is finished, when the seed is revealed): the seed is
  32 bytes whose sha256 is the ``seed_commitment`` published at creation.
- **Dice** (once finished): every ``Roll`` recorded in every event's ``rolls``
  column is recomputed from the revealed seed with
  :func:`domain.kernel.dice.verify_roll`; the first event with a roll that
  does not match is reported.

``GET /games/{id}/verify`` answers :meth:`VerifyReport.body`.
"""
from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel.dice import Roll, check_commitment, verify_roll

from .store import EventStore, SeedUnavailable, verify_chain

FINISHED = "finished"

_rolls_decoder = msgspec.json.Decoder(list[Roll])


class VerifyReport(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    version: int
    events: int
    status: str
    chain_ok: bool
    first_broken_seq: int | None = None
    problem: str | None = None
    #: Only once the game is finished: the revealed seed, 64 lowercase hex.
    seed: str | None = None
    commitment_ok: bool | None = None
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
        if not self.chain_ok:
            return False
        if self.finished:
            return bool(self.commitment_ok) and bool(self.dice_ok)
        return True

    def body(self) -> dict[str, Any]:
        """The JSON body of ``GET /games/{id}/verify`` (DESIGN section 8): ``chain_ok``
        always; ``seed``, ``dice_ok`` (and ``commitment_ok``) only once finished;
        ``first_broken_seq``/``problem`` when something is wrong."""
        out: dict[str, Any] = {"game_id": self.game_id, "version": self.version, "chain_ok": self.chain_ok}
        if not self.chain_ok:
            out["first_broken_seq"] = self.first_broken_seq
            out["problem"] = self.problem
        if self.finished:
            out["seed"] = self.seed
            out["commitment_ok"] = self.commitment_ok
            out["dice_ok"] = self.dice_ok
            out["rolls_checked"] = self.rolls_checked
            if not self.dice_ok:
                out["first_bad_roll_seq"] = self.first_bad_roll_seq
                out["dice_problem"] = self.dice_problem
        return out


def check_dice(seed: bytes, game_id: str, events: list[Any]) -> tuple[bool, int, int | None, str | None]:
    """``(ok, rolls_checked, first_bad_seq, problem)`` for the ``rolls`` of ``events``."""
    checked = 0
    for ev in events:
        try:
            rolls = _rolls_decoder.decode(ev.rolls)
        except (msgspec.DecodeError, TypeError) as exc:
            return False, checked, ev.seq, f"seq {ev.seq}: rolls column is not a list of rolls ({exc})"
        for r in rolls:
            checked += 1
            if not verify_roll(seed, game_id, r):
                return False, checked, ev.seq, (
                    f"seq {ev.seq}: roll {r.stream}#{r.index} (d{r.sides}) recorded {r.value},"
                    " the seed does not give that"
                )
    return True, checked, None, None


def verify_game(store: EventStore, game_id: str) -> VerifyReport:
    """Verify one game; raises :class:`service.store.UnknownGame` for an unknown id."""
    game = store.require_game(game_id)
    events = store.load(game_id)
    chain = verify_chain(events)
    chain_ok, first, problem = chain.ok, chain.first_broken_seq, chain.problem
    if chain_ok:
        last = events[-1].seq if events else 0
        if game.version > last:
            chain_ok, first = False, last + 1
            problem = f"the game is at version {game.version} but the log ends at seq {last}"
        elif game.version < last:
            chain_ok, first = False, game.version + 1
            problem = f"the log has events after the game's version {game.version}"
    fields: dict[str, Any] = {}
    if game.status == FINISHED:
        try:
            seed = store.seed(game_id)
        except SeedUnavailable:
            seed = None
        if seed is None:
            fields = dict(commitment_ok=False, dice_ok=False, rolls_checked=0,
                          dice_problem="the seed is not in this store")
        else:
            dice_ok, checked, bad_seq, dice_problem = check_dice(seed, game_id, events)
            fields = dict(
                seed=seed.hex(),
                commitment_ok=len(seed) == 32 and check_commitment(seed, game.seed_commitment),
                dice_ok=dice_ok,
                rolls_checked=checked,
                first_bad_roll_seq=bad_seq,
                dice_problem=dice_problem,
            )
    return VerifyReport(
        game_id=game_id, version=game.version, events=len(events), status=game.status,
        chain_ok=chain_ok, first_broken_seq=first, problem=problem, **fields,
    )


__all__ = ["VerifyReport", "check_dice", "verify_game"]
