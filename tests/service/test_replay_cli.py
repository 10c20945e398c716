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
        CliRunner().invoke(main, ["replay", g["game_id"], "--data-dir", str(tmp_path), "--at", str(version), "--seat", "imperial"]).output
    )
    hand = view["state"]["hands"]["imperial"]
    assert isinstance(hand, list) and hand, "the imperial seat sees its own card ids"
    assert isinstance(view["state"]["hands"]["rebel"], int), "the other hand is a count"
    assert not any(card in res.output for card in hand)


def test_replay_at_a_step_equals_the_prefix_fold_and_bad_input_is_one_line(tmp_path):
    store, g = _play(tmp_path, steps=10)
    res = CliRunner().invoke(main, ["replay", g["game_id"], "--data-dir", str(tmp_path), "--at", "3"])
    assert res.exit_code == 0, res.output
    view = json.loads(res.output)
    assert view["version"] == 3 and view["game_id"] == g["game_id"]
    bad = CliRunner().invoke(main, ["replay", "nope", "--data-dir", str(tmp_path)])
    assert bad.exit_code != 0 and "nope" in bad.output and "Traceback" not in bad.output
    bad_seat = CliRunner().invoke(main, ["replay", g["game_id"], "--data-dir", str(tmp_path), "--seat", "ewok"])
    assert bad_seat.exit_code != 0 and "ewok" in bad_seat.output
