"""Seeded, verifiable chance (DESIGN section 3).

Roll number ``i`` of stream ``s`` in game ``g`` is derived from
``HMAC-SHA256(seed, label)`` with ``label = f"{g}|{s}|{i}"``, or, for a game whose
seats added client seeds (``"start": "when_ready"``, DESIGN 3),
``label = f"{g}|{mix}|{s}|{i}"`` where ``mix`` is :func:`client_mix` of the seats
in their setup order. The 32-byte digest is read as four 64-bit big-endian
words; the first word below the largest multiple of ``sides`` is used
(rejection sampling, so no modulo bias). In the astronomically rare case that
all four are rejected, the digest of ``label + f"|{k}"`` for k = 1, 2, ... is
used next. Every draw -- die faces and shuffle swaps alike -- is one ``Roll``
that is written into the event it produced, so replay never rolls and anyone
holding the revealed seed can recompute every draw.

Pure functions and one small accumulator (``Dice``) that lives for one
``decide`` call; no clock, no global random.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

import msgspec

T = TypeVar("T")

#: Stream labels. Automated opponents draw from their own stream so an AI
#: decision never shifts the dice of the game.
GAME_DICE = "dice"
SHUFFLE = "shuffle"
AUTOMATON = "automaton"

_WORD = 1 << 64
_HEX = frozenset("0123456789abcdef")


class Roll(msgspec.Struct, frozen=True, kw_only=True):
    """One draw from a stream: ``value`` is uniform in ``range(sides)``."""

    stream: str
    index: int
    sides: int
    value: int


def new_seed() -> bytes:
    return secrets.token_bytes(32)


def seed_from_hex(text: str) -> bytes:
    """Parse a seed given as 64 lowercase hex characters; ValueError otherwise."""
    # Checked character by character: bytes.fromhex alone would skip
    # whitespace and accept e.g. 62 hex digits and two spaces (31 bytes).
    if not isinstance(text, str) or len(text) != 64 or not all(c in _HEX for c in text):
        raise ValueError("a seed is 64 lowercase hex characters (32 bytes)")
    return bytes.fromhex(text)


def commitment(seed: bytes) -> str:
    """The public ``seed_commitment``: lowercase hex sha256 of the 32 seed bytes."""
    return hashlib.sha256(seed).hexdigest()


def check_commitment(seed: bytes, published: str) -> bool:
    return hmac.compare_digest(commitment(seed), published)


def client_mix(seats: Sequence[str], client_seeds: Mapping[str, str | None]) -> str:
    """The client seeds of a ``when_ready`` game as they enter every draw's label (CONTRACTS):
    ``",".join(f"{seat}={client_seed or ''}")`` over the seats in their setup order."""
    return ",".join(f"{seat}={client_seeds.get(seat) or ''}" for seat in seats)


def label(game_id: str, stream: str, index: int, mix: str | None = None) -> str:
    """The HMAC message of draw ``index`` of ``stream`` (before any rejection suffix)."""
    if mix is None:
        return f"{game_id}|{stream}|{index}"
    return f"{game_id}|{mix}|{stream}|{index}"


def draw(seed: bytes, game_id: str, stream: str, index: int, sides: int, mix: str | None = None) -> int:
    """The value of draw ``index`` of ``stream``: uniform in ``range(sides)``.

    ``mix``: the game's :func:`client_mix` when its seats added client seeds, else None."""
    if sides < 1:
        raise ValueError("a draw needs at least one side")
    if index < 0:
        raise ValueError("a draw index is never negative")
    if sides == 1:
        return 0
    limit = _WORD - (_WORD % sides)
    base = label(game_id, stream, index, mix)
    k = 0
    while True:
        msg = base if k == 0 else f"{base}|{k}"
        digest = hmac.new(seed, msg.encode(), hashlib.sha256).digest()
        for w in range(4):
            word = int.from_bytes(digest[8 * w : 8 * w + 8], "big")
            if word < limit:
                return word % sides
        k += 1


def verify_roll(seed: bytes, game_id: str, roll: Roll, mix: str | None = None) -> bool:
    """True when ``roll`` is what the seed gives; False for any roll that could not have been drawn."""
    if roll.sides < 1 or roll.index < 0:
        return False
    return draw(seed, game_id, roll.stream, roll.index, roll.sides, mix) == roll.value


def check_sequence(rolls: Sequence[Roll]) -> str | None:
    """DESIGN 3: every index of every stream is used exactly once, in order.

    ``rolls``: every recorded draw of a game in log order (undone events included: undo never
    rewinds a counter). None when the sequence is right, else a sentence naming the first draw
    that is not the next index of its stream."""
    return check_next(rolls, {})


