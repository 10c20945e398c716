"""`umpire replay`: step through a stored game in the terminal (DESIGN section 8, operator's commands).

Reads the event log only (read-only open, like ``verify``): one line per step with its ruling, as a
spectator sees it unless ``--seat`` names a seat; once the game is finished everything is public.
``--step`` waits for Enter between steps; ``--at SEQ`` prints the view right after that step.
"""
from __future__ import annotations

import json

import click
import msgspec

from domain.kernel import Setup, fold, registry
from domain.kernel.fold import decode_event
from domain.kernel.undo import undone_seqs

from .settings import Settings
from .store import UnknownGame
from .views import game_view, ruling_view, timeline_entry


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


@click.command("replay")
@click.argument("game_id")
@click.option("--data-dir", type=str, default=None, help="Directory of the event store (default: $UMPIRE_DATA_DIR or ./data).")
@click.option("--seat", type=str, default=None, help="View as this seat (default: a spectator).")
@click.option("--at", "at_seq", type=click.IntRange(min=0), default=None, help="Print the view right after this seq and stop.")
@click.option("--step", is_flag=True, help="Wait for Enter between steps.")
def replay(game_id: str, data_dir: str | None, seat: str | None, at_seq: int | None, step: bool) -> None:
    """Replay a stored game step by step: summaries, rulings and dice, or the view at one step."""
    from .cli import _open_existing_store, fail

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
    finished = game.status == "finished"
    records = store.load(game_id)
    pairs = [(e.seq, decode_event(ruleset, e.payload)) for e in records]

    if at_seq is not None:
        if at_seq > game.version:
            fail(f"game {game_id} has no step {at_seq} (version {game.version})")
            return
        setup = msgspec.json.decode(game.setup, type=Setup)
        state = fold(ruleset, setup, [(q, e) for q, e in pairs if q <= at_seq])
        click.echo(json.dumps(game_view(game, ruleset, state, seat, version=at_seq), indent=2, sort_keys=True))
        return

    undone = undone_seqs(pairs)
    viewer = seat or "spectator"
    click.echo(f"game {game.game_id} ({game.ruleset}, {game.scenario}): {game.version} steps, {game.status}; viewed by {viewer}")
    for ev in records:
        line = timeline_entry(ev, ruleset, undone=ev.seq in undone)
        mark = " [undone]" if line["undone"] else ""
        click.echo(f"{ev.seq:>5} t{line['turn']:<3} {line['actor'] or '-':<10} {line['summary']}{mark}")
        for text in _render_ruling(ruling_view(ev, seat, finished=finished, ruleset=ruleset.id)):
            click.echo(text)
        if step:
            try:
                input()
            except EOFError:
                step = False
    if game.winner:
        click.echo(f"winner: {game.winner}")


COMMANDS = [replay]
