"""What a caller may see (DESIGN 4) and the one-line summaries of the timeline.

Hidden: the order of the order deck (its size is public) until the game ends. Public: the
current order card, the discard pile, everything the Emperor does, both action rows (cards lie
face up in the row, BASE-CARD-1: the PROPOSED model has no hidden hand).
"""
from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import event_type_name
from domain.kernel.messages import Message, msg, msg_n, text_of

from .content import ability_text, requirement_text
from .ending import reason_message, win_message
from .field import Field
from .sources import source_said
from .state import HUMAN, SIDES, EmperorState
from .terms import ACTIONS, ORDER_STEPS, PURPOSES, THE_EMPEROR, cause_message, word


def _card(state: EmperorState, side: str, c: Any) -> dict[str, Any]:
    return {"id": c.id, "name": c.name, "crest": c.crest, "defense": c.defense,
            "defense_boost": msgspec.to_builtins(c.defense_boost) if c.defense_boost else None,
            "abilities": [ability_text(a) for a in c.abilities],
            "prepared": c.id not in state.exhausted.get(side, ())}


#: Where this view holds the printed words of the content (domain/kernel/printed.py): the setup's and the
#: battlefield's titles, the locations (and their abilities), the hazards, the warriors, the heroes, their
#: action cards and star abilities, the solo card's star priority and fallback; and the abilities' notation
#: (``ATTACK 2 MELEE (+1 if SUN)``: :data:`NOTATION`), which the Ukrainian rulebook writes in words (атака, поштовх,
#: марш, зірка), so each reader gets it in their language. A STAR command keeps the English name (it is the
#: command's data); its label comes from the server in the reader's language.
NOTATION = (("battlefield", "locations", "*", "ability", "text"), ("heroes", "*", "cards", "*", "abilities", "*"),
            ("heroes", "*", "stars", "*", "text"), ("solo", "fallback", "text"), ("activation", "queue", "*", "ability"))
PRINTED = (("title",), ("battlefield", "title"), ("battlefield", "locations", "*", "name"),
           ("battlefield", "locations", "*", "ability", "name"), ("battlefield", "hazards", "*", "name"),
           ("warriors", "*", "name"), ("heroes", "*", "name"), ("heroes", "*", "cards", "*", "name"),
           ("heroes", "*", "stars", "*", "name"), ("solo", "star_priority", "*", "name"), ("solo", "fallback", "name"),
           ("turn", "stars_used", "*"), *NOTATION)


