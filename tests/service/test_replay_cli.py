"""`umpire replay` (DESIGN section 8 operator's commands): a stored Hoth game step by step."""
import json
import random

from click.testing import CliRunner

from service.cli import main
from service.game_service import CommandRequest, CreateGameRequest, GameService
from service.store import EventStore

SEED = "ab" * 32


def _play(data_dir, steps=40):
    store = EventStore(data_dir)
    gs = GameService(store)
    g = gs.create_game(CreateGameRequest(ruleset="hoth", scenario="SCN-TAKE-DOWN-THE-SHIELD", seed=SEED))
    rng = random.Random(3)
    for _ in range(steps):
        cur = gs.current(g["game_id"])
        st = cur.ruleset.status(cur.state)
        if st.status != "active":
            break
        seat = st.to_act[0]
        cmds = cur.ruleset.legal_commands(cur.state, seat)
        import msgspec

        cmd = msgspec.to_builtins(rng.choice(cmds))
        ans = gs.command(g["game_id"], g["seats"][seat], CommandRequest(command=cmd, expected_version=cur.version))
        assert ans.status == 201, ans.body
    return store, g


def test_replay_lists_every_step_with_rulings_and_hides_hands_from_a_spectator(tmp_path):
    store, g = _play(tmp_path)
    version = store.version(g["game_id"])
    res = CliRunner().invoke(main, ["replay", g["game_id"], "--data-dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    step_lines = [ln for ln in lines if ln[:5].strip().isdigit()]
    assert [int(ln[:5]) for ln in step_lines] == list(range(1, version + 1))
    assert any(ln.strip().startswith("HOTH-CARD-1:") for ln in lines)  # a ruling with its rule id
    # hands are private: a card still in the imperial hand at the end was drawn (a seat-private event) but
    # never played, so a spectator's replay must not name it
    view = json.loads(
        CliRunner().invoke(main, ["replay", g["game_id"], "--data-dir", str(tmp_path), "--at", str(version), "--seat",
                                  "imperial", "--json"]).output
    )
    hand = view["state"]["hands"]["imperial"]
    assert isinstance(hand, list) and hand, "the imperial seat sees its own card ids"
    assert isinstance(view["state"]["hands"]["rebel"], int), "the other hand is a count"
    assert not any(card in res.output for card in hand)


def test_replay_at_a_step_equals_the_prefix_fold_and_bad_input_is_one_line(tmp_path):
    store, g = _play(tmp_path, steps=10)
    res = CliRunner().invoke(main, ["replay", g["game_id"], "--data-dir", str(tmp_path), "--at", "3", "--json"])
    assert res.exit_code == 0, res.output
    view = json.loads(res.output)
    assert view["version"] == 3 and view["game_id"] == g["game_id"]
    # without --json the board is drawn as text: rows r6..r0, units with their figures
    drawn = CliRunner().invoke(main, ["replay", g["game_id"], "--data-dir", str(tmp_path), "--at", "3"])
    assert drawn.exit_code == 0 and drawn.output.startswith("--- step 3 of "), drawn.output
    rows = [ln for ln in drawn.output.splitlines() if ln[:2] in {f"r{r}" for r in range(7)}]
    assert [ln[:2] for ln in rows] == ["r6", "r5", "r4", "r3", "r2", "r1", "r0"]
    assert "rAR1" in drawn.output and "iST4" in drawn.output and "[SG" in drawn.output
    bad = CliRunner().invoke(main, ["replay", "nope", "--data-dir", str(tmp_path)])
    assert bad.exit_code != 0 and "nope" in bad.output and "Traceback" not in bad.output
    bad_seat = CliRunner().invoke(main, ["replay", g["game_id"], "--data-dir", str(tmp_path), "--seat", "ewok"])
    assert bad_seat.exit_code != 0 and "ewok" in bad_seat.output


def _pty_replay(args: list[str], keys: list[str], timeout: float = 60.0) -> tuple[list[str], int]:
    """Run ``umpire replay`` in a pseudo-terminal, type ``keys`` one line per prompt; (screens, exit code)."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", "replay", *args], stdin=slave, stdout=slave,
                            stderr=slave, close_fds=True, env=dict(os.environ, COLUMNS="200"))
    os.close(slave)
    screens: list[str] = []
    buf = b""
    pending = list(keys)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                buf += chunk
                if b"[q]uit > " in buf:
                    screens.append(buf.decode(errors="replace"))
                    buf = b""
                    if not pending:
                        break
                    os.write(master, (pending.pop(0) + "\n").encode())
            elif proc.poll() is not None:
                break
        code = proc.wait(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    if buf:
        screens.append(buf.decode(errors="replace"))
    return screens, code


def test_replay_step_by_step_in_a_terminal_next_back_jump_quit(tmp_path):
    """`umpire replay --step` in a pseudo-terminal: each screen is one step (its line, ruling and the board
    drawn as text) and a prompt; Enter/n goes on, b goes back, j SEQ (or SEQ) jumps, q quits."""
    store, g = _play(tmp_path, steps=15)
    last = store.version(g["game_id"])
    screens, code = _pty_replay([g["game_id"], "--data-dir", str(tmp_path), "--step", "--seat", "imperial"],
                                ["", "n", "b", "j 9", str(last), "n", "j 999", "j ²", "q"])
    assert code == 0
    prompts = [s for s in screens if s.endswith("[q]uit > ")]
    heads = [next(ln for ln in s.splitlines() if ln.startswith("--- step") or ln.startswith("(")) for s in prompts]
    assert heads[:6] == ["--- step 0 of %d ---" % last, "--- step 1 of %d ---" % last, "--- step 2 of %d ---" % last,
                         "--- step 1 of %d ---" % last, "--- step 9 of %d ---" % last, "--- step %d of %d ---" % (last, last)]
    assert heads[6].startswith("(the last step is") and heads[7].startswith("(jump to a step 0..")
    assert heads[8].startswith("(jump to a step 0..")  # "²" is a digit to str.isdigit, not to int()
    board = prompts[4]
    assert "r6" in board and "r0" in board and "hand of the Empire:" in board  # the board of step 9, drawn as text
    assert any(ln.strip().startswith("HOTH-") for ln in board.splitlines())  # the step's ruling
    assert len(prompts) == 9 and "--- step" not in "".join(screens[9:])  # q ended it: nothing more
