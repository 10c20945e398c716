"""Claiming and rotating a game's seat (DESIGN 4, UMPIRE-SEAT-2..4): the blocking flows behind
``POST /games/{id}/seats/{seat}/claim`` and ``.../rotate`` (:mod:`service.seating` holds the rules' parts).

Each reads the game's version, builds the public event (``seat_claimed`` / ``seat_rotated``) and asks the
store to change the seat and append the event in one transaction; a command appended meanwhile
(:class:`VersionConflict`) makes it read again. The new token is answered to the caller only.
"""
from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel.undo import lapse_on_rotation

from .campaign_store import CampaignConflict
from .game_service import GameService, encode_emitted
from .campaigns import CampaignService
from .problems import Problem
from .seating import check_claimable, claimed_emitted, new_secret, refused, rotated_emitted
from .store import SeatRefused, VersionConflict, token_hash

#: Attempts when a command of the game was appended between reading its version and the change.
RETRIES = 5


def claim(svc: GameService, game_id: str, seat: str, invitation: str) -> dict[str, Any]:
    """``POST /games/{id}/seats/{seat}/claim`` (blocking; hold the game's lock around it)."""
    game = svc.game(game_id)
    if game.campaign_id:
        raise Problem(409, "rule-violation", f"game {game_id} is a battle of campaign {game.campaign_id}: claim the "
                      f"seat there (POST /campaigns/{game.campaign_id}/seats/{seat}/claim)", rule="UMPIRE-SEAT-3")
    svc.require_playable(game)
    for _ in range(RETRIES):
        cur = svc.current(game_id)
        kernel = cur.folded.kernel
        check_claimable(kernel.seats, kernel.header.seats if kernel.header is not None else (), seat,
                        where=f"game {game_id}")
        token = new_secret()
        new, _state = encode_emitted(cur.folded, [claimed_emitted(seat)], seat)
        try:
            res = svc.store.claim_seat(game_id, seat, token_hash(invitation), token_hash(token), cur.version, new)
        except SeatRefused as exc:
            raise refused(exc, seat) from None
        except VersionConflict:
            continue
        svc.appended(game_id, res.events)
        return svc.with_receipt(game_id, {"game_id": game_id, "seat": seat, "token": token, "version": res.version},
                                res.version, res.head)
    raise Problem(409, "stale-version", f"game {game_id} kept changing; claim again")


def rotate(svc: GameService, game_id: str, seat: str, token: str | None) -> dict[str, Any]:
    """``POST /games/{id}/seats/{seat}/rotate`` (blocking; hold the game's lock around it)."""
    game = svc.game(game_id)
    if game.campaign_id:
        raise Problem(409, "rule-violation", f"game {game_id} is a battle of campaign {game.campaign_id}: its seats' "
                      f"tokens are the campaign's (POST /campaigns/{game.campaign_id}/seats/{seat}/rotate)",
                      rule="UMPIRE-SEAT-4")
    holder = svc.seat(game_id, token) if token else None
    if holder is None:
        raise Problem(401, "unauthorized", "rotating needs the seat's current token (Authorization: Bearer <token>)",
                      rule="UMPIRE-SEAT-4")
    if holder != seat:
        raise Problem(403, "not-your-decision", f"this token is {holder}'s, not {seat}'s", rule="UMPIRE-SEAT-4")
    svc.require_playable(game)
    for _ in range(RETRIES):
        cur = svc.current(game_id)
        new_token = new_secret()
        lapsed = lapse_on_rotation(cur.folded.kernel.undo_request, seat)  # UMPIRE-UNDO-10: the old holder's request
        emitted = [*([lapsed] if lapsed is not None else []), rotated_emitted(seat)]
        new, _state = encode_emitted(cur.folded, emitted, seat)
        try:
            res = svc.store.rotate_seat(game_id, seat, token_hash(token or ""), token_hash(new_token), cur.version, new)
        except SeatRefused as exc:
            raise refused(exc, seat) from None
        except VersionConflict:
            continue
        svc.forget_token(game_id, token or "")
        svc.appended(game_id, res.events)
        return svc.with_receipt(game_id, {"game_id": game_id, "seat": seat, "token": new_token,
                                          "version": res.version}, res.version, res.head)
    raise Problem(409, "stale-version", f"game {game_id} kept changing; rotate again")


