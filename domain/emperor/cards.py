"""Action cards: the Emperor's card choice (SOLO-CARD, a replaceable policy) and crest initiative
(BASE-CREST-1, SOLO-CREST)."""
from __future__ import annotations

from collections.abc import Callable

from domain.kernel.messages import Message, msg

from .content import Boost, Direction, Requirement
from .state import EMPEROR, EmperorState


# -- SOLO-CARD: choosing an action card (PROPOSED, GAP-A-01) -------------------------------------

def compass_scan(row: tuple[str, ...], prepared: frozenset[str], arrow: str) -> tuple[str | None, tuple[str, ...]]:
    """SOLO-CARD-1 (PROPOSED): scan the action row from the end the compass points toward (right for
    E or S, left for W or N) and take the first prepared card. Returns the card and the cards looked at."""
    order = tuple(reversed(row)) if arrow in ("E", "S") else tuple(row)
    seen: list[str] = []
    for c in order:
        seen.append(c)
        if c in prepared:
            return c, tuple(seen)
    return None, tuple(seen)


#: SOLO-CARD-3: card choice is a replaceable policy, named by the order deck (content) -- GAP-A-01.
CARD_POLICIES: dict[str, Callable[[tuple[str, ...], frozenset[str], str], tuple[str | None, tuple[str, ...]]]] = {
    "compass_scan": compass_scan,
}
#: The policy of the PROPOSED model (SOLO-CARD-1), used when the content names none.
DEFAULT_CARD_POLICY = "compass_scan"  # GAP-A-01


def choose_card(state: EmperorState, arrow: str) -> tuple[str | None, tuple[str, ...]]:
    """SOLO-CARD-1/2: the Emperor's card for an ACTIVATE step or a defense."""
    policy = CARD_POLICIES[state.card_policy or DEFAULT_CARD_POLICY]
    row = tuple(c.id for c in state.heroes[EMPEROR].cards)
    return policy(row, frozenset(state.prepared(EMPEROR)), arrow)


def scan_words(arrow: str) -> Message:
    """Where the compass ``arrow`` starts the scan of the action row (SOLO-CARD-1), in words."""
    return msg("from the right end") if arrow in ("E", "S") else msg("from the left end")


# -- crest initiative ----------------------------------------------------------------------

def unique_crest_now(state: EmperorState) -> bool:
    """SOLO-CREST-1/2: the current order card shows a unique crest and it is the Emperor's turn."""
    oc = state.current_order()
    return bool(oc is not None and oc.unique_crest and state.emperor_turn)


def crest_applied(state: EmperorState, side: str, crest: str, *, unique_ok: bool = True) -> bool:
    """Whether ``side`` counts as having applied crest initiative ``crest`` now (BASE-CREST-1).

    SOLO-CREST-1: during the Emperor's turn a unique crest on the current order card matches every
    crest; SOLO-CREST-2 / SOLO-DEF-2d: never outside its turn, and never for its defense
    (``unique_ok=False``).
    """
    if side == EMPEROR and unique_ok and unique_crest_now(state):
        return True
    return state.crest.get(side, "") == crest


def boost(state: EmperorState, side: str, b: Boost | None, *, unique_ok: bool = True) -> int:
    """The crest boost ``(+k if T)`` that applies now (BASE-CREST-1)."""
    if b is None:
        return 0
    return b.amount if crest_applied(state, side, b.crest, unique_ok=unique_ok) else 0


def requirement_now(state: EmperorState, direction: Direction) -> tuple[Requirement, str]:
    """BASE-SOLO-1: the requirement in force, checked when the direction is determined; a
    crest-conditioned override applies when its crest is applied (a unique crest matches it,
    SOLO-CREST-1). Returns the requirement and the crest that selected it ("" for the base one)."""
    for o in direction.overrides:
        if crest_applied(state, EMPEROR, o.crest):
            return o.requirement, o.crest
    return direction.requirement, ""
