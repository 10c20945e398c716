"""The checks the harness runs on every ruleset's games (issue 11: "one harness every ruleset passes").

Each check takes a finished (or capped) :class:`domain.kernel.runner.Game` played with ``keep_states``
and raises AssertionError naming what broke. They need nothing but the kernel protocol.
"""
from __future__ import annotations

import random
from typing import Any

import msgspec

from domain.kernel import PUBLIC, NotYourDecision, RuleViolation, Undone, fold
from domain.kernel.fold import decode_event
from domain.kernel.game import EngineError
from domain.kernel.runner import Game, sample_template

_enc = msgspec.json.Encoder(order="sorted")


def enc(obj: Any) -> bytes:
    return _enc.encode(obj)


def same(a: Any, b: Any) -> bool:
    """Equal as JSON values (an int in a float field equals its float: smoke's content holds ``0`` where
    the type says ``0.0``, and JSON gives it back as ``0.0``)."""
    return msgspec.to_builtins(a) == msgspec.to_builtins(b)


def _decoded(g: Game) -> list[Any]:
    """The game's events through their JSON encoding (as the store keeps them)."""
    out = []
    for i, ev in enumerate(g.events, start=1):
        raw = msgspec.json.encode(ev)
        back = decode_event(g.rs, raw)
        assert type(back) is type(ev) and same(back, ev), f"event {i} ({type(ev).__name__}) changes through JSON"
        out.append(back)
    return out


# -- the log -----------------------------------------------------------------------------------

def fold_equals_live(g: Game) -> None:
    """The fold of the log (decoded from JSON) is the live state, and the state survives JSON too."""
    folded = fold(g.rs, g.setup, enumerate(_decoded(g), start=1))
    assert same(folded, g.state), "the fold of the log differs from the live state"
    again = msgspec.json.decode(msgspec.json.encode(g.state), type=g.rs.state_type)
    assert same(again, g.state), "the state changes through its JSON encoding (snapshots)"


def replay_at_every_seq_equals_prefix_fold(g: Game, rng: random.Random, spot_checks: int = 6) -> None:
    """The state at every seq (folding one event at a time) is the live state after that event; at
    a few seqs the kernel's ``fold`` of the prefix is compared too."""
    assert g.states is not None and len(g.states) == len(g.events)
    events = _decoded(g)
    st = g.rs.initial_state(g.setup)
    for seq, ev in enumerate(events, start=1):
        st = g.rs.evolve(st, ev)
        assert same(st, g.states[seq - 1]), f"replay at seq {seq} differs from the state live after it"
    n = len(events)
    for seq in sorted(rng.sample(range(1, n + 1), min(spot_checks, n))) if n else ():
        got = fold(g.rs, g.setup, enumerate(events[:seq], start=1))
        assert same(got, g.states[seq - 1]), f"fold of the first {seq} events differs from replay at {seq}"


def undo_equals_fold_of_kept(g: Game, rng: random.Random, tries: int = 6) -> None:
    """The kernel's undo (an ``undone`` event marking ``first..last``) folds to the state of the kept
    events: after undoing the events after seq k, the state is the one live at k."""
    n = len(g.events)
    if n < 2:
        return
    events = _decoded(g)
    pairs = list(enumerate(events, start=1))
    for k in sorted(rng.sample(range(1, n), min(tries, n - 1))):
        undo = Undone(by=g.setup.seats[0], first=k + 1, last=n)
        undo = decode_event(g.rs, msgspec.json.encode(undo))
        got = fold(g.rs, g.setup, pairs + [(n + 1, undo)])
        assert same(got, g.states[k - 1]), f"undoing seqs {k + 1}..{n} does not give the state at {k}"
        kept = [(s, e) for s, e in pairs if s <= k]
        assert same(fold(g.rs, g.setup, kept), got)


# -- commands ------------------------------------------------------------------------------------

def _refused_with_rule(g: Game, seat: str, cmd: Any, why: str) -> str:
    try:
        g.decide(seat, cmd)
    except (RuleViolation, NotYourDecision) as exc:
        assert exc.rule, f"{why}: refused without a rule id ({exc})"
        return exc.rule
    except EngineError:  # the ruleset took it and emitted nothing: accepted, not refused
        pass
    raise AssertionError(f"{why}: {cmd!r} by {seat} was accepted")


