"""`umpire replay`: step through a stored game in the terminal (DESIGN section 8, operator's commands).

Reads the event log only (read-only open, like ``verify``), as a spectator sees it unless ``--seat``
names a seat; once the game is finished everything is public.

* no option: one line per step with its ruling and dice;
* ``--at SEQ``: the board right after that step, drawn as text (``--json``: the view as JSON);
* ``--step``: a real step-by-step replay: each step with its ruling, dice and the board drawn as text,
  then a prompt: Enter or ``n`` next, ``b`` back, ``j SEQ`` (or just ``SEQ``) jump, ``q`` quit.

The board is the ruleset's ``render_text(state, seat)`` (kernel protocol, optional); a ruleset without
it shows its view as JSON.
"""
from __future__ import annotations

import json
import sys
from typing import Any

import click
import msgspec

from domain.kernel import GameCreated, Setup, registry, words
from domain.kernel import game as kernel_game
from domain.kernel.fold import decode_event
from domain.kernel.messages import Message
from domain.kernel.undo import undone_seqs
from projections.views import game_view, ruling_view, scenario_title, timeline_entry

from . import i18n
from .language import DEFAULT, SUPPORTED
from .cli_support import fail
from .cli_support import open_existing_store as _open_existing_store
from .settings import Settings
from .store import UnknownGame
from .store_contract import Store

PROMPT = "[n]ext [b]ack [j]ump SEQ [q]uit > "


def _render_ruling(body: dict) -> list[str]:
    ruling = body.get("ruling")
    if body.get("redacted"):
        return ["    (ruling hidden from this viewer)"]
    if not ruling:
        return []
    lines = [f"    {step['rule']}: {step['text']}" for step in ruling.get("steps", [])]
    faces = [f"{r['stream']}#{r['index']}={r['value']}/{r['sides']}" for r in body.get("rolls", [])]
    if faces:
        lines.append("    rolls: " + " ".join(faces))
    return lines


class Replay:
    """A stored game, the state after each of its steps, and how one step reads."""

    def __init__(self, store: Store, game: Any, ruleset: Any, seat: str | None, lang: str = "en"):
        self.game, self.ruleset, self.seat, self.lang = game, ruleset, seat, lang
        self.finished = game.status == "finished"
        self.records = store.load(game.game_id)
        self.pairs = [(e.seq, decode_event(ruleset, e.payload)) for e in self.records]
        self.undone = undone_seqs(self.pairs)
        self.setup = msgspec.json.decode(game.setup, type=Setup)
        self._states: dict[int, Any] = {}
        created = next((e for _, e in self.pairs if isinstance(e, GameCreated)), None)
        self.bots = created.bots if created is not None else {}
        self._names: words.Names | None = None

    @property
    def names(self) -> words.Names:
        """The game's printed names by id (stable over the game: taken from its last state)."""
        if self._names is None:
            self._names = words.names_of(self.ruleset, self.state(self.last))
        return self._names

    @property
    def last(self) -> int:
        return self.records[-1].seq if self.records else 0

    def state(self, seq: int) -> Any:
        """The state right after ``seq`` (0: the initial state): the kernel's replay, step by step, once."""
        if not self._states:
            self._states[0] = self.ruleset.initial_state(self.setup)
            records = kernel_game.records_of(self.ruleset, self.records)
            self._states.update((r.seq, st) for r, st in kernel_game.states(self.ruleset, self.setup, records))
        return self._states[seq]

    def board(self, seq: int) -> str:
        state = self.state(seq)
        draw = getattr(self.ruleset, "render_text", None)
        if callable(draw):
            drawn = draw(state, self.seat)  # its words may be a message (issue 28): in the reader's language
            return i18n.render(drawn, self.lang) if isinstance(drawn, Message) else drawn
        return json.dumps(game_view(self.game, self.ruleset, state, self.seat, version=seq)["state"], indent=2,
                          sort_keys=True)

    def line(self, seq: int) -> list[str]:
        """The step's one line and its ruling (dice included)."""
        if seq == 0:
            return [f"    0 (the game before its first event)"]
        ev = self.records[seq - 1]
        entry = i18n.localize(timeline_entry(ev, self.ruleset, undone=seq in self.undone, names=self.names,
                                             bots=self.bots), self.lang, self.names)
        mark = " [undone]" if entry["undone"] else ""
        who = "" if entry["by"].get("in_summary") else entry["by"]["text"]  # the side said once (docs/seat-names.md)
        out = [f"{seq:>5} t{entry['turn']:<3} {who:<10} {entry['summary']}{mark}"]
        return out + _render_ruling(i18n.localize(ruling_view(ev, self.seat, finished=self.finished,
                                                              ruleset=self.ruleset.id, names=self.names),
                                                  self.lang, self.names))

    def screen(self, seq: int) -> str:
        return "\n".join([f"--- step {seq} of {self.last} ---", *self.line(seq), self.board(seq)])


