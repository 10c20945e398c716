"""Battle variants: the next battle's setup changed by the last outcome (content 3.4 ADD_UNIT / REMOVE_UNIT),
named by the node and winner that changed it."""
from __future__ import annotations

import msgspec

from ..board import label
from ..scenario import Scenario, UnitSetup
from .graph import AddUnit, Campaign, CarriedEffect, RemoveUnit


def setup_changes(effects: tuple[CarriedEffect, ...]) -> tuple[AddUnit | RemoveUnit, ...]:
    return tuple(e for e in effects if isinstance(e, (AddUnit, RemoveUnit)))


def variant_id(scenario_id: str, campaign_id: str, node: str, winner: str) -> str:
    """Id of ``scenario_id`` as set up after ``winner`` won ``node`` of ``campaign_id``."""
    return f"{scenario_id}@{campaign_id}/{node}/{winner}"


def apply_setup(s: Scenario, changes: tuple[AddUnit | RemoveUnit, ...], new_id: str, title: str) -> Scenario:
    """``s`` with units removed and added (content 3.4 ADD_UNIT / REMOVE_UNIT)."""
    units = list(s.units)
    for c in changes:
        if isinstance(c, RemoveUnit):
            units = [u for u in units if not (tuple(u.hex) == tuple(c.hex) and u.unit == c.unit
                                                 and u.faction == c.faction)]
    for c in changes:
        if isinstance(c, AddUnit):
            units.append(UnitSetup(hex=c.hex, faction=c.faction, unit=c.unit, badge=c.badge))
    note = "; ".join(_change_text(c) for c in changes)
    return msgspec.structs.replace(s, id=new_id, title=title, units=tuple(units),
                                   notes=f"{s.notes} Campaign setup changes: {note}.".strip())


def _change_text(c: AddUnit | RemoveUnit) -> str:
    verb = "add" if isinstance(c, AddUnit) else "remove"

    return f"{verb} {c.faction} {c.unit} at {label(tuple(c.hex))}"  # type: ignore[arg-type]


def variants(c: Campaign, scenarios: dict[str, Scenario]) -> dict[str, Scenario]:
    """Every changed setup the campaign can lead to, by variant id."""
    out: dict[str, Scenario] = {}
    for nid, node in c.nodes.items():
        for winner, o in node.outcomes.items():
            changes = setup_changes(o.effects)
            if not changes or o.next is None or o.next not in c.nodes:
                continue
            base = scenarios.get(c.nodes[o.next].scenario)
            if base is None:
                continue
            vid = variant_id(base.id, c.id, nid, winner)
            out[vid] = apply_setup(base, changes, vid, f"{base.title} ({c.title}, after {winner} won {nid})")
    return out
