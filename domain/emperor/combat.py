"""Attack, defense, wounds and death (BASE-ATK-1, BASE-DEF-1, SOLO-DEF, BASE-WAR-2, SOLO-GAME-2),
and the location bonuses each side uses (BASE-LOC-2/3/5, SOLO-LOCB)."""
from __future__ import annotations

from typing import Any

from domain.kernel import RulingBuilder
from domain.kernel.messages import Message, msg, msg_n

from . import orders
from .cards import boost, choose_card, scan_words
from .choices import DEFENSE_CARD, PUSH_BONUS, UNDEFENDED, choice, cite
from .content import Location, ability_text
from .ending import hero_died
from .events import AttackResolved, Defended, GameWon, LocationsFlipped, WarriorDied
from .field import Field, symbol_count
from .outbox import Outbox
from .sources import source_said
from .state import EMPEROR, HELPER, HERO, HUMAN, Warrior, other


def casualties(out: Outbox) -> None:
    """BASE-WAR-2: a warrior at 0 health dies (a helper is removed); SOLO-GAME-2: when a hero dies the
    game ends at once and the other side wins."""
    for w in sorted(out.state.warriors.values(), key=lambda w: w.id):
        if w.alive and w.left <= 0:
            out.emit(WarriorDied(warrior=w.id), RulingBuilder().add(
                "BASE-WAR-2", msg("{warrior} is reduced to 0 health and dies (a helper is removed).", warrior=w.name)
                if w.kind == HELPER else msg("{warrior} is reduced to 0 health and dies.", warrior=w.name),
                warrior=w.id, health=w.health), summary=msg("{w_name} dies", w_name=w.name))
            if w.kind == HERO and not out.over:
                win = other(w.side)
                out.emit(GameWon(winner=win, reason=hero_died(w.name).english()), RulingBuilder().add(
                    "SOLO-GAME-2", msg("A hero died: the game ends at once and the side whose hero is alive wins "
                                       "({value}).", value=msg("you") if win == HUMAN else msg("the Emperor")), winner=win),
                    summary=msg("you win") if win == HUMAN else msg("the Emperor wins"))
                return


def flip(out: Outbox, side: str, warrior: Warrior, locs: list[tuple[Location, int]], symbols: tuple[str, ...],
         purpose: str, rules: list[tuple[str, Message]]) -> int:
    """Use the bonus symbols of ``locs`` and flip those cards (BASE-LOC-3; a card used for several
    symbols flips once). Returns the total bonus."""
    if not locs:
        return 0
    amount = sum(n for _, n in locs)
    rb = RulingBuilder()
    for rule, text in rules:
        rb.add(rule, text)
    names = ", ".join(f"{lo.id} {lo.name} ({'+'.join(b.symbol + ('x2' if b.count == 2 else '') for b in lo.bonuses)})"
                      for lo, _ in locs)
    rb.add("BASE-LOC-3", msg("{names}: used and flipped; a flipped location gives no bonus and its hazards are "
                             "inactive.", names=names), locations=[lo.id for lo, _ in locs], amount=amount)
    out.emit(LocationsFlipped(side=side, warrior=warrior.id, locations=tuple(lo.id for lo, _ in locs),
                              symbols=symbols, amount=amount, purpose=purpose), rb,
             summary=msg("{warrior_name} uses {items} (+{amount} {symbols})",
                         warrior_name=warrior.name, items='+'.join(lo.id for lo, _ in locs), amount=amount, symbols='/'.join(symbols)))
    return amount


def push_bonus_locations(state: Any, field: Field, cell: str) -> list[tuple[Location, int]]:
    """SOLO-PUSH-1 under SOLO-CHOICE-PUSH-BONUS: the push bonuses the Emperor adds before a push."""
    if choice(state, PUSH_BONUS) == "anywhere":
        return field.bonus_locations_anywhere(("PUSH",))
    return field.bonus_locations(cell, ("PUSH",))


def push_bonus_depends(state: Any, cell: str) -> bool:
    """True when the two readings of SOLO-CHOICE-PUSH-BONUS give the pusher on ``cell`` different bonuses."""
    field = Field(state)
    near = {lo.id for lo, _ in field.bonus_locations(cell, ("PUSH",))}
    return near != {lo.id for lo, _ in field.bonus_locations_anywhere(("PUSH",))}