NONSENSE = "zz-no-such-thing"


def _variants(cmd: Any, listed: list[Any]) -> list[tuple[Any, bool]]:
    """Commands one field away from ``cmd``, each with whether it is illegal by construction.

    Illegal by construction: a string field set to a value no rule knows, a number moved far out of
    any range. The others (a string swapped for another value the field takes in the list, a number
    moved by one, a flag flipped, a sequence shortened or lengthened) may be legal commands the list
    shows in another form (hoth lists one shortest path per destination, HOTH-MOVE-4)."""
    out: list[tuple[Any, bool]] = []
    if not isinstance(cmd, msgspec.Struct):
        return out
    for name in cmd.__struct_fields__:
        v = getattr(cmd, name)
        alts: list[tuple[Any, bool]] = []
        if isinstance(v, bool):
            alts = [(not v, False)]
        elif isinstance(v, int):
            alts = [(v + 1, False), (v - 1, False), (v + 1000, True)]
        elif isinstance(v, float):
            alts = [(v + 1e6, False)]
        elif isinstance(v, str):
            seen = {getattr(c, name) for c in listed if type(c) is type(cmd) and isinstance(getattr(c, name), str)}
            alts = [(x, False) for x in sorted(seen - {v})[:2]] + [(NONSENSE, True)]
        elif isinstance(v, tuple) and v:
            alts = [(v[:-1], False), (v + (v[-1],), False)]
        for a, illegal in alts:
            try:
                # through JSON, as a client sends it: a shape the command type refuses is a 400 naming
                # the field before any rule is asked (the API tests cover those)
                raw = msgspec.json.encode(msgspec.structs.replace(cmd, **{name: a}))
                out.append((msgspec.json.decode(raw, type=type(cmd)), illegal))
            except (TypeError, ValueError, msgspec.ValidationError):
                continue
    return out


def _accepted_or_refused_with_rule(g: Game, seat: str, cmd: Any) -> bool:
    """True when accepted; a refusal must name its rule; any other exception fails (it would be a 500)."""
    try:
        g.decide(seat, cmd)
        return True
    except (RuleViolation, NotYourDecision) as exc:
        assert exc.rule, f"{cmd!r} refused without a rule id ({exc})"
        return False


def commands_check(g: Game, seat: str, listed: list[Any], rng: random.Random, *, sample: int = 6,
                   variants: int = 6) -> int:
    """At one decision point: listed commands (a sample) are accepted, also after a JSON round trip;
    the seats not to act are refused with a rule id; commands one field away from a listed one that
    are illegal by construction are refused with a rule id, the other unlisted ones (and commands
    sampled from templates) are accepted or refused with a rule id -- never another exception.
    Returns the number of commands tried."""
    dec = msgspec.json.Decoder(g.rs.command_type)
    tried = 0
    for cmd in rng.sample(listed, min(sample, len(listed))):
        back = dec.decode(msgspec.json.encode(cmd))
        assert same(back, cmd), f"{cmd!r} changes through JSON"
        try:
            g.decide(seat, back)
        except (RuleViolation, NotYourDecision) as exc:
            raise AssertionError(f"listed command {cmd!r} of {seat} refused: {exc}") from None
        tried += 1
    st = g.status
    others = [s for s in g.setup.seats if s not in st.to_act]
    for other in others:
        if g.legal(other):
            continue  # a seat with decisions of its own (simultaneous play)
        cmd = rng.choice(listed)
        _refused_with_rule(g, other, cmd, f"{seat}'s command sent by {other}, whose decision it is not")
        tried += 1
    templates = g.templates(seat)
    keys = {enc(c) for c in listed}
    pool = [v for c in rng.sample(listed, min(sample, len(listed))) for v in _variants(c, listed)]
    for v, illegal in rng.sample(pool, min(variants, len(pool))):
        if enc(v) in keys:
            continue
        tried += 1
        if illegal:
            _refused_with_rule(g, seat, v, "a command not in the legal list")
        else:
            _accepted_or_refused_with_rule(g, seat, v)
    for t in rng.sample(templates, min(2, len(templates))):
        cmd = template_command(rng, t, dec)
        if cmd is None:
            continue
        tried += 1
        _accepted_or_refused_with_rule(g, seat, cmd)
    return tried


