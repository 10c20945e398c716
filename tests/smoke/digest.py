"""A digest of everything the engine says during a seeded random Clouds of Smoke game.

``game_digest`` plays the same random game as ``play.random_game`` (a listed command, or half the
time a random value inside a template's bounds) and hashes, command by command: the seat to act,
its ``legal_commands``, its ``command_templates``, and what the command gave: the emitted events with
their rulings, visibility and rolls, or the refusal (rule id, message, fields). Floats are hashed
exactly (msgspec's JSON writes the shortest repr that round-trips), so a digest pinned before a
change to the engine's search code proves the change left every output of those games bit for bit
the same.

Not hashed: ``Emitted.reveals`` (a flag fixed per event kind by the caller of ``emit``, not computed
from the table; it may change for its own reasons without any geometry changing), and the messages of
a ruling (``summary_message``, each step's ``message``, issue 28): their English text is hashed, so the
pins also prove that turning sentences into messages left every English word as it was.

A seat is named by its name in the engine's sentences (``Player 1``: domain/smoke/seat_words.py,
docs/seat-names.md); the pins were taken when they said its id (``player-1``). The English hashed is each
message's with every seat's name written back as its id (:func:`as_ids`), so the pins prove that naming the
seats changed no other word, and nothing else the engine says.
"""
from __future__ import annotations

import hashlib
import random

import msgspec

from domain.kernel import RuleViolation
from domain.kernel.messages import Message
from scenarios.content import hand_to_rulesets

from .play import Game, _pick, sample_template, toward_enemy

_enc = msgspec.json.Encoder(order="sorted")


#: The message of a seat's name (domain/smoke/seat_words.py).
SEAT_NAME = "Player {n}"


def as_ids(value):
    """``value`` (a message, or a parameter of one) with each seat's name written back as its id."""
    if isinstance(value, Message):
        if value.id == SEAT_NAME:
            return f"player-{value.params['n']}"
        return msgspec.structs.replace(value, params={k: as_ids(v) for k, v in value.params.items()})
    if isinstance(value, (list, tuple)):
        return type(value)(as_ids(v) for v in value)
    return value


def _english(text: str, message) -> str:
    """The English of a ruling's text, its seats said by their ids (the words the pins were taken with)."""
    return text if message is None else as_ids(message).english()


def english_ruling(ruling):
    """A ruling without its messages (their English text stays: ``summary``, each step's ``text``; its seats
    said by their ids: :func:`as_ids`)."""
    if ruling is None:
        return None
    return msgspec.structs.replace(
        ruling, summary=_english(ruling.summary, ruling.summary_message), summary_message=None,
        steps=tuple(msgspec.structs.replace(s, text=_english(s.text, s.message), message=None) for s in ruling.steps))


def _emitted(items) -> bytes:
    return _enc.encode([{"event": em.event, "ruling": english_ruling(em.ruling), "visibility": em.visibility,
                         "rolls": em.rolls} for em in items])


def game_digest(rs, battle: str, seed: int, players: int, max_commands: int = 20000,
                template_share: float = 0.5) -> tuple[str, int]:
    """(sha256 hex of the game's outputs, number of commands played)."""
    h = hashlib.sha256()
    rng = random.Random(seed)
    g = Game(rs, battle, seed=seed.to_bytes(32, "big"), options={"players": players}, game_id=f"r{seed}")
    h.update(_emitted(g.emitted))
    while not g.over and g.commands < max_commands:
        seat = g.to_act()
        assert seat is not None
        cmds = rs.legal_commands(g.state, seat)
        temps = rs.command_templates(g.state, seat)
        h.update(seat.encode())
        h.update(_enc.encode(cmds))
        h.update(_enc.encode(temps))
        if temps and rng.random() < template_share:
            raw = sample_template(rng, rng.choice(temps))
            if rng.random() < 0.6:
                raw = toward_enemy(g.state, raw)
            cmd = msgspec.convert(raw, rs.command_type)
            try:
                h.update(_emitted(g.do(seat, cmd)))
                continue
            except RuleViolation as exc:
                h.update(_enc.encode({"refused": exc.rule, "message": f"{exc.rule}: {_english(exc.detail, exc.message)}",
                                      "values": exc.values}))
        h.update(_emitted(g.do(seat, _pick(rng, cmds))))
    h.update(_enc.encode(g.state.result))
    return h.hexdigest(), g.commands


if __name__ == "__main__":  # print the pins of tests/smoke/test_engine_digest.py (after an intended change)
    from scenarios.smoke import shipped

    from .play import ruleset

    hand_to_rulesets()  # a composition root of its own: the rulesets get their content (as the test session does)
    rs = ruleset()
    for battle in sorted(shipped().battles):
        for lu in shipped().battles[battle].line_ups:
            for seed in range(5):
                d, n = game_digest(rs, battle, seed, lu.players)
                print(f'    ("{battle}", {lu.players}, {seed}): "{d[:16]}",  # {n}')
