"""The JSON bodies clients see, built the same way from the log (fold) and by the
projections (Redis). One piece of code per idea: both paths call these.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.kernel import KernelState, Ruleset, event_type_name, game_status, redact, registry
from domain.kernel import chain, choices, words
from domain.kernel.fold import decode_event
from domain.kernel.log import GameRow, StoredEvent
from domain.kernel.messages import Message, joined, msg, text_of
from domain.kernel.rules import rule_url
from domain.kernel.seals import stays_hidden
from domain.kernel.seats import creator_holds, seat_report
from domain.kernel.sides import seat_sides
from domain.kernel.undo import waiting_sides
from domain.kernel import is_kernel_event

FINISHED = "finished"


def undo_request_view(kernel: KernelState | None, ruleset: Ruleset | None = None) -> dict[str, Any] | None:
    """The undo request waiting for an answer (DESIGN 5: part of every view), or None; ``waiting_for``:
    the sides that must still answer it, ``accepted``: the seats that accepted for theirs (UMPIRE-UNDO-13)."""
    req = None if kernel is None else kernel.undo_request
    if req is None:
        return None
    out = {"seq": req.seq, "by": req.by, "to_version": req.to_version,
           "answer": [{"type": "undo_accept"}, {"type": "undo_decline"}]}
    if ruleset is not None and kernel is not None and kernel.header is not None:
        sides = seat_sides(ruleset, kernel.header)
        out["waiting_for"] = list(waiting_sides(kernel, sides))
        out["accepted"] = list(req.accepted)
    return out


def game_view(game: GameRow, ruleset: Ruleset, state: Any, seat: str | None, version: int | None = None,
              kernel: KernelState | None = None, reveal_all: bool | None = None) -> dict[str, Any]:
    """``GET /games/{id}``: the caller's view (DESIGN section 8). ``kernel``: the kernel's state at
    the same version (a game waiting for its seats, a waiting undo request)."""
    st = game_status(ruleset, state, kernel)
    body = {
        "game_id": game.game_id,
        "ruleset": game.ruleset,
        "scenario": game.scenario,
        "version": game.version if version is None else version,
        "status": shown_status(game, st.status),
        "read_only": game.read_only,
        "active_seat": st.to_act[0] if st.to_act else None,
        "to_act": list(st.to_act),
        "turn": st.turn,
        "winner": st.winner,
        "undo_request": undo_request_view(kernel, ruleset),
        # DESIGN 4: once the game (the store row) is finished, everything is public, also earlier states
        "state": ruleset.view(state, seat, reveal_all=game.status == FINISHED if reveal_all is None else reveal_all),
    }
    if kernel is not None and kernel.waiting:
        body["waiting_for"] = list(kernel.unready())
    if kernel is not None and kernel.header is not None and kernel.seats.offered is not None:
        # DESIGN 4 (UMPIRE-SEAT-5): how each seat of a game seated by invitations is held, never by whom
        h, seats, bots = kernel.seats, kernel.header.seats, kernel.header.bots
        body.update(seating="invitations", seats=seat_report(h, seats, bots), creator_holds=creator_holds(h, seats, bots))
    return body


def may_see(ev: StoredEvent, seat: str | None, finished: bool, ruleset: Ruleset | None = None) -> bool:
    """Whether ``seat`` sees the private fields of ``ev``: everything is public once finished, except a
    sealed event's part (UMPIRE-SEAL-3: a campaign side's secret outlives the battle; ``ruleset`` names the
    event's type, and without it a finished game shows only what is public or the seat's own)."""
    if ev.visibility == "public" or (seat is not None and ev.visibility == seat):
        return True
    return finished and ruleset is not None and not stays_hidden(ruleset, ev.type)


def event_view(
    ev: StoredEvent, ruleset: Ruleset, seat: str | None, *, finished: bool, undone: bool
) -> dict[str, Any]:
    """One entry of ``GET /games/{id}/events`` as ``seat`` may see it.

    Chain version 2: a caller who may not see the event's private fields gets exactly the spectator
    payload the chain covers (``"redacted": true``); an event that is not public lists in ``hidden``
    the fields a spectator does not see, so a caller who sees them can still recompute the public
    part (:func:`domain.kernel.chain.entry_public`); every event carries its ``commitment``; once the game
    is finished every event also carries its ``private`` part, so anyone can check the commitment
    with the revealed seed."""
    full: dict[str, Any] = msgspec.json.decode(ev.payload)
    visible = may_see(ev, seat, finished, ruleset)
    if ev.commitment is not None:
        public = msgspec.json.decode(ev.public_payload) if ev.public_payload is not None else None
        payload = full if visible or public is None else public
    else:
        public = None
        payload = full if visible else redact(decode_event(ruleset, ev.payload), full)
    out: dict[str, Any] = {
        "seq": ev.seq,
        "type": ev.type,
        "actor": ev.actor,
        "recorded_at": ev.recorded_at,
        "payload": payload,
        "hash": ev.hash,
        "undone": undone,
    }
    if ev.commitment is not None:
        out["commitment"] = ev.commitment
        if public is not None:
            out["hidden"] = chain.hidden_fields(full, public)
        if finished and (visible or not stays_hidden(ruleset, ev.type)):
            out["private"] = chain.row_private(msgspec.structs.asdict(ev))
    return out


def ruling_view(ev: StoredEvent, seat: str | None, *, finished: bool, ruleset: str,
                names: words.Names | None = None) -> dict[str, Any]:
    """``GET /games/{id}/events/{seq}/ruling``. A hidden event's ruling is withheld too. Each step links
    the text of its rule (``rule_url``, DESIGN 8)."""
    body: dict[str, Any] = {"seq": ev.seq, "type": ev.type, "actor": ev.actor}
    if not may_see(ev, seat, finished, registry.get(ruleset)):
        body["redacted"] = True
        body["ruling"] = None
        return body
    body["ruling"] = named_ruling(linked_ruling(msgspec.json.decode(ev.ruling) if ev.ruling else None, ruleset), names)
    body["rolls"] = msgspec.json.decode(ev.rolls)
    return body


def named_ruling(ruling: Any, names: words.Names | None) -> Any:
    """A ruling (as JSON data) whose summary and step texts name units and cards by their printed names, and whose
    steps give the values that are ids by those names too (``values_named``)."""
    if names and isinstance(ruling, dict):
        if isinstance(ruling.get("summary"), str):
            ruling["summary"] = words.with_names(ruling["summary"], names)
        for step in ruling.get("steps", ()):
            if isinstance(step, dict) and isinstance(step.get("text"), str):
                step["text"] = words.with_names(step["text"], names)
            if isinstance(step, dict) and step.get("values"):
                named = words.named_values(step["values"], names)
                if named:  # the values that are ids, by their printed names (the values themselves stay data)
                    step["values_named"] = named
    return ruling


def linked_ruling(ruling: Any, ruleset: str) -> Any:
    """A ruling (as JSON data) whose every step links the text of its rule (``rule_url``, DESIGN 8)."""
    if isinstance(ruling, dict):
        for step in ruling.get("steps", ()):
            if isinstance(step, dict) and step.get("rule"):
                step["rule_url"] = rule_url(ruleset, step["rule"])
    return ruling


def timeline_entry(ev: StoredEvent, ruleset: Ruleset, *, undone: bool, names: words.Names | None = None,
                   bots: Mapping[str, str] | None = None) -> dict[str, Any]:
    """One line per step of ``GET /games/{id}/timeline`` (summaries never reveal private fields).
    ``names``: the game's printed names by id (``words.names_of``); ``bots``: its bot seats
    (``GameCreated.bots``); ``by`` says who did the step (DESIGN 12)."""
    event = decode_event(ruleset, ev.payload)
    said = step_message(event, ruleset)
    summary = _named(event, said, names)
    out = {"seq": ev.seq, "type": ev.type, "actor": ev.actor, "turn": ev.turn, "summary": summary, "undone": undone,
           "by": words.acted_by(ruleset, event, ev.actor, bots or {}, said)}
    if isinstance(said, Message):  # issue 28: the words as a message, rendered in the reader's language
        out["summary_message"] = msgspec.to_builtins(said)
    return out


def step_message(event: Any, ruleset: Ruleset) -> "str | Message":
    """The one line of a step as a message (a ruleset not yet converted: its English sentence)."""
    if is_kernel_event(event):
        return _kernel_summary(event, ruleset)
    return ruleset.summary(event)


def step_summary(event: Any, ruleset: Ruleset, names: words.Names | None = None) -> str:
    """The one line of a step, naming units and cards by their printed names beside their ids."""
    return _named(event, step_message(event, ruleset), names)


def _named(event: Any, said: "str | Message", names: words.Names | None) -> str:
    return text_of(said) if is_kernel_event(event) else words.with_names(text_of(said), names or {})


def scenario_title(ruleset: Ruleset, scenario: str) -> str:
    """The printed title of a scenario (its id when the ruleset does not know it)."""
    for c in ruleset.scenarios():
        if c.id == scenario:
            return c.title
    return scenario


def _kernel_summary(event: Any, ruleset: Ruleset | None = None) -> Message:
    name = event_type_name(event)
    if name == "game_created":
        title = scenario_title(ruleset, event.scenario) if ruleset is not None else event.scenario
        said = {s: words.seat_name(ruleset, s) for s in (*event.seats, *event.bots)}  # seats in words (docs/seat-names.md)
        parts = [msg("game created: {title} for {seats}", title=title, seats=joined([said[s] for s in event.seats], ", "))]
        parts += [msg("{seat} is played by the bot {bot}", seat=said[s], bot=spec.split(":")[0])
                  for s, spec in sorted(event.bots.items())]
        if event.start == "when_ready":
            parts.append(msg("waiting for every seat's ready"))
        if event.choices:  # DESIGN 14: the rule choices in force (a header written before choices existed has none)
            # in words, the ids beside them ("E-Web re-roll: all dice (HOTH-CHOICE-EWEB all)")
            declared_ = choices.declared(ruleset) if ruleset is not None else ()
            parts.append(msg("rule choices: {choices}", choices=joined(
                [choices.phrase_message(declared_, k, v) for k, v in event.choices.items()], ", ")))
        return _joined(parts)
    if name == "seat_ready":
        return (msg("{seat} is ready with a client seed", seat=event.seat) if event.client_seed
                else msg("{seat} is ready", seat=event.seat))
    if name == "seats_offered":
        return msg("the creator keeps {kept}; {invited} offered by invitation",
                   kept=", ".join(event.kept) or msg("no seat"), invited=", ".join(event.invited) or msg("no seat"))
    if name == "seat_claimed":
        return (msg("{seat} is claimed with its invitation", seat=event.seat) if event.by_invitation
                else msg("{seat} is claimed", seat=event.seat))
    if name == "seat_rotated":
        return msg("{seat}'s token is replaced by its holder", seat=event.seat)
    if name == "undo_requested":
        return msg("{by} asks to undo back to version {version}", by=event.by, version=event.to_version)
    if name == "undo_accepted":
        return msg("{by} accepts the undo back to version {version} for its side", by=event.by, version=event.to_version)
    if name == "undo_declined":
        return msg("{by} declines the undo back to version {version}", by=event.by, version=event.to_version)
    if name == "undo_lapsed":
        return msg("{by}'s undo request lapses: play went on", by=event.by)
    if event.consented_by:
        if event.redraw:
            return msg("{by} undoes steps {first}-{last} (agreed by {agreed}; an agreed re-roll)", by=event.by,
                       first=event.first, last=event.last, agreed=event.consented_by)
        return msg("{by} undoes steps {first}-{last} (agreed by {agreed})", by=event.by, first=event.first,
                   last=event.last, agreed=event.consented_by)
    return msg("{by} undoes steps {first}-{last}", by=event.by, first=event.first, last=event.last)


def _joined(parts: list[Message]) -> Message:
    """Clauses joined with "; " (each a message of its own, so each is translated whole)."""
    out = parts[0]
    for p in parts[1:]:
        out = msg("{a}; {b}", a=out, b=p)
    return out


READ_ONLY = "read_only"


def shown_status(game: GameRow, status: str) -> str:
    """The status a client sees: ``read_only`` for a game that cannot be played on here (imported without
    its seed, UMPIRE-READ-ONLY-1), else the ruleset's status (``active``, ``finished``, ...)."""
    return READ_ONLY if game.read_only and status != FINISHED else status


def lobby_entry(game: GameRow) -> dict[str, Any]:
    """One game of ``GET /games`` (the lobby)."""
    return {
        "game_id": game.game_id,
        "ruleset": game.ruleset,
        "scenario": game.scenario,
        "status": shown_status(game, game.status),
        "read_only": game.read_only,
        "version": game.version,
        "winner": game.winner,
        "created_at": game.created_at,
        "seed_commitment": game.seed_commitment,
        "campaign_id": game.campaign_id,
    }
