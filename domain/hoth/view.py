"""What a seat may see (DESIGN 4), one-line summaries, and the board picture."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.kernel import event_type_name
from domain.kernel.messages import Message, msg, msg_n, text_of

from .board import label as _label
from .cards import Card, title_of
from .medals import win_message
from .scenario import PermanentMedal, TemporaryMedal
from .state import SUPPORT_WINDOWS, HothState, terrain_map
from .terms import decision, faces, hex_text, side, signed, terrain
from .units import UNIT_SPECS
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
    said = win_message(state)
    if said is not None:  # the reason as a message: the service says it in the reader's language (issue 28)
        out["win_reason_message"] = msgspec.to_builtins(said)
    return out


#: Where this view holds the printed words of the content (domain/kernel/printed.py): the scenario's title,
#: the printed face of every card it shows (only cards the view already shows: :func:`card_texts`).
PRINTED = (("scenario", "title"), ("cards", "*", "title"), ("cards", "*", "text"))


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
    "game_opened": lambda e: msg("{title}: set up", title=e.scenario.title),
    "deck_shuffled": lambda e: (msg_n("{seat}: deck of {count} shuffled (reshuffle)", "{seat}: deck of {count} shuffled (reshuffle)", "count", seat=side(e.seat), count=e.size)
                                if e.reshuffle else msg_n("{seat}: deck of {count} shuffled", "{seat}: deck of {count} shuffled", "count", seat=side(e.seat),
                                                        count=e.size)),
    "cards_drawn": lambda e: msg_n("{seat}: {count} card(s) drawn", "{seat}: {count} card(s) drawn", "count", seat=side(e.seat), count=e.count),
    "turn_started": lambda e: msg("turn {turn}: {seat}", turn=e.turn, seat=side(e.seat)),
    "unit_ordered": lambda e: msg("{unit} ordered", unit=e.unit),
    "orders_ended": lambda e: msg("orders end"),
    "unit_moved": lambda e: msg_n("{unit} moves {count} to {hex}", "{unit} moves {count} to {hex}", "count", unit=e.unit, count=len(e.path), hex=hex_text(e.path[-1])),
    "moves_ended": lambda e: msg("moves end"),
    "attack_rolled": lambda e: msg("{attacker} attacks {target}: {dice}", attacker=e.attack.attacker,
                                   target=e.attack.target, dice=faces(e.attack.faces)),
    "dice_rerolled": lambda e: msg("re-roll: {dice}", dice=faces(e.faces)),
    "attack_resolved": lambda e: (msg("{target}: {hits} hit(s), {losses} loss(es) - destroyed", target=e.target,
                                      hits=e.hits, losses=e.losses)
                                  if e.structure_destroyed or e.eliminated else
                                  msg("{target}: {hits} hit(s), {losses} loss(es)", target=e.target, hits=e.hits,
                                      losses=e.losses)),
    "unit_eliminated": lambda e: msg("{unit} eliminated", unit=e.unit),
    "medals_awarded": lambda e: msg("{faction}: {change} medal(s) = {total}", faction=side(e.faction),
                                    change=signed(e.count), total=e.total),
    # the objective by its kind (its id is the scenario's data; the ruling says its hex: medals.py)
    "objective_changed": lambda e: (msg("{faction}: permanent medal won for good", faction=side(e.faction))
                                    if e.permanent else
                                    msg("{faction}: temporary medal held", faction=side(e.faction)) if e.held else
                                    msg("{faction}: temporary medal lost", faction=side(e.faction))),
    "decision_pending": lambda e: msg("{seat} to decide: {decision}", seat=side(e.pending.seat),
                                      decision=decision(e.pending.kind)),
    "retreat_ignored": lambda e: msg_n("{unit} ignores {count} retreat(s)", "{unit} ignores {count} retreat(s)", "count", unit=e.unit, count=e.count),
    "unit_retreated": lambda e: _retreated(e),
    "breakthrough_made": lambda e: msg("{unit} breaks through", unit=e.unit) if e.to else msg("{unit} stays", unit=e.unit),
    "attack_finished": lambda e: msg("attack finished"),
    "cards_discarded": lambda e: msg_n("{seat}: {count} card(s) discarded", "{seat}: {count} card(s) discarded", "count", seat=side(e.seat), count=len(e.cards)),
    "turn_ended": lambda e: msg("{seat}: turn ends", seat=side(e.seat)),
    "game_won": lambda e: msg("victory: {winner} ({reason})", winner=side(e.winner), reason=e.reason),
    "deck_arranged": lambda e: msg_n("{seat}: top {count} cards rearranged", "{seat}: top {count} cards rearranged", "count", seat=side(e.seat), count=e.count),
    "unit_placed": lambda e: msg("{unit} enters at {hex}", unit=e.unit, hex=hex_text(e.hex)),
    "support_dealt": lambda e: msg_n("{faction}: {count} support card(s) in hand", "{faction}: {count} support card(s) in hand", "count", faction=side(e.faction), count=e.count),
    "hand_peeked": lambda e: msg("{seat}: a look at the hand of {other}", seat=side(e.seat), other=side(e.of)),
    "unit_healed": lambda e: msg_n("{unit} heals {count}", "{unit} heals {count}", "count", unit=e.unit, count=e.figures),
    "effect_added": lambda e: msg("{unit}: {effect} until the next turn of {seat}", unit=e.unit,
                                  effect=terrain(e.effect), seat=side(e.until_seat)),
    "bombarded": lambda e: msg_n("{target} bombarded: {losses} loss(es)", "{target} bombarded: {losses} loss(es)", "losses", target=e.target, losses=e.losses),
    "attack_declared": lambda e: msg("{attacker} declares an attack on {target}", attacker=e.attack.attacker,
                                     target=e.attack.target),
    "decision_made": lambda e: (msg("{seat}: no support card", seat=side(e.seat))
                                if (e.kind, e.choice) == ("support", "pass") else
                                msg("{seat}: {choice}", seat=side(e.seat), choice=e.choice)),
}


def _retreated(e: Any) -> Message:
    p = {"unit": e.unit, "count": len(e.path), "losses": e.losses}
    if e.path and e.losses:
        return msg_n("{unit} retreats {count} to {hex}, loses {losses}", "{unit} retreats {count} to {hex}, loses {losses}", "count", hex=hex_text(e.path[-1]), **p)
    if e.path:
        return msg_n("{unit} retreats {count} to {hex}", "{unit} retreats {count} to {hex}", "count", hex=hex_text(e.path[-1]), **p)
    if e.losses:
        return msg_n("{unit} retreats {count}, loses {losses}", "{unit} retreats {count}, loses {losses}", "count", **p)
    return msg_n("{unit} retreats {count}", "{unit} retreats {count}", "count", **p)


#: The steps that name a card: by its printed title (``cards``: the content's cards by id), never by its id.
_CARD_TEMPLATES = {
    "card_played": lambda e, title: msg("{seat}: {card} played", seat=side(e.seat), card=title),
    "support_played": lambda e, title: (
        msg("{seat}: support card {card} played on {target}", seat=side(e.seat), card=title, target=e.target)
        if e.target else msg("{seat}: support card {card} played", seat=side(e.seat), card=title)),
}


def summarize(event: Any, cards: "Mapping[str, Card] | None" = None) -> "str | Message":
    """The step's one line, as a message; its side by name, a card by its printed title (``cards``)."""
    name = event_type_name(event)
    by_card = _CARD_TEMPLATES.get(name)
    if by_card is not None:
        return by_card(event, title_of(cards, event.card))
    fn = _TEMPLATES.get(name)
    return fn(event) if fn else name


def render(state: HothState, seat: str | None, recent: list[Any], say: Any = text_of) -> str:
    """``GET /games/{id}/board.svg``; ``say``: a message in the reader's language (English by default)."""
    if state.scenario is None:
        return render_board(BoardPicture(title=state.scenario_id), say)
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
                              id=u.id, name=UNIT_SPECS[u.unit].name))
    la = state.last_attack
    pic = BoardPicture(
        title=msg("{title} - turn {turn} - victory: {side}", title=sc.title, turn=state.turn_no, side=side(state.winner))
        if state.winner else msg("{title} - turn {turn}", title=sc.title, turn=state.turn_no),
        south_faction=sc.south,
        terrain=dict(terrain_map(sc.terrain)),
        structures={s.hex: s.kind for s in state.structures.values() if not s.destroyed},
        structure_ids={s.hex: s.id for s in state.structures.values() if not s.destroyed},
        medals=tuple(medals),
        units=tuple(units),
        last_attack=LastAttack(attacker=la.attacker, target=la.target, faces=la.faces) if la else None,
    )
    return render_board(pic, say)
