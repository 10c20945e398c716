"""What a caller may see (DESIGN 4) and the one-line summaries of the timeline.

Hidden: the order of the order deck (its size is public) until the game ends. Public: the
current order card, the discard pile, everything the Emperor does, both action rows (cards lie
face up in the row, BASE-CARD-1: the PROPOSED model has no hidden hand).
"""
from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import event_type_name

from .content import ability_text, requirement_text
from .field import Field
from .state import HUMAN, SIDES, EmperorState


def _card(state: EmperorState, side: str, c: Any) -> dict[str, Any]:
    return {"id": c.id, "name": c.name, "crest": c.crest, "defense": c.defense,
            "defense_boost": msgspec.to_builtins(c.defense_boost) if c.defense_boost else None,
            "abilities": [ability_text(a) for a in c.abilities],
            "prepared": c.id not in state.exhausted.get(side, ())}


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
                                        "source": s.source} for s in a.queue]}
    else:
        out["activation"] = None
    if state.pending is not None:
        p = state.pending
        out["pending"] = {"kind": p.kind, "attacker": p.attacker, "target": p.target, "attack": p.attack,
                          "source": p.source, "cards": list(p.cards), "locations": list(p.locations)}
    else:
        out["pending"] = None
    out["last_emperor_move"] = msgspec.to_builtins(state.last_move) if state.last_move else None
    out["winner"] = state.winner
    out["win_reason"] = state.win_reason or None
    return out


def _path(e: Any) -> str:
    return " -> ".join(e.path) if e.path else "stays"


_TEMPLATES: dict[str, Any] = {
    "game_opened": lambda e: f"{e.title}: set up ({e.human.name} against the Emperor's {e.emperor.name})",
    "order_deck_shuffled": lambda e: f"the order deck ({e.size}) is " + ("reshuffled" if e.reshuffle else "shuffled"),
    "turn_started": lambda e: f"turn {e.turn}: " + ("you" if e.side == HUMAN else "the Emperor"),
    "turn_ended": lambda e: ("your" if e.side == HUMAN else "the Emperor's") + " turn ends",
    "order_card_revealed": lambda e: f"order card {e.card} revealed" + (" (defense)" if e.why == "defense" else ""),
    "emperor_step": lambda e: f"the Emperor's order step {e.step.replace('_', ' ').lower()}"
    + ("" if e.performed else " (nothing to do)"),
    "locations_flipped": lambda e: f"{e.warrior} uses {', '.join(e.locations)} for {e.purpose}",
    "action_taken": lambda e: f"you take the {e.action} action",
    "warrior_moved": lambda e: f"{e.warrior} moves {e.frm} -> {_path(e)}" + (f" into hazard {e.hazard}" if e.hazard else ""),
    "emperor_moved": lambda e: f"{e.warrior} moves {e.frm} -> {e.to} (step {e.step})" if e.to != e.frm
    else f"{e.warrior} stays on {e.frm} (step {e.step})",
    "card_activated": lambda e: ("you activate " if e.side == HUMAN else "the Emperor activates ") + e.card,
    "target_chosen": lambda e: f"{e.source}: target " + (", ".join(e.targets) or "none")
    + (f" (switched from {e.switched_from})" if e.switched_from else ""),
    "defended": lambda e: f"{e.warrior} defends" + (f" with {e.card}" if e.card else "") + f": {e.value}",
    "attack_resolved": lambda e: f"{e.attacker} attacks {e.target}: {e.attack} vs {e.defense}, {e.wounds} wound(s)",
    "defense_requested": lambda e: f"{e.pending.attacker} attacks your hero with {e.pending.attack}: defend",
    "pushed": lambda e: f"{e.target} pushed {e.frm} -> {_path(e)}: {e.wounds} wound(s)",
    "star_chosen": lambda e: f"star: {e.choice or 'none applies'}",
    "fallback_used": lambda e: f"fallback {e.name}" + ("" if e.applied else " (already used this turn)"),
    "ability_done": lambda e: f"{e.source}: {e.ability} " + ("skipped" if e.skipped else "done"),
    "card_resolved": lambda e: f"{e.card} exhausted (crest {e.crest})",
    "refreshed": lambda e: (("you refresh" if e.side == HUMAN else "the Emperor refreshes") if e.refreshed
                            else f"the Emperor does not refresh ({e.prepared} > {e.refresh_value})"),
    "swapped": lambda e: f"{e.warrior} swaps with {e.other}",
    "warrior_healed": lambda e: f"{e.warrior} heals {e.amount}",
    "warrior_wounded": lambda e: f"{e.warrior} suffers {e.wounds} wound(s): {e.cause}",
    "warrior_died": lambda e: f"{e.warrior} dies",
    "game_won": lambda e: ("you win" if e.winner == HUMAN else "the Emperor wins") + f": {e.reason}",
}


def summarize(event: Any) -> str:
    name = event_type_name(event)
    fn = _TEMPLATES.get(name)
    return fn(event) if fn else name
