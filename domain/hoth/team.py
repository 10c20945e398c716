"""Seats, turn order and decks for 2 players and team play (HOTH-SETUP-9, HOTH-TEAM-*)."""
from __future__ import annotations

from typing import Any

from domain.kernel import SetupError

from .scenario import FACTIONS

#: HOTH-TEAM-4: cards dealt to each member of a 2-player team as a personal deck.
TEAM_PERSONAL_DECK = 8
#: HOTH-LEADER-1: the leaders of each faction.
LEADERS: dict[str, tuple[str, ...]] = {
    "imperial": ("vader", "veers", "piett"),
    "rebel": ("leia", "luke", "han"),
}


def other(faction: str) -> str:
    return "rebel" if faction == "imperial" else "imperial"


def team_factions(options: dict[str, Any]) -> tuple[str, ...]:
    """Factions played by a 2-player team: {"team": true} both (4 players), {"team": "rebel"} one (3 players)."""
    team = options.get("team", False)
    if team is False or team is None:
        return ()
    if team is True:
        return FACTIONS
    if team in FACTIONS:
        return (team,)
    raise SetupError("options.team", "team is true (4 players), \"imperial\" or \"rebel\" (3 players), or false")


def seats_for(options: dict[str, Any]) -> tuple[str, ...]:
    teams = team_factions(options)
    seats = ["imperial", "rebel"]
    for f in teams:
        seats.append(f"{f}-2")
    return tuple(seats)


def faction_seats(seats: tuple[str, ...], faction: str) -> tuple[str, ...]:
    return tuple(s for s in seats if s == faction or s.startswith(faction + "-"))


def turn_order(first: str, seats: tuple[str, ...]) -> tuple[str, ...]:
    """HOTH-TURN-1, HOTH-TEAM-7, HOTH-TEAM-9."""
    a, b = faction_seats(seats, first), faction_seats(seats, other(first))
    n = max(len(a), len(b))
    out: list[str] = []
    for i in range(n):
        out.append(a[i % len(a)])
        out.append(b[i % len(b)])
    return tuple(out)


def leaders_option(options: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """{"leaders": {"imperial": "vader", "rebel": ["leia", "han"]}} -> per faction, one leader per seat."""
    raw = options.get("leaders") or {}
    if not isinstance(raw, dict):
        raise SetupError("options.leaders", "leaders maps a faction to a leader name (or one per team member)")
    out: dict[str, tuple[str, ...]] = {}
    for f, v in raw.items():
        if f not in FACTIONS:
            raise SetupError("options.leaders", f"unknown faction {f!r}")
        names = (v,) if isinstance(v, str) else tuple(v) if isinstance(v, (list, tuple)) else None
        if names is None or not all(n in LEADERS[f] for n in names):
            raise SetupError("options.leaders", f"{f} leaders are {', '.join(LEADERS[f])} (HOTH-LEADER-1)")
        if len(set(names)) != len(names):
            raise SetupError("options.leaders", "each leader's cards exist once (HOTH-TEAM-6)")
        out[f] = names
    return out


def team_hand_size(hand_size: int) -> int:
    """HOTH-TEAM-5: half the scenario's hand size, rounded up."""
    return (hand_size + 1) // 2
