"""The seats of a campaign stream are folded by the kernel (``domain.kernel.campaign.campaign_seating``,
DESIGN 4, UMPIRE-SEAT-5, UMPIRE-SEAT-6): pure, from the decoded events alone, seqs counted from 1."""
from __future__ import annotations

from domain.kernel.campaign import SeedChosen, campaign_seating
from domain.kernel.header import SeatReady
from domain.kernel.seats import BY_CREATOR, BY_INVITATION, UNCLAIMED, SeatClaimed, SeatRotated, SeatsOffered, seat_report


def test_a_campaign_seated_with_tokens_hands_every_seat_to_its_creator():
    holding, given = campaign_seating([object(), object()])  # the rules' own events only
    assert holding.offered is None and holding.claimed == {} and not given
    assert {s: r["claimed"] for s, r in seat_report(holding, ("a", "b")).items()} == {"a": BY_CREATOR, "b": BY_CREATOR}


def test_claims_rotations_and_a_chosen_seed_are_folded_at_their_seqs():
    offered = SeatsOffered(kept=("a",), invited=("b", "c"))
    stream = [SeedChosen(), object(), offered, SeatReady(seat="a"), SeatClaimed(seat="b"), object(),
              SeatRotated(seat="b")]
    holding, given = campaign_seating(stream)
    assert given  # UMPIRE-SEAT-6: the creator chose the seed
    assert holding.offered == offered
    assert holding.claimed == {"b": 5} and holding.changed == {"b": 7}
    report = seat_report(holding, ("a", "b", "c"))
    assert report == {"a": {"claimed": BY_CREATOR, "rotated": False},
                      "b": {"claimed": BY_INVITATION, "rotated": True},
                      "c": {"claimed": UNCLAIMED, "rotated": False}}


def test_the_fold_reads_its_events_once():
    """A generator is enough (the service hands the stored stream's events as one)."""
    holding, given = campaign_seating(ev for ev in (SeatsOffered(invited=("x",)), SeatClaimed(seat="x")))
    assert holding.claimed == {"x": 2} and not given