def _interactive(rp: Replay, start: int) -> None:
    """The step-by-step loop: read a command per line until ``q`` or the end of input."""
    seq = start
    click.echo(rp.screen(seq))
    while True:
        click.echo(PROMPT, nl=False)
        sys.stdout.flush()
        raw = sys.stdin.readline()
        if not raw:  # end of input
            click.echo("")
            return
        cmd = raw.strip().lower()
        if cmd in ("q", "quit", "exit"):
            return
        if cmd in ("", "n", "next"):
            if seq >= rp.last:
                click.echo(f"(the last step is {rp.last}{'; winner: ' + rp.game.winner if rp.game.winner else ''})")
                continue
            seq += 1
        elif cmd in ("b", "back", "p"):
            if seq == 0:
                click.echo("(already at the start)")
                continue
            seq -= 1
        else:
            arg = cmd[1:].strip() if cmd.startswith("j") else cmd
            # ASCII digits, no longer than the last seq ("²".isdigit() is True but int("²") raises)
            if not (arg.isascii() and arg.isdigit()) or len(arg) > len(str(rp.last)) or int(arg) > rp.last:
                click.echo(f"(jump to a step 0..{rp.last}: j SEQ)")
                continue
            seq = int(arg)
        click.echo(rp.screen(seq))


@click.command("replay")
@click.argument("game_id")
@click.option("--data-dir", type=str, default=None, help="Directory of the event store (default: $UMPIRE_DATA_DIR or ./data).")
@click.option("--seat", type=str, default=None, help="View as this seat (default: a spectator).")
@click.option("--at", "at_seq", type=click.IntRange(min=0), default=None,
              help="Draw the board right after this step (with --step: start there).")
@click.option("--json", "as_json", is_flag=True, help="With --at: print the view as JSON instead of drawing the board.")
@click.option("--step", is_flag=True, help="Step through the game: n(ext), b(ack), j(ump) SEQ, q(uit).")
@click.option("--lang", type=click.Choice(SUPPORTED), default=DEFAULT, envvar="UMPIRE_LANG", show_default=True,
              help="The language of the steps and rulings (docs/languages.md); $UMPIRE_LANG.")
def replay(game_id: str, data_dir: str | None, seat: str | None, at_seq: int | None, as_json: bool, step: bool,
           lang: str = DEFAULT) -> None:
    """Replay a stored game: every step with its ruling and dice, the board at one step, or step by step."""
    settings = Settings.from_env(data_dir=data_dir)
    store = _open_existing_store(settings.data_dir)
    try:
        game = store.require_game(game_id)
    except UnknownGame as exc:
        fail(str(exc))
        return
    ruleset = registry.get(game.ruleset)
    if ruleset is None:
        fail(f"game {game_id} uses ruleset {game.ruleset!r}, which this umpire does not have")
        return
    if seat is not None and seat not in store.seats(game_id):
        fail(f"game {game_id} has no seat {seat!r} (seats: {', '.join(store.seats(game_id))})")
        return
    rp = Replay(store, game, ruleset, seat, lang)
    if at_seq is not None and at_seq > rp.last:
        fail(f"game {game_id} has no step {at_seq} (version {game.version})")
        return
    if step:
        _interactive(rp, at_seq or 0)
        return
    if at_seq is not None:
        if as_json:
            click.echo(json.dumps(game_view(game, ruleset, rp.state(at_seq), seat, version=at_seq), indent=2,
                                  sort_keys=True))
        else:
            click.echo(rp.screen(at_seq))
        return
    viewer = seat or "spectator"
    click.echo(f"game {game.game_id} ({game.ruleset}, {scenario_title(ruleset, game.scenario)}): {game.version} steps, "
               f"{game.status}; "
               f"viewed by {viewer}")
    for seq in range(1, rp.last + 1):
        for text in rp.line(seq):
            click.echo(text)
    if game.winner:
        click.echo(f"winner: {game.winner}")


COMMANDS = [replay]
