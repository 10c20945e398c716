"""What a seat may see (DESIGN 4), one-line summaries, and the board picture."""
from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import event_type_name

from .board import label as _label
from .scenario import PermanentMedal, TemporaryMedal
from .state import SUPPORT_WINDOWS, HothState, terrain_map
from .picture import BoardPicture, LastAttack, MedalMark, UnitMark, render_board


def view_of(state: HothState, seat: str | None, reveal_all: bool = False) -> dict[str, Any]:
    """``reveal_all``: show everything (DESIGN 4: once the game is over, its replays are public too)."""
    finished = state.winner is not None or reveal_all
    out: dict[str, Any] = {"scenario_id": state.scenario_id, "opened": state.opened}
    if not state.opened or state.scenario is None:
        return out
    sc = state.scenario
    out["scenario"] = {
        "id": sc.id, "title": sc.title, "south": sc.south, "first": sc.first,
        "victory_medals": {"imperial": sc.imperial.victory_medals, "rebel": sc.rebel.victory_medals},
        "special_rules": list(sc.special_rules),
    }
    out["terrain"] = [{"hex": list(t.hex), "terrain": t.terrain} for t in sc.terrain]
    out["structures"] = [msgspec.to_builtins(s) for s in state.structures.values()]
    out["units"] = [msgspec.to_builtins(u) for u in sorted(state.units.values(), key=lambda u: u.id)]
    out["medals"] = dict(state.medals)
    out["objectives"] = {"held": list(state.held), "captured": list(state.captured)}
    out["turn_order"] = list(state.turn_order)
    out["turn_number"] = state.turn_no
    out["turn"] = msgspec.to_builtins(state.turn) if state.turn is not None else None
    pend = msgspec.to_builtins(state.pending) if state.pending is not None else None
    p = state.pending
    sealed = p is not None and (p.kind, p.which) in SUPPORT_WINDOWS  # UMPIRE-SEAL-3: a side's support cards
    if pend is not None and not (seat == p.seat or (finished and not sealed)):  # type: ignore[union-attr]
        pend.pop("cards", None)  # e.g. the top of a deck being rearranged
    out["pending"] = pend
    out["attack"] = msgspec.to_builtins(state.attack) if state.attack is not None else None
    hands: dict[str, Any] = {}
    for s, h in state.hands.items():
        hands[s] = list(h) if (finished or s == seat) else len(h)
    out["hands"] = hands
    sf = seat.split("-", 1)[0] if seat else None
    # UMPIRE-SEAL-3: a side's support cards are a campaign secret (kept into the next battle): another side
    # sees how many, never which, even once the battle is over (the campaign shows them when it ends)
    out["support"] = {f: (list(c) if f == sf else len(c)) for f, c in state.support.items()}
    out["deck_sizes"] = {s: len(d) for s, d in state.decks.items()}
    if finished:
        out["decks"] = {s: list(d) for s, d in state.decks.items()}
    out["discards"] = {s: list(d) for s, d in state.discards.items()}  # face up (HOTH-DRAW-1)
    out["last_card"] = dict(state.last_card)
    out["winner"] = state.winner
    out["win_reason"] = state.win_reason
    return out


def card_texts(view: dict[str, Any], cards: Any) -> dict[str, dict[str, Any]]:
    """The printed face (title, kind, text) of every card id this view shows (own hand and support, the
    face-up discards and last cards, the turn's card, and everything once finished), so a client can
    show a hand with its texts. Only ids already in the view: a hidden card's text is never added."""
    seen: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, str):
            if node in cards:
                seen.add(node)
        elif isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, (list, tuple)):
            for v in node:
                walk(v)

    for key in ("hands", "support", "discards", "last_card", "decks", "turn", "pending"):
        walk(view.get(key))
    out: dict[str, dict[str, Any]] = {}
    for cid in sorted(seen):
        c = cards[cid]
        face: dict[str, Any] = {"title": c.title, "kind": c.kind, "text": c.text}
        if c.leader:
            face["leader"] = c.leader
        if c.timing:
            face["timing"] = c.timing
        out[cid] = face
    return out


def label(h: Any) -> str:
    return _label(tuple(h))  # type: ignore[arg-type]


