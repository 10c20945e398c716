"""Handing a game its sealed setup at creation (UMPIRE-SEAL-1, UMPIRE-SEAL-2; domain/kernel/seals.py).

A campaign's battle is created with ``sealed`` options (a Hoth side's kept support cards): the opening
sees them, the header and the games row do not. Each sealed event the opening deals gets 128 random bits
of salt here (the domain is pure), and the header gets the commitment of each sealed part.
"""
from __future__ import annotations

import secrets
from typing import Any

import msgspec

from domain.kernel import Emitted, GameCreated, Ruleset, Setup, SetupError
from domain.kernel.messages import msg
from domain.kernel.seals import SALT, is_sealed_type, sealed_parts


def opening_setup(rs: Ruleset, setup: Setup, sealed: dict[str, Any]) -> Setup:
    """The setup the opening is decided from: the public options plus the sealed ones (checked by the
    ruleset like any option; a sealed option may not also be public, nor change the seats)."""
    both = set(sealed) & set(setup.options)
    if both:
        raise SetupError(f"options.{sorted(both)[0]}", msg("given both as a public and as a sealed option"))
    options = {**setup.options, **sealed}
    if tuple(rs.seats(setup.scenario, dict(options))) != tuple(setup.seats):
        raise SetupError("sealed", msg("sealed options may not change the seats"))
    return msgspec.structs.replace(setup, options=options)


def seal(emitted: list[Emitted]) -> list[Emitted]:
    """The opening with a fresh salt in every sealed event and their commitments in the header
    (``emitted[0]``, the ``game_created`` event)."""
    out: list[Emitted] = []
    for em in emitted:
        if is_sealed_type(type(em.event)):
            em = msgspec.structs.replace(em, event=msgspec.structs.replace(em.event, **{SALT: secrets.token_hex(16)}))
        out.append(em)
    header = out[0].event
    assert isinstance(header, GameCreated)
    parts = sealed_parts(em.event for em in out[1:])
    out[0] = msgspec.structs.replace(out[0], event=msgspec.structs.replace(header, sealed=parts))
    return out


__all__ = ["opening_setup", "seal"]
