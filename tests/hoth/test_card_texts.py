"""The view carries the printed face of each card it shows (the web client's hand with card texts),
and never the face of a card the seat may not see (DESIGN 4)."""
from domain.hoth.decider import HothRuleset
from tests.hoth.fixtures import FixtureCatalog
from tests.hoth.play import Game

SCN = "SCN-TAKE-DOWN-THE-SHIELD"


def test_own_hand_has_its_texts_and_the_other_hand_has_none():
    rs = HothRuleset(FixtureCatalog())
    g = Game(rs, SCN)
    cat = rs.catalog().cards
    imp = rs.view(g.state, "imperial")
    reb = rs.view(g.state, "rebel")
    spectator = rs.view(g.state, None)
    own = imp["hands"]["imperial"]
    assert own and set(own) <= set(imp["cards"])
    for cid in own:
        assert imp["cards"][cid]["title"] == cat[cid].title
        assert imp["cards"][cid]["kind"] == cat[cid].kind
    # the rebel hand is a count for the imperial seat, and none of its cards has a face in that view
    assert isinstance(imp["hands"]["rebel"], int)
    assert not set(reb["hands"]["rebel"]) & (set(imp["cards"]) - set(own))
    assert spectator["cards"] == {}
    # once everything is public (a finished game's replay), every hand and deck card has its face
    everything = rs.view(g.state, None, reveal_all=True)
    for hand in everything["hands"].values():
        assert set(hand) <= set(everything["cards"])