_TEMPLATES = {
    "game_opened": lambda e: f"{e.scenario.title}: set up",
    "deck_shuffled": lambda e: f"{e.seat} shuffles a deck of {e.size}" + (" (reshuffle)" if e.reshuffle else ""),
    "cards_drawn": lambda e: f"{e.seat} draws {e.count}",
    "turn_started": lambda e: f"turn {e.turn}: {e.seat}",
    "card_played": lambda e: f"{e.seat} plays {e.card}",
    "unit_ordered": lambda e: f"{e.unit} ordered",
    "orders_ended": lambda e: "orders end",
    "unit_moved": lambda e: f"{e.unit} moves {len(e.path)} to {label(e.path[-1])}",
    "moves_ended": lambda e: "moves end",
    "attack_rolled": lambda e: f"{e.attack.attacker} attacks {e.attack.target}: {', '.join(e.attack.faces)}",
    "dice_rerolled": lambda e: f"re-roll: {', '.join(e.faces)}",
    "attack_resolved": lambda e: f"{e.target}: {e.hits} hit(s), {e.losses} loss(es)"
    + (" - destroyed" if e.structure_destroyed or e.eliminated else ""),
    "unit_eliminated": lambda e: f"{e.unit} eliminated",
    "medals_awarded": lambda e: f"{e.faction} {e.count:+d} medal(s) = {e.total}",
    "objective_changed": lambda e: f"objective {e.objective} {'held' if e.held else 'lost'} by {e.faction}",
    "decision_pending": lambda e: f"{e.pending.seat} to decide: {e.pending.kind.replace('_', ' ')}",
    "retreat_ignored": lambda e: f"{e.unit} ignores {e.count} retreat(s)",
    "unit_retreated": lambda e: f"{e.unit} retreats {len(e.path)}" + (f" to {label(e.path[-1])}" if e.path else "")
    + (f", loses {e.losses}" if e.losses else ""),
    "breakthrough_made": lambda e: f"{e.unit} breaks through" if e.to else f"{e.unit} stays",
    "attack_finished": lambda e: "attack finished",
    "cards_discarded": lambda e: f"{e.seat} discards {len(e.cards)}",
    "turn_ended": lambda e: f"{e.seat}'s turn ends",
    "game_won": lambda e: f"{e.winner} wins: {e.reason}",
    "deck_arranged": lambda e: f"{e.seat} rearranges the top {e.count} cards",
    "unit_placed": lambda e: f"{e.unit} ({e.unit_type}) enters at {label(e.hex)}",
    "support_dealt": lambda e: f"{e.faction} holds {e.count} support card(s)",
    "support_played": lambda e: f"{e.seat} plays support {e.card}" + (f" on {e.target}" if e.target else ""),
    "hand_peeked": lambda e: f"{e.seat} looks at {e.of}'s hand",
    "unit_healed": lambda e: f"{e.unit} heals {e.figures}",
    "effect_added": lambda e: f"{e.unit}: {e.effect.replace('_', ' ')} until {e.until_seat}'s next turn",
    "bombarded": lambda e: f"{e.target} bombarded: {e.losses} loss(es)",
    "attack_declared": lambda e: f"{e.attack.attacker} declares an attack on {e.attack.target}",
    "decision_made": lambda e: f"{e.seat}: {e.choice}",
}


def summarize(event: Any) -> str:
    name = event_type_name(event)
    fn = _TEMPLATES.get(name)
    return fn(event) if fn else name


def render(state: HothState, seat: str | None, recent: list[Any]) -> str:
    if state.scenario is None:
        return render_board(BoardPicture(title=state.scenario_id))
    sc = state.scenario
    medals = []
    for ob in sc.objectives:
        if isinstance(ob, TemporaryMedal):
            medals.append(MedalMark(hex=tuple(ob.hex), kind="temporary", faction=ob.faction))  # type: ignore[arg-type]
        elif isinstance(ob, PermanentMedal) and ob.id not in state.captured:
            medals.append(MedalMark(hex=tuple(ob.hex), kind="permanent", faction=ob.faction))  # type: ignore[arg-type]
    units = []
    for u in sorted(state.units.values(), key=lambda u: u.id):
        badges: tuple[str, ...] = ()
        if u.badge == "eweb":
            badges = ("eweb_set" if u.eweb_set else "eweb_moved",)
        elif u.badge:
            badges = (u.badge,)
        units.append(UnitMark(hex=u.hex, faction=u.faction, unit_type=u.unit, figures=u.figures, badges=badges,
                              id=u.id))
    la = state.last_attack
    pic = BoardPicture(
        title=f"{sc.title} - turn {state.turn_no}" + (f" - {state.winner} wins" if state.winner else ""),
        south_faction=sc.south,
        terrain=dict(terrain_map(sc.terrain)),
        structures={s.hex: s.kind for s in state.structures.values() if not s.destroyed},
        structure_ids={s.hex: s.id for s in state.structures.values() if not s.destroyed},
        medals=tuple(medals),
        units=tuple(units),
        last_attack=LastAttack(attacker=la.attacker, target=la.target, faces=la.faces) if la else None,
    )
    return render_board(pic)