def check_next(rolls: Sequence[Roll], nxt: dict[str, int]) -> str | None:
    """:func:`check_sequence` one event at a time: ``nxt`` (the next index of each stream so far) is
    updated in place."""
    for r in rolls:
        want = nxt.get(r.stream, 0)
        if r.index != want:
            again = " (used again)" if r.index < want else " (indices skipped)"
            return f"draw {r.stream}#{r.index}: the next index of stream {r.stream!r} is {want}{again}"
        nxt[r.stream] = want + 1
    return None


class DryRunStop(Exception):
    """Raised by a dry-run ``Dice`` at the first draw: the command was legal up to that point.

    ``emitted`` holds the events the ruleset had emitted before it (those it showed the dice
    through :meth:`Dice.track`; an empty list otherwise). No value was drawn: a dry run can never
    show a future die.
    """

    def __init__(self, emitted: list):
        super().__init__("dry run: stopped at the first draw")
        self.emitted = emitted


class Dice:
    """The chance source handed to one ``decide`` call.

    ``counters`` gives the next unused index of each stream (the service takes
    it from the whole log, undone events included, so undo never rewinds the
    dice). Every draw is remembered; the decider attaches them to the event
    they produced with :meth:`take`, and the service checks that none is left
    unrecorded.

    ``dry=True`` (a dry run, DESIGN 8 / domain/kernel/decider.py): the first draw raises
    :class:`DryRunStop` before anything is computed; no seed is needed.
    """

    def __init__(self, seed: bytes, game_id: str, counters: Mapping[str, int] | None = None,
                 mix: str | None = None, *, dry: bool = False):
        self._seed = seed
        self._game_id = game_id
        #: :func:`client_mix` of a game whose seats added client seeds (None: the plain label).
        self._mix = mix
        self._next: dict[str, int] = dict(counters or {})
        self._pending: list[Roll] = []
        self.drawn: list[Roll] = []
        self.dry = dry
        self._tracked: list | None = None

    def remixed(self, mix: str | None) -> "Dice":
        """These dice before any draw, with another client mix (the opening after the last seat's ready)."""
        return Dice(self._seed, self._game_id, self._next, mix, dry=self.dry)

    def track(self, emitted: list) -> None:
        """The list a ruleset appends its ``Emitted`` to during ``decide`` (a dry run reports them)."""
        self._tracked = emitted

    def next_index(self, stream: str) -> int:
        return self._next.get(stream, 0)

    def counters(self) -> dict[str, int]:
        return dict(self._next)

    def value(self, sides: int, stream: str = GAME_DICE) -> int:
        if self.dry:
            raise DryRunStop(list(self._tracked or []))
        i = self._next.get(stream, 0)
        v = draw(self._seed, self._game_id, stream, i, sides, self._mix)
        self._next[stream] = i + 1
        roll = Roll(stream=stream, index=i, sides=sides, value=v)
        self._pending.append(roll)
        self.drawn.append(roll)
        return v

    def faces(self, faces: Sequence[T], count: int, stream: str = GAME_DICE) -> list[T]:
        """Roll ``count`` dice whose faces are ``faces`` (one entry per side)."""
        return [faces[self.value(len(faces), stream)] for _ in range(count)]

    def shuffle(self, items: Sequence[T], stream: str = SHUFFLE) -> list[T]:
        """Fisher-Yates on the stream: for i from n-1 down to 1 swap i with a draw in 0..i."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.value(i + 1, stream)
            out[i], out[j] = out[j], out[i]
        return out

    def take(self) -> tuple[Roll, ...]:
        """The draws made since the last ``take``: attach them to the event they produced."""
        rolls, self._pending = tuple(self._pending), []
        return rolls

    def untaken(self) -> tuple[Roll, ...]:
        return tuple(self._pending)


def advance(counters: Mapping[str, int], rolls: Sequence[Roll]) -> dict[str, int]:
    """Counters after ``rolls``: never goes backwards."""
    out = dict(counters)
    for r in rolls:
        if r.index + 1 > out.get(r.stream, 0):
            out[r.stream] = r.index + 1
    return out


def counters_after(draws: Iterable[Sequence[Roll]]) -> dict[str, int]:
    """Counters after every draw of a stream's records (each record's rolls): :func:`advance` over them all,
    the dice of the stream's next draw."""
    return advance({}, [r for rolls in draws for r in rolls])


def replay_shuffle(items: Sequence[T], rolls: Sequence[Roll]) -> list[T]:
    """Apply a recorded Fisher-Yates (the rolls ``Dice.shuffle`` made) without a seed."""
    out = list(items)
    n = len(out)
    if len(rolls) != max(n - 1, 0):
        raise ValueError("a shuffle of n items records n-1 draws")
    for k, i in enumerate(range(n - 1, 0, -1)):
        j = rolls[k].value
        if rolls[k].sides != i + 1 or not 0 <= j <= i:
            raise ValueError("recorded shuffle draw does not fit its position")
        out[i], out[j] = out[j], out[i]
    return out