def emperor_bonus(out: Outbox, warrior: Warrior, symbols: tuple[str, ...], purpose: str,
                  rules: list[tuple[str, Message]], locs: list[tuple[Location, int]] | None = None
                  ) -> tuple[int, dict[str, int]]:
    """SOLO-LOCB-1 (PROPOSED, GAP-A-19): the Emperor uses every available bonus relevant to the
    ability and flips the cards. Returns the bonus by symbol. ``locs``: the locations to use, when the
    caller chose them (a push under SOLO-CHOICE-PUSH-BONUS); else those available to ``warrior``."""
    assert warrior.cell is not None
    field = Field(out.state)
    if locs is None:
        locs = field.bonus_locations(warrior.cell, symbols)
    by: dict[str, int] = {s: sum(symbol_count(lo, (s,)) for lo, _ in locs) for s in symbols}
    flip(out, EMPEROR, warrior, locs, symbols, purpose, rules)
    return sum(by.values()), {k: v for k, v in by.items() if v}


def emperor_defense(out: Outbox, target: Warrior, attack: int, source: str) -> tuple[int, dict[str, int]]:
    """SOLO-DEF-2..5 (hero) and SOLO-DEF-3 (helper): the Emperor's defense against the human's attack."""
    with out.automaton():
        if target.kind == HELPER:
            out.emit(Defended(side=EMPEROR, warrior=target.id, value=target.defense, parts={"fixed": target.defense}),
                     RulingBuilder().add("SOLO-DEF-3", msg("The Emperor's helper {target_name} defends "
                                                           "automatically with its fixed defense {defense} "
                                                           "(BASE-DEF-1): no order card, no modifier.",
                                                           target_name=target.name, defense=target.defense), defense=target.defense),
                     summary=msg("{target_name} defends with {defense}",
                                 target_name=target.name, defense=target.defense))
            return target.defense, {"fixed": target.defense}
        st = out.state
        if not st.prepared(EMPEROR):  # SOLO-DEF-4 (INFERRED, GAP-A-15), SOLO-CHOICE-UNDEFENDED
            reading = choice(st, UNDEFENDED)
            loc = 0
            if reading == "locations":
                loc, _ = emperor_bonus(out, target, ("DEFENSE",), "defense", [(
                    "SOLO-DEF-4", msg("The Emperor's hero has no prepared action card: it does not defend (no deck "
                                      "advance, no card, no order modifier); it still uses its location DEFENSE "
                                      "bonuses."))])
            parts = {"card": 0, "locations": loc}
            rb = cite(RulingBuilder(), UNDEFENDED, reading, msg("an undefended hero still uses and flips the DEFENSE "
                                                                "locations next to it") if reading == "locations" else
                      msg("an undefended hero uses no location: defense 0, nothing flipped"))
            out.emit(Defended(side=EMPEROR, warrior=target.id, value=loc, parts=parts), rb.add(
                "SOLO-DEF-4", msg("Undefended: defense = 0 + {loc} location DEFENSE = {loc} (INFERRED, GAP-A-15).",
                                  loc=loc),
                defense=loc), summary=msg("{target_name} cannot defend (defense {loc})",
                                          target_name=target.name, loc=loc))
            return loc, parts
        orders.advance(out, "defense")  # SOLO-DEF-2a
        st = out.state
        oc = st.current_order()
        assert oc is not None
        card_id, scanned = choose_card(st, oc.compass)  # SOLO-DEF-2b, SOLO-CARD-1/2
        assert card_id is not None
        card = st.card(card_id)
        loc, _ = emperor_bonus(out, target, ("DEFENSE",), "defense", [(
            "SOLO-DEF-2", msg("c: the defending hero adds the DEFENSE bonuses of the locations available to it "
                              "(SOLO-LOCB-1: the Emperor always uses them)."))])
        st = out.state
        crest = boost(st, EMPEROR, card.defense_boost, unique_ok=False)  # SOLO-DEF-2c/d
        raw = card.defense + loc + crest + oc.defense_modifier
        value = max(0, raw)  # SOLO-DEF-2f
        parts = {"card": card.defense, "locations": loc, "crest": crest, "order_modifier": oc.defense_modifier}
        rb = RulingBuilder().add(
            "SOLO-DEF-1", msg("The Emperor's warriors defend under the base rules, changed by SOLO-DEF-2..5 "
                              "(SOLO-GAME-4).")).add(
            "SOLO-DEF-5", msg("Each separate attack on the Emperor's hero is a separate defense sequence.")).add(
            "SOLO-ORD-4", msg("The order card consulted is the current one at this moment: {id}.", id=oc.id)).add(
            "SOLO-CARD-2", msg("The card is chosen as for an ACTIVATE step.")).add(
            "SOLO-CARD-1", msg("Compass {compass}: the action row is scanned {value} ({scanned}); the first "
                               "prepared card is {card_id} (PROPOSED, GAP-A-01).",
                               compass=oc.compass, value=scan_words(oc.compass), scanned=', '.join(scanned), card_id=card_id), scanned=list(scanned), card=card_id).add(
            "SOLO-DEF-2", msg("b: {card_id} is activated for its defense value {defense} and exhausted.",
                              card_id=card_id, defense=card.defense),
            defense=card.defense)
        if card.abilities:
            reading = choice(st, DEFENSE_CARD)
            abilities = "; ".join(ability_text(a) for a in card.abilities)
            cite(rb, DEFENSE_CARD, reading,
                 msg("{card}'s abilities ({abilities}) are not resolved.", card=card_id, abilities=abilities)
                 if reading == "value" else
                 msg("{card}'s abilities ({abilities}) resolve once the attack is resolved.", card=card_id,
                     abilities=abilities))
        if card.defense_boost is not None:
            rb.add("SOLO-CREST-2", msg("The unique crest works only in the Emperor's own turn; this is your turn."))
            rb.add("SOLO-DEF-2", msg("c/d: crest boost +{amount} if {crest}: applied crest initiative is {value}, "
                                     "so +{crest2}; a unique crest never counts for defense (SOLO-CREST-2).",
                                     amount=card.defense_boost.amount, crest=card.defense_boost.crest, value=st.crest.get(EMPEROR) or msg("none"), crest2=crest), crest=crest)
        modifier = format(oc.defense_modifier, "+d")  # signed as printed on the order card, in every language
        rb.add("SOLO-DEF-2", msg("e/f: + order card {card} defense modifier {modifier}: {defense} + {loc} + {crest} "
                                 "{modifier} = {raw}{floor}", card=oc.id, modifier=modifier,
                                 defense=card.defense, loc=loc, crest=crest, raw=raw,
                                 floor=msg(" -> 0 (never below 0).") if raw < 0 else "."), total=value)
        out.emit(Defended(side=EMPEROR, warrior=target.id, card=card_id, value=value, parts=parts, scanned=scanned),
                 rb, summary=msg("the Emperor defends with {card_id}: {value}",
                                 card_id=card_id, value=value))
        return value, parts