def template_command(rng: random.Random, t: dict[str, Any], dec: msgspec.json.Decoder) -> Any:
    """A command sampled inside a template's bounds (its example where the sample is not a command;
    None for a template without an example that cannot be sampled)."""
    try:
        return dec.decode(msgspec.json.encode(sample_template(rng, t)))
    except msgspec.ValidationError:
        if not t.get("example"):
            return None
        return dec.decode(msgspec.json.encode(t["example"]))


# -- hidden information ------------------------------------------------------------------------

def _strings(x: Any, out: set[str]) -> set[str]:
    if isinstance(x, str):
        out.add(x)
    elif isinstance(x, dict):
        for k, v in x.items():
            _strings(k, out)
            _strings(v, out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _strings(v, out)
    return out


def _sequences(x: Any, out: set[tuple[str, ...]]) -> set[tuple[str, ...]]:
    """Every list of three or more strings inside ``x`` (deck orders, hands)."""
    if isinstance(x, dict):
        for v in x.values():
            _sequences(v, out)
    elif isinstance(x, (list, tuple)):
        if len(x) >= 3 and all(isinstance(v, str) for v in x):
            out.add(tuple(x))
        for v in x:
            _sequences(v, out)
    return out


class LeakWatch:
    """What each seat (None: a spectator) may not know yet, and the scan of its views for it.

    A value is a secret from a seat when it stands in a private field of an event that seat may not
    see, and the seat has not learnt it otherwise: in no event payload as that seat sees it (its own
    private events in full, the others redacted), nor in its view of the game before the opening.
    The seat's view must then hold none of its secrets: no such string, no such ordered list."""

    MIN_LEN = 2

    def __init__(self, g: Game):
        self.g = g
        self.viewers: list[str | None] = [*g.setup.seats, None]
        self.known: dict[str | None, set[str]] = {}
        self.known_seq: dict[str | None, set[tuple[str, ...]]] = {}
        self.hidden: dict[str | None, set[str]] = {v: set() for v in self.viewers}
        self.hidden_seq: dict[str | None, set[tuple[str, ...]]] = {v: set() for v in self.viewers}
        base = g.rs.initial_state(g.setup)
        for v in self.viewers:
            try:
                first = g.rs.view(base, v)
            except Exception:  # a state not opened yet may have nothing to show
                first = {}
            self.known[v] = _strings(first, set())
            self.known_seq[v] = _sequences(first, set())
        self.seen = 0
        self.checked = 0

    def _learn(self) -> None:
        for em in self.g.emitted[self.seen:]:
            payload = msgspec.to_builtins(em.event)
            private = getattr(type(em.event), "private", frozenset())
            for v in self.viewers:
                sees = em.visibility == PUBLIC or (v is not None and em.visibility == v)
                shown = payload if sees or not private else {k: x for k, x in payload.items() if k not in private}
                self.known[v] |= _strings(shown, set())
                self.known_seq[v] |= _sequences(shown, set())
                if not sees and private:
                    for k in private:
                        if k in payload:
                            self.hidden[v] |= _strings(payload[k], set())
                            self.hidden_seq[v] |= _sequences(payload[k], set())
                            if isinstance(payload[k], (list, tuple)) and len(payload[k]) >= 3 \
                                    and all(isinstance(s, str) for s in payload[k]):
                                self.hidden_seq[v].add(tuple(payload[k]))
        self.seen = len(self.g.emitted)

    def check(self) -> None:
        """Scan every seat's and the spectator's view of the state now (while the game is on)."""
        self._learn()
        if self.g.over:
            return  # everything is public once the game ends
        for v in self.viewers:
            secrets = {s for s in self.hidden[v] - self.known[v] if len(s) >= self.MIN_LEN}
            secret_seqs = self.hidden_seq[v] - self.known_seq[v]
            if not secrets and not secret_seqs:
                continue
            view = self.g.rs.view(self.g.state, v)
            leaked = secrets & _strings(view, set())
            assert not leaked, f"the view of {v or 'a spectator'} shows hidden {sorted(leaked)[:5]}"
            leaked_seq = secret_seqs & _sequences(view, set())
            assert not leaked_seq, f"the view of {v or 'a spectator'} shows a hidden order {sorted(leaked_seq)[0]}"
            self.checked += 1
