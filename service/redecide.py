"""Re-deciding a disputed step (DESIGN section 6).

Once a game is finished its seed is public, so anyone may ask umpire to decide
a step again: the state right before the step (the fold of the log up to it),
the dice counters of that moment (every roll recorded before it, undone ones
included), the revealed seed, the command that was sent (kept beside the
events, :meth:`service.store.EventStore.command_body`) and the *current*
engine. The answer shows what was recorded, what the current engine decides,
and every difference (a rule fixed since, for instance).

``GET /games/{id}/events/{seq}/redecide``: 409 while the game is running (the
seed is secret), 404 for a step that no command produced (the opening, undo
bookkeeping) or one recorded before commands were kept.
"""
from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import KERNEL_EVENT_TYPES, Dice, KernelCommand, NotYourDecision, RuleViolation, advance
from domain.kernel.dice import Roll

from .game_service import GameService, encode_emitted
from .problems import Problem

_rolls = msgspec.json.Decoder(list[Roll])


def _json(text: str | None) -> Any:
    return None if text is None else msgspec.json.decode(text)


def _ruleset_ruling(ruling: Any) -> Any:
    """A recorded ruling without the kernel's lines (``UMPIRE-*``: an agreed re-roll's label)."""
    if not isinstance(ruling, dict) or "steps" not in ruling:
        return ruling
    steps = [s for s in ruling["steps"] if not str(s.get("rule", "")).startswith("UMPIRE-")]
    out = dict(ruling)
    if steps:
        out["steps"] = steps
    else:
        out.pop("steps")
    return out


def redecide(svc: GameService, game_id: str, seq: int) -> dict[str, Any]:
    cur = svc.current(game_id)
    if not 1 <= seq <= cur.version:
        raise Problem(404, "not-found", f"no event {seq} in game {game_id}", field="seq")
    if not cur.finished:
        raise Problem(409, "not-finished", "a step can be re-decided once the game is finished and its seed revealed")
    found = svc.store.command_body(game_id, seq)
    if found is None:
        raise Problem(404, "not-found", f"event {seq} was not produced by a recorded command "
                      "(the opening, undo bookkeeping, or a step stored before commands were kept)", field="seq")
    first, last, seat, body = found
    rs = cur.ruleset
    before = svc.store.load(game_id, upto=first - 1)
    counters: dict[str, int] = {}
    for e in before:
        counters = advance(counters, _rolls.decode(e.rolls))
    state = svc.state_at(game_id, first - 1, cur)
    command = svc.decode_command(rs, msgspec.json.decode(body))
    if isinstance(command, KernelCommand.__args__):  # type: ignore[attr-defined]
        raise Problem(404, "not-found", f"event {seq} is undo or ready bookkeeping of the kernel, not a decision of"
                      " the rules", field="seq")
    # the draws of a when_ready game mix the seats' client seeds (DESIGN 3)
    dice = Dice(svc.store.seed(game_id), game_id, counters, mix=svc.kernel_at(game_id, first - 1, cur).mix)
    # the kernel's own events of the step (a lapsed undo request) and its lines in the rulings (an agreed
    # re-roll) are not the ruleset's decision: compared without them
    recorded = [e for e in svc.store.load(game_id, after=first - 1, upto=last) if e.type not in KERNEL_EVENT_TYPES]
    rec = [{"seq": e.seq, "type": e.type, "payload": _json(e.payload), "ruling": _ruleset_ruling(_json(e.ruling)),
            "rolls": _json(e.rolls), "engine_version": e.engine_version} for e in recorded]
    out: dict[str, Any] = {"seq": seq, "first_seq": first, "last_seq": last, "seat": seat,
                           "command": msgspec.json.decode(body), "engine_version": rs.engine_version,
                           "recorded": rec}
    try:
        emitted = rs.decide(state, seat, command, dice)
    except (RuleViolation, NotYourDecision) as exc:
        out.update(same=False, now=None, refused={"rule": getattr(exc, "rule", None), "detail": exc.detail},
                   differences=[{"field": "accepted", "recorded": True, "current": False}])
        return out
    new, _ = encode_emitted(rs, state, emitted, seat)
    base = recorded[0].seq if recorded else first
    now = [{"seq": base + i, "type": n.type, "payload": _json(n.payload), "ruling": _json(n.ruling),
            "rolls": _json(n.rolls), "engine_version": n.engine_version} for i, n in enumerate(new)]
    diffs: list[dict[str, Any]] = []
    if len(now) != len(rec):
        diffs.append({"field": "events", "recorded": [e["type"] for e in rec], "current": [e["type"] for e in now]})
    for r, n in zip(rec, now):
        for f in ("type", "payload", "ruling", "rolls"):
            if r[f] != n[f]:
                diffs.append({"seq": r["seq"], "field": f, "recorded": r[f], "current": n[f]})
    out.update(same=not diffs, now=now, differences=diffs)
    return out


__all__ = ["redecide"]
