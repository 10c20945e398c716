"""Playing a command card and ordering units (HOTH-CARD-*, HOTH-ORDER-*)."""
from __future__ import annotations

from domain.kernel import RuleViolation
from domain.kernel.messages import msg, msg_n

from .cards import Card, CopyOpponentCard, Order, OrderGroup
from .context import unit_classes, unit_sections
from .state import HothState, Slot, UnitState

_MIRROR = {"left": "right", "right": "left", "centre": "centre"}


def group_fits(u: UnitState, classes: tuple[str, ...], types: tuple[str, ...]) -> bool:
    if not classes and not types:
        return True
    return (u.unit in types) or not unit_classes(u).isdisjoint(classes)


def resolve_slots(state: HothState, faction: str, card: Card, mirrored: bool) -> tuple[Slot, ...]:
    """The card's order groups on the current board (HOTH-CARD-3, HOTH-CARD-5, HOTH-GAP-24)."""
    own = [u for u in state.units.values() if u.faction == faction]
    slots: list[Slot] = []
    for eff in card.effects:
        if not isinstance(eff, Order):
            continue
        for g in eff.groups:
            slots.append(_slot(g, own, mirrored))
    return tuple(slots)


def _slot(g: OrderGroup, own: list[UnitState], mirrored: bool) -> Slot:
    secs = tuple(_MIRROR[s] for s in g.sections) if mirrored else tuple(g.sections)
    if g.fallback and not any(group_fits(u, g.unit_classes, g.unit_types) for u in own):
        # HOTH-CARD-5: no unit of that kind: order 1 unit of your choice, anywhere, no bonus.
        return Slot(count=1, bonus=False, fallback=True)
    return Slot(count=g.count, sections=secs, same_section=g.same_section, unit_classes=tuple(g.unit_classes),
                unit_types=tuple(g.unit_types), bonus=g.bonus)


def copies_opponent(card: Card) -> bool:
    return any(isinstance(e, CopyOpponentCard) for e in card.effects)


# HOTH-ORDER-7: a unit's section is judged where it stands when it is ordered.
def order_refusal(state: HothState, faction: str, unit_id: str, slot_index: int) -> RuleViolation | None:
    t = state.turn
    assert t is not None
    u = state.units.get(unit_id)
    if u is None:
        return RuleViolation("HOTH-ORDER-1", msg("There is no unit '{unit}' on the battlefield.", unit=unit_id))
    if u.faction != faction:
        return RuleViolation("HOTH-GLOSS-4", msg("{unit} is an enemy unit; you can only order your own units.", unit=unit_id))
    if any(o.unit == unit_id for o in t.ordered):
        return RuleViolation("HOTH-ORDER-3", msg("{unit} is already ordered this turn.", unit=unit_id))
    if not 0 <= slot_index < len(t.slots):
        return RuleViolation("HOTH-CARD-3", msg("The card played has no order group {group}.", group=slot_index))
    slot = t.slots[slot_index]
    used = [o for o in t.ordered if o.slot == slot_index]
    if len(used) >= slot.count:
        return RuleViolation("HOTH-ORDER-4", msg_n("Order group {group} of the card is already used up ({count} "
                                                   "unit(s)).", "Order group {group} of the card is already used up "
                                                   "({count} unit(s)).", "count", group=slot_index, count=slot.count))
    if not group_fits(u, slot.unit_classes, slot.unit_types):
        kinds = ", ".join(slot.unit_classes + slot.unit_types)
        return RuleViolation("HOTH-CARD-4", msg("This order group may only order {kinds} units.", kinds=kinds))
    if slot.sections:
        secs = unit_sections(state, u) & set(slot.sections)
        if not secs:
            return RuleViolation("HOTH-ORDER-2", msg("{unit} is not in the {sections} section(s) named by the card.",
                                                     unit=unit_id, sections="/".join(slot.sections)))
        if slot.same_section:
            for o in used:
                secs &= unit_sections(state, state.units[o.unit])
            if not secs:
                return RuleViolation("HOTH-CARD-3", msg("This card orders units in one single section; {unit} is "
                                                        "not in the same section as the others.", unit=unit_id))
    return None


def order_options(state: HothState, faction: str) -> list[tuple[str, int]]:
    t = state.turn
    assert t is not None
    out: list[tuple[str, int]] = []
    if not t.slots:
        return out
    done = {o.unit for o in t.ordered}
    used = [0] * len(t.slots)
    for o in t.ordered:
        used[o.slot] += 1
    open_slots = [(i, s) for i, s in enumerate(t.slots) if used[i] < s.count]
    if not open_slots:
        return out
    for u in state.units.values():
        if u.faction != faction or u.id in done:
            continue
        secs = None
        for i, s in open_slots:
            if not group_fits(u, s.unit_classes, s.unit_types):
                continue
            if s.sections:
                if secs is None:
                    secs = unit_sections(state, u)
                if secs.isdisjoint(s.sections):
                    continue
            if s.same_section and order_refusal(state, faction, u.id, i) is not None:
                continue
            out.append((u.id, i))
    return out