def view_of(state: EmperorState, seat: str | None, reveal_all: bool = False) -> dict[str, Any]:
    finished = state.winner is not None or reveal_all
    out: dict[str, Any] = {"setup": state.scenario_id, "opened": state.opened}
    if not state.opened or state.battlefield is None:
        return out
    bf = state.battlefield
    field = Field(state)
    out["title"] = state.setup_title
    out["battlefield"] = {
        "id": bf.id, "title": bf.title, "columns": bf.columns, "rows": bf.rows,
        "locations": [{"id": lo.id, "name": lo.name, "cell": lo.cell,
                       "bonuses": [msgspec.to_builtins(b) for b in lo.bonuses],
                       "ability": ({"name": lo.ability.name, "text": ability_text(lo.ability.ability)}
                                   if lo.ability else None),
                       "face_up": field.face_up(lo.id), "flipped_by": state.flipped.get(lo.id)}
                      for lo in bf.locations],
        "hazards": [{"id": h.id, "name": h.name, "cell": h.cell, "active_while": h.active_while,
                     "active": field.hazard_active(h)} for h in bf.hazards],
    }
    out["warriors"] = [{"id": w.id, "name": w.name, "side": w.side, "kind": w.kind, "cell": w.cell,
                        "health": w.health, "wounds": w.wounds, "left": w.left, "movement": w.movement,
                        "defense": w.defense if w.kind == "helper" else None}
                       for w in sorted(state.warriors.values(), key=lambda w: (w.side, w.kind, w.id))]
    out["heroes"] = {s: {"id": state.heroes[s].id, "name": state.heroes[s].name,
                         "cards": [_card(state, s, c) for c in state.heroes[s].cards],
                         "stars": [{"name": x.name, "text": ability_text(x.ability)} for x in state.heroes[s].stars],
                         "crest": state.crest.get(s) or None}
                     for s in SIDES}
    solo = state.solo
    if solo is not None:
        out["solo"] = {
            "hero": solo.hero,
            "direction": requirement_text(solo.direction.requirement),
            "overrides": [{"crest": o.crest, "requirement": requirement_text(o.requirement)}
                          for o in solo.direction.overrides],
            "helper_direction": requirement_text(solo.helper_direction.requirement) if solo.helper_direction else None,
            "exceptions": list(solo.exceptions),
            "star_priority": [msgspec.to_builtins(e) for e in solo.star_priority],
            "fallback": {"name": solo.fallback.name, "text": ability_text(solo.fallback.ability)},
        }
    oc = state.current_order()
    out["order"] = {
        "current": msgspec.to_builtins(oc) if oc else None,
        "deck_size": len(state.order_deck),
        "discard": list(state.order_discard),
        "card_policy": state.card_policy,
    }
    if finished:
        out["order"]["deck"] = list(state.order_deck)
    out["turn"] = msgspec.to_builtins(state.turn) if state.turn else None
    out["turn_number"] = state.turn_no
    if state.activation is not None:
        a = state.activation
        out["activation"] = {"card": a.card, "last_target": a.last_target or None,
                             "queue": [{"ability": ability_text(s.ability), "performer": s.performer,
                                        **_source(state, s.source)} for s in a.queue]}
    else:
        out["activation"] = None
    if state.pending is not None:
        p = state.pending
        out["pending"] = {"kind": p.kind, "attacker": p.attacker, "target": p.target, "attack": p.attack,
                          **_source(state, p.source), "cards": list(p.cards), "locations": list(p.locations)}
    else:
        out["pending"] = None
    out["last_emperor_move"] = msgspec.to_builtins(state.last_move) if state.last_move else None
    out["winner"] = state.winner
    out["win_reason"] = state.win_reason or None
    said = win_message(state)
    if said is not None:  # the reason as a message: the service says it in the reader's language (issue 28)
        out["win_reason_message"] = msgspec.to_builtins(said)
    return out


def _source(state: EmperorState, source: str) -> dict[str, Any]:
    """Where an ability comes from, in words (``source``: English, said in the reader's language by the service
    from ``source_message``; domain/emperor/sources.py): the stored text (``RB1 Brawl``, ``star: Jab``) stays in
    the log, never in the view."""
    said = source_said(source, state)
    out: dict[str, Any] = {"source": text_of(said)}
    if isinstance(said, Message):
        out["source_message"] = msgspec.to_builtins(said)
    return out


def _path(e: Any) -> "str | Message":
    return " -> ".join(e.path) if e.path else msg("stays")