def _campaign_change(cs: CampaignService, campaign_id: str, seat: str, *, invitation: str | None = None,
                     token: str | None = None) -> dict[str, Any]:
    """A campaign's seat claimed (``invitation``) or rotated (``token``): the campaign's stream and the battle
    being played record it, in one transaction with the seat's new token (DESIGN 4: the same token acts in
    every battle)."""
    games = cs.games
    row = cs._require(campaign_id)
    rules = cs._rules_of(row)
    seats = rules.seats(row["campaign"])
    if row["status"] != "waiting":
        cs.advance(campaign_id)  # a finished battle recorded first: the seat is recorded in the one played now
    with cs.lock(campaign_id):
        for _ in range(RETRIES):
            row = cs._require(campaign_id)
            state, version, _counters = cs._fold(campaign_id, rules)
            holding, _given = cs.seating(campaign_id)
            if invitation is not None:
                check_claimable(holding, seats, seat, where=f"campaign {campaign_id}")
                emitted = claimed_emitted(seat)
            else:
                emitted = rotated_emitted(seat)
            new_token = new_secret()
            battle = None
            game_id = rules.current_game(state) if row["status"] != "waiting" else None
            if game_id is not None:
                cur = games.current(game_id)
                lapsed = lapse_on_rotation(cur.folded.kernel.undo_request, seat) if invitation is None else None
                new, _state = encode_emitted(cur.folded, [*([lapsed] if lapsed else []), emitted], seat)
                battle = (game_id, cur.version, new)
            try:
                version, res = cs.db.change_seat(
                    campaign_id, version, seat, [emitted], new_token_hash=token_hash(new_token),
                    invitation_hash=token_hash(invitation) if invitation is not None else None,
                    old_token_hash=token_hash(token) if token is not None else None, battle=battle)
            except SeatRefused as exc:
                raise refused(exc, seat) from None
            except (CampaignConflict, VersionConflict):
                continue
            if res is not None and game_id is not None:
                if token is not None:
                    games.forget_token(game_id, token)
                games.appended(game_id, res.events)
            out = {"campaign_id": campaign_id, "seat": seat, "token": new_token, "version": version}
            if res is not None:
                out["game_id"] = game_id  # the battle being played, which recorded it too
            return out
    raise Problem(409, "stale-version", f"campaign {campaign_id} kept changing; try again")


def claim_in_campaign(cs: CampaignService, campaign_id: str, seat: str, invitation: str) -> dict[str, Any]:
    """``POST /campaigns/{id}/seats/{seat}/claim`` (blocking)."""
    return _campaign_change(cs, campaign_id, seat, invitation=invitation)


def rotate_in_campaign(cs: CampaignService, campaign_id: str, seat: str, token: str | None) -> dict[str, Any]:
    """``POST /campaigns/{id}/seats/{seat}/rotate`` with the seat's token (blocking)."""
    holder = cs.db.seat(campaign_id, token) if token else None
    cs._require(campaign_id)
    if holder is None:
        raise Problem(401, "unauthorized", "rotating needs the seat's current token (Authorization: Bearer <token>)",
                      rule="UMPIRE-SEAT-4")
    if holder != seat:
        raise Problem(403, "not-your-decision", f"this token is {holder}'s, not {seat}'s", rule="UMPIRE-SEAT-4")
    return _campaign_change(cs, campaign_id, seat, token=token)


class ClaimRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Body of a claim (may be empty when the invitation is in the Authorization header)."""

    invitation: str | None = None


__all__ = ["ClaimRequest", "claim", "claim_in_campaign", "rotate", "rotate_in_campaign"]
