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

Its words are in the reader's language (``lang``): the rulings' summaries and steps where they are messages,
with the game's printed names, and the texts of the cited rules where the reference has one in that language
(``service/rule_texts.py``); the events, payloads and the differences found are compared before any word is
rendered, so a language changes no verdict.

Rule choices (DESIGN 14): the answer names the choices the game was played under (``choices``) and the
text of every rule the recorded rulings cite (``rules``). For a step whose ruling cites a rule choice, the
step is also decided under each other option of that choice (``by_choice``): the log before the step is
folded again with only that choice changed, and the same command, seed and dice counters are decided.
"""
from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import (
    KERNEL_EVENT_TYPES,
    Dice,
    KernelCommand,
    NotYourDecision,
    RuleViolation,
    registry,
    words,
)
from domain.kernel import choices as rule_choices
from domain.kernel.dice import Roll, counters_after
from domain.kernel.game import Game

from . import i18n
from .game_service import GameService, encode_emitted
from .game_service import fold_log as fold_records
from .language import DEFAULT
from .problems import Problem
from .rule_texts import in_language

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


def redecide(svc: GameService, game_id: str, seq: int, lang: str = DEFAULT) -> dict[str, Any]:
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
    counters = counters_after(_rolls.decode(e.rolls) for e in before)
    state = svc.state_at(game_id, first - 1, cur)
    command = svc.decode_command(rs, msgspec.json.decode(body))
    if isinstance(command, KernelCommand.__args__):  # type: ignore[attr-defined]
        raise Problem(404, "not-found", f"event {seq} is undo or ready bookkeeping of the kernel, not a decision of"
                      " the rules", field="seq")
    # the draws of a when_ready game mix the seats' client seeds (DESIGN 3)
    seed, mix = svc.store.seed(game_id), svc.kernel_at(game_id, first - 1, cur).mix
    # the kernel's own events of the step (a lapsed undo request) and its lines in the rulings (an agreed
    # re-roll) are not the ruleset's decision: compared without them
    recorded = [e for e in svc.store.load(game_id, after=first - 1, upto=last) if e.type not in KERNEL_EVENT_TYPES]
    rec = [{"seq": e.seq, "type": e.type, "payload": _json(e.payload), "ruling": _ruleset_ruling(_json(e.ruling)),
            "rolls": _json(e.rolls), "engine_version": e.engine_version} for e in recorded]
    declared = rule_choices.declared(rs)
    in_force = rule_choices.in_force(declared, cur.setup.choices)
    cited = [r for e in rec for r in _cited(e["ruling"])]
    out: dict[str, Any] = {"seq": seq, "first_seq": first, "last_seq": last, "seat": seat,
                           "command": msgspec.json.decode(body), "engine_version": rs.engine_version,
                           "recorded": rec, "choices": in_force, "rules": _rule_texts(rs.id, cited, lang)}
    base = recorded[0].seq if recorded else first
    out.update(_decide(Game(ruleset=rs, setup=cur.setup, version=first - 1, state=state), seat, command,
                       Dice(seed, game_id, dict(counters), mix=mix), rec, base))
    by_choice: list[dict[str, Any]] = []
    for choice in declared:
        if choice.id not in cited:
            continue
        for option in choice.option_ids():
            if option == in_force[choice.id]:
                continue
            setup = msgspec.structs.replace(cur.setup, choices={**in_force, choice.id: option})
            alt = _decide(fold_records(rs, setup, before), seat, command, Dice(seed, game_id, dict(counters), mix=mix),
                          rec, base)
            by_choice.append({"choice": choice.id, "in_force": in_force[choice.id], "option": option, **alt})
    out["by_choice"] = by_choice
    # the words last, once every comparison is made: the recorded and the decided-again rulings (and the
    # differences that quote them) in the reader's language
    return i18n.localize(out, lang, words.names_of(rs, cur.state))


def _cited(ruling: Any) -> list[str]:
    if not isinstance(ruling, dict):
        return []
    return [str(s.get("rule")) for s in ruling.get("steps", ()) if isinstance(s, dict) and s.get("rule")]


def _rule_texts(ruleset_id: str, ids: list[str], lang: str = DEFAULT) -> list[dict[str, Any]]:
    """The text of every rule the step cites, once each, in the order cited (DESIGN 8), in ``lang`` where the
    reference has it (else English, marked ``fallback``); a cited id the reference lacks has no text."""
    rules = registry.rules_of(ruleset_id) or {}
    out = []
    for rid in dict.fromkeys(ids):
        r = rules.get(rid)
        out.append(in_language(ruleset_id, r, lang) if r else
                   {"id": rid, "title": None, "text": None, "url": f"/rulesets/{ruleset_id}/rules/{rid}"})
    return out


def _decide(game: Game, seat: str, command: Any, dice: Dice, rec: list[dict[str, Any]],
            base: int) -> dict[str, Any]:
    """The ruleset's decision of the step on ``game`` (its state right before the step), and its differences
    from the record."""
    try:
        emitted = game.ruleset.decide(game.state, seat, command, dice)
    except (RuleViolation, NotYourDecision) as exc:
        return {"same": False, "now": None, "refused": {"rule": getattr(exc, "rule", None), "detail": exc.detail},
                "differences": [{"field": "accepted", "recorded": True, "current": False}]}
    new, _ = encode_emitted(game, emitted, seat)
    now = [{"seq": base + i, "type": n.type, "payload": _json(n.payload), "ruling": _json(n.ruling),
            "rolls": _json(n.rolls), "engine_version": n.engine_version} for i, n in enumerate(new)]
    diffs: list[dict[str, Any]] = []
    if len(now) != len(rec):
        diffs.append({"field": "events", "recorded": [e["type"] for e in rec], "current": [e["type"] for e in now]})
    for r, n in zip(rec, now):
        for f in ("type", "payload", "ruling", "rolls"):
            if r[f] != n[f]:
                diffs.append({"seq": r["seq"], "field": f, "recorded": r[f], "current": n[f]})
    return {"same": not diffs, "now": now, "differences": diffs}


__all__ = ["redecide"]
