"""Setting up worked examples: a scenario, a chosen card in hand, and dice seeds found by search."""
from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.hoth.combat import DIE_FACES
from domain.hoth.decider import HothRuleset
from domain.kernel.dice import GAME_DICE, draw

from .fixtures import ORDER_ANY, FixtureCatalog
from .play import Game


def seed_for(game_id: str, faces: Sequence[str], start: int = 0, limit: int = 400_000) -> bytes:
    """A seed whose attack dice ``start, start+1, ...`` show ``faces`` (real HMAC dice, found by search).

    ``None`` in ``faces`` means any face.
    """
    for n in range(limit):
        seed = n.to_bytes(32, "big")
        if all(f is None or DIE_FACES[draw(seed, game_id, GAME_DICE, start + i, 6)] == f for i, f in enumerate(faces)):
            return seed
    raise AssertionError(f"no seed gives {faces}")


def example(scn, card: str | None = None, faces: Sequence[str] = (), seat: str | None = None,
            options: dict | None = None, choices: dict | None = None) -> Game:
    """A game of ``scn`` where ``seat`` (default: the first player) holds ``card`` and the dice show ``faces``."""
    cat = FixtureCatalog([scn])
    rs = HothRuleset(cat)
    gid = "example"
    seed = seed_for(gid, faces) if faces else b"\x01" * 32
    g = Game(rs, scn.id, seed=seed, options=options, game_id=gid, choices=choices)
    seat = seat or scn.first
    if card is None:
        card = ORDER_ANY[seat.split("-")[0]].id
    cards = dict(g.state.cards)
    cards.update({c.id: c for c in ORDER_ANY.values()})
    cards.update(cat.cards)
    hands = dict(g.state.hands)
    hands[seat] = (card,) + tuple(hands[seat][1:])
    g.state = msgspec.structs.replace(g.state, cards=cards, hands=hands)
    return g