_TEMPLATES: dict[str, Any] = {
    # the setup's title names the hero and the Emperor's enemy already (its ruling says who stands where)
    "game_opened": lambda e: msg("{title}: set up", title=e.title),
    "order_deck_shuffled": lambda e: (msg("the order deck ({count}) is reshuffled", count=e.size) if e.reshuffle
                                      else msg("the order deck ({count}) is shuffled", count=e.size)),
    "turn_started": lambda e: (msg("turn {turn}: you", turn=e.turn) if e.side == HUMAN
                               else msg("turn {turn}: {emperor}", turn=e.turn, emperor=THE_EMPEROR)),
    "turn_ended": lambda e: (msg("your turn ends") if e.side == HUMAN
                             else msg("{emperor}'s turn ends", emperor=THE_EMPEROR)),
    "order_card_revealed": lambda e: (msg("order card {card} revealed (defense)", card=e.card) if e.why == "defense"
                                      else msg("order card {card} revealed", card=e.card)),
    "emperor_step": lambda e: (msg("{emperor}'s order step {step}", emperor=THE_EMPEROR, step=word(ORDER_STEPS, e.step))
                               if e.performed else
                               msg("{emperor}'s order step {step} (nothing to do)", emperor=THE_EMPEROR,
                                   step=word(ORDER_STEPS, e.step))),
    "locations_flipped": lambda e: msg("{warrior} uses {locations} for {purpose}", warrior=e.warrior,
                                       locations=", ".join(e.locations), purpose=word(PURPOSES, e.purpose)),
    "action_taken": lambda e: msg("you take the {action} action", action=word(ACTIONS, e.action)),
    "warrior_moved": lambda e: (msg("{warrior} moves {frm} -> {path} into hazard {hazard}", warrior=e.warrior,
                                    frm=e.frm, path=_path(e), hazard=e.hazard) if e.hazard else
                                msg("{warrior} moves {frm} -> {path}", warrior=e.warrior, frm=e.frm, path=_path(e))),
    "emperor_moved": lambda e: (msg("{warrior} moves {frm} -> {to} (step {step})", warrior=e.warrior, frm=e.frm,
                                    to=e.to, step=e.step) if e.to != e.frm
                                else msg("{warrior} stays on {frm} (step {step})", warrior=e.warrior, frm=e.frm,
                                         step=e.step)),
    "card_activated": lambda e: (msg("you activate {card}", card=e.card) if e.side == HUMAN
                                 else msg("{emperor} activates {card}", emperor=THE_EMPEROR, card=e.card)),
    "target_chosen": lambda e: (msg("{source}: target {targets} (switched from {other})", source=source_said(e.source),
                                    targets=", ".join(e.targets) or msg("none"), other=e.switched_from)
                                if e.switched_from else
                                msg("{source}: target {targets}", source=source_said(e.source),
                                    targets=", ".join(e.targets) or msg("none"))),
    "defended": lambda e: (msg("{warrior} defends with {card}: {value}", warrior=e.warrior, card=e.card, value=e.value)
                           if e.card else msg("{warrior} defends: {value}", warrior=e.warrior, value=e.value)),
    "attack_resolved": lambda e: msg_n("{attacker} attacks {target}: {attack} vs {defense}, {wounds} wound(s)",
                                       "{attacker} attacks {target}: {attack} vs {defense}, {wounds} wound(s)",
                                       "wounds", attacker=e.attacker, target=e.target, attack=e.attack,
                                       defense=e.defense, wounds=e.wounds),
    "defense_requested": lambda e: msg("{attacker} attacks your hero with {attack}: defend",
                                       attacker=e.pending.attacker, attack=e.pending.attack),
    "pushed": lambda e: msg_n("{target} pushed {frm} -> {path}: {wounds} wound(s)",
                              "{target} pushed {frm} -> {path}: {wounds} wound(s)", "wounds", target=e.target,
                              frm=e.frm, path=_path(e), wounds=e.wounds),
    "star_chosen": lambda e: (msg("star: {ability_name}", ability_name=e.choice) if e.kind == "hero_star" else
                              msg("star: {choice}", choice=source_said(f"star: {e.choice}") if e.choice
                                  else msg("none applies"))),
    "fallback_used": lambda e: (msg("fallback {name}", name=e.name) if e.applied
                                else msg("fallback {name} (already used this turn)", name=e.name)),
    "ability_done": lambda e: (msg("{source}: {ability} skipped", source=source_said(e.source), ability=e.ability)
                               if e.skipped else
                               msg("{source}: {ability} done", source=source_said(e.source), ability=e.ability)),
    "card_resolved": lambda e: msg("{card} exhausted (crest {crest})", card=e.card, crest=e.crest),
    "refreshed": lambda e: ((msg("you refresh") if e.side == HUMAN else msg("{emperor} refreshes", emperor=THE_EMPEROR))
                            if e.refreshed else
                            msg("{emperor} does not refresh ({prepared} > {refresh})", emperor=THE_EMPEROR,
                                prepared=e.prepared, refresh=e.refresh_value)),
    "swapped": lambda e: msg("{warrior} swaps with {other}", warrior=e.warrior, other=e.other),
    "warrior_healed": lambda e: msg("{warrior} heals {amount}", warrior=e.warrior, amount=e.amount),
    "warrior_wounded": lambda e: msg_n("{warrior} suffers {wounds} wound(s): {cause}",
                                       "{warrior} suffers {wounds} wound(s): {cause}", "wounds", warrior=e.warrior,
                                       wounds=e.wounds, cause=cause_message(e.cause)),
    "warrior_died": lambda e: msg("{warrior} dies", warrior=e.warrior),
    "game_won": lambda e: (msg("you win: {reason}", reason=reason_message(e.reason)) if e.winner == HUMAN
                           else msg("the Emperor wins: {reason}", reason=reason_message(e.reason))),
}


def summarize(event: Any) -> "str | Message":
    """The step's one line, as a message (issue 28)."""
    name = event_type_name(event)
    fn = _TEMPLATES.get(name)
    return fn(event) if fn else name