def resolve_attack(out: Outbox, side: str, attacker: Warrior, target: Warrior, source: str, attack: int,
                   defense: int, parts: dict[str, Any], rb: RulingBuilder) -> int:
    """BASE-ATK-1: wounds = max(0, attack - defense); then BASE-WAR-2 / SOLO-GAME-2."""
    wounds = max(0, attack - defense)
    rb.add("BASE-ATK-1", msg_n("{source}: attack {attack} against defense {defense}: {wounds} wound(s) to "
                               "{target_name}.",
                               "{source}: attack {attack} against defense {defense}: {wounds} wound(s) to "
                               "{target_name}.", "wounds", source=source_said(source), attack=attack, defense=defense, wounds=wounds, target_name=target.name),
           attack=attack, defense=defense, wounds=wounds)
    out.emit(AttackResolved(side=side, attacker=attacker.id, target=target.id, source=source, attack=attack,
                            defense=defense, wounds=wounds, parts=parts), rb,
             summary=msg_n("{attacker_name} attacks {target_name}: {attack} vs {defense}, {wounds} wound(s)",
                           "{attacker_name} attacks {target_name}: {attack} vs {defense}, {wounds} wound(s)", "wounds", attacker_name=attacker.name, target_name=target.name, attack=attack, defense=defense, wounds=wounds))
    casualties(out)
    return wounds
