"""Benchmark the Battle of Hoth bots in process: win rates, playouts per second, decision times.

    .venv/bin/python ops/bench_bots.py --quick --json        # a few minutes (ops/bench --quick)
    .venv/bin/python ops/bench_bots.py --json                 # the default (ops/bench): 4 games per pair
    nice .venv/bin/python ops/bench_bots.py --games 200 --log /tmp/bots.jsonl --json   # the full run (hours)

Pairs: search vs random, search vs greedy, greedy vs random (and, with ``--pairs greedy-greedy``, the battles'
balance between equal players, by side). Game ``i`` of a pair is played on base scenario
``i // 2`` (round robin over the nine battles) with the first bot as imperial when ``i`` is even and as rebel
when odd, on the same game seed: both factions, swapped on the same battle. A game that reaches the turn cap is
a draw (counted, and not a win). Win rates come with 95% Wilson intervals.

Playouts per second: the search (exactly ``--playouts`` per decision, no early stop, no clock) on positions
of greedy-vs-greedy games across the scenarios, wall clock and process CPU time, beside random full games
per second measured in the same run (ops/bench_hoth.py's figure, which calibrates for the machine's load).
Decision times p50/p95 per level: the level budgets (playouts, clock cap) on the same positions.
Through REST (``--rest-games``, default 1): hoth games of greedy:1 and the search level against greedy played by the
service's own bot worker (the real app, a temporary store): the bot's own decision time and the time from one of its
decisions to the next (reading the seat's input, deciding, appending through the command path).

``--calibrate GAMES`` prints, from greedy-vs-greedy games over the battles, how a turn's real score gain compares
with the search's horizon estimates (the slopes that ``search.REPLY_SHARE`` and ``search.NEXT_SHARE`` weigh).

``--log FILE`` appends every finished game as a JSON line and skips the games already in it, so a long run
can be stopped and resumed; ``--summary FILE`` prints the summary of a log without playing.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots import BotSeat, decide  # noqa: E402
from bots.arena import Arena, play_match  # noqa: E402
from bots.hoth import SearchBot  # noqa: E402
from bots.hoth.knowledge import Knowledge  # noqa: E402
from bots.hoth.search import Search  # noqa: E402
from domain.kernel import registry  # noqa: E402
from scenarios.content import hand_to_rulesets  # noqa: E402

RS = registry.get("hoth")
#: The nine battles (the campaign-made variants of two of them are left out of the round robin).
BASE = [s.id for s in RS.scenarios() if "@" not in s.id]
MAX_TURNS = 150


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def seat_of(spec: str, seed: str) -> BotSeat:
    bot, _, lvl = spec.partition(":")
    return BotSeat(bot=bot, level=int(lvl or 1), seed=seed)


def play(pair: tuple[str, str], i: int, playouts: int | None) -> dict:
    a, b = pair
    scenario = BASE[(i // 2) % len(BASE)]
    a_side = "imperial" if i % 2 == 0 else "rebel"
    b_side = "rebel" if a_side == "imperial" else "imperial"
    tag = f"{a}-{b}-{i // 2}"
    seats = {a_side: seat_of(a, hashlib.sha256(f"a|{tag}".encode()).hexdigest()),
             b_side: seat_of(b, hashlib.sha256(f"b|{tag}".encode()).hexdigest())}
    fixed = {s: playouts for s, bs in seats.items() if bs.bot == "search" and playouts}
    r = play_match(RS, scenario, seats, game_id=f"bench-{tag}", seed=(i // 2 + 1).to_bytes(32, "big"),
                   max_turns=MAX_TURNS, playouts=fixed or None)
    winner = None if r.winner is None else (a if r.winner == a_side else b)
    return {"pair": f"{a} vs {b}", "i": i, "scenario": scenario, "a_side": a_side, "winner": winner,
            "winner_side": r.winner,
            "turns": r.turns, "seconds": round(r.seconds, 2),
            "times": {seats[s].spec: t for s, t in r.times.items()},
            "playouts": {seats[s].spec: p for s, p in r.playouts.items()}}


def _won(g: dict) -> bool | None:
    """True when the first bot of the pair won, False when the second did, None for a draw."""
    side = g.get("winner_side")
    if side is None and g.get("winner") is not None:  # logs written before winner_side
        first = g["pair"].split(" vs ")[0]
        return g["winner"] == first
    return None if side is None else side == g["a_side"]


def summarise(games: list[dict], pairs: list[tuple[str, str]]) -> dict:
    out = {}
    for a, b in pairs:
        key = f"{a} vs {b}"
        gs = [g for g in games if g["pair"] == key]
        n = len(gs)
        wins = sum(_won(g) is True for g in gs)
        losses = sum(_won(g) is False for g in gs)
        lo, hi = wilson(wins, n)
        by_side = {}
        for side in ("imperial", "rebel"):
            s = [g for g in gs if g["a_side"] == side]
            w = sum(_won(g) is True for g in s)
            by_side[side] = {"games": len(s), "wins": w, "win_rate": round(w / len(s), 3) if s else None,
                             "ci95": [round(x, 3) for x in wilson(w, len(s))]}
        out[key] = {"games": n, "wins": wins, "losses": losses, "draws": n - wins - losses,
                    "win_rate": round(wins / n, 3) if n else None, "ci95": [round(lo, 3), round(hi, 3)],
                    "by_side": by_side,
                    "turns_mean": round(statistics.mean(g["turns"] for g in gs), 1) if gs else None}
    return out


def positions(n: int) -> list:
    """Seat inputs with a real choice, from greedy-vs-greedy games over the battles."""
    g = BotSeat(bot="greedy", level=1, seed="5a" * 32)
    out = []
    k = 0
    while len(out) < n and k < 50:
        a = Arena(RS, BASE[k % len(BASE)], f"pos-{k}", seed=(1000 + k).to_bytes(32, "big"))
        rng = random.Random(k)
        while not a.finished and a.state.turn_no <= 40 and len(out) < n:
            seat = a.to_act()
            inp = a.seat_input(seat)
            if len(inp.legal) > 2 and a.state.turn_no >= 3 and rng.random() < 0.15:
                out.append(inp)
            a.play(seat, decide(g, inp).command)
        k += 1
    return out


def playout_rate(inputs: list, playouts: int) -> dict:
    wall = cpu = 0.0
    made = 0
    for j, inp in enumerate(inputs):
        k = Knowledge(inp)
        w0, c0 = time.perf_counter(), time.process_time()
        r = Search(k, random.Random(j)).run(playouts, 0.0, early_stop=False)
        wall += time.perf_counter() - w0
        cpu += time.process_time() - c0
        made += r.playouts
    return {"positions": len(inputs), "playouts": made, "per_s_wall": round(made / wall, 1),
            "per_s_cpu": round(made / cpu, 1), "per_decision_ms": round(1000 * wall / len(inputs), 1)}


def random_games_rate(games: int) -> float:
    from tests.hoth.fixtures import FixtureCatalog
    from tests.hoth.play import random_game
    from domain.hoth.decider import HothRuleset

    rs = HothRuleset(FixtureCatalog())
    t0 = time.perf_counter()
    for s in range(games):
        random_game(rs, "SCN-TAKE-DOWN-THE-SHIELD", s, max_turns=300)
    return games / (time.perf_counter() - t0)


def decision_times(inputs: list, specs: list[str]) -> dict:
    out = {}
    for spec in specs:
        ts = []
        for j, inp in enumerate(inputs):
            d = decide(seat_of(spec, f"{j:064x}"), inp)
            ts.append(d.seconds * 1000)
        ts.sort()
        out[spec] = {"decisions": len(ts), "p50_ms": round(ts[len(ts) // 2], 1),
                     "p95_ms": round(ts[min(len(ts) - 1, int(0.95 * len(ts)))], 1)}
    return out


def rest_times(specs: list[str], games: int) -> dict[str, dict]:
    """Bot decisions through the REST service (the real app, a temporary SQLite store, log-only reads): hoth games of
    ``spec`` (imperial) against greedy (rebel) played by the service's own worker to their end. Per decision: the
    bot's own time (as in process) and the time from one of its decisions to the next (reading the seat's view,
    legal commands and events, deciding, appending through the command path), beside the in-process figures."""
    import tempfile

    from litestar.testing import TestClient

    from service.app import create_app
    from service.settings import Settings

    out: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as d:
        app = create_app(Settings(data_dir=d), read_models=None)
        with TestClient(app) as client:
            players = app.state.bots
            for spec in specs:
                own: list[float] = []
                gaps: list[float] = []
                last: dict[str, float] = {}

                def hook(job, dec, spec=spec, own=own, gaps=gaps, last=last) -> None:
                    if job.spec != spec or job.seat != "imperial":
                        return
                    now = time.perf_counter()
                    own.append(dec.seconds)
                    if job.game_id in last:
                        gaps.append(now - last[job.game_id])
                    last[job.game_id] = now

                players.on_decision.append(hook)
                t0 = time.perf_counter()
                for i in range(games):
                    scenario = BASE[i % len(BASE)]
                    r = client.post("/games", json={"ruleset": "hoth", "scenario": scenario,
                                                    "seed": hashlib.sha256(f"rest|{spec}|{i}".encode()).hexdigest(),
                                                    "bots": {"imperial": spec, "rebel": "greedy:1"}})
                    gid = r.json()["game_id"]
                    while client.get(f"/games/{gid}").json()["status"] != "finished":
                        time.sleep(0.2)
                players.on_decision.remove(hook)
                own.sort()
                gaps.sort()
                out[spec] = {"games": games, "decisions": len(own), "seconds": round(time.perf_counter() - t0, 1),
                             "p50_ms": round(1000 * own[len(own) // 2], 1) if own else None,
                             "p95_ms": round(1000 * own[int(0.95 * (len(own) - 1))], 1) if own else None,
                             "between_decisions_p50_ms": round(1000 * gaps[len(gaps) // 2], 1) if gaps else None,
                             "between_decisions_p95_ms": round(1000 * gaps[int(0.95 * (len(gaps) - 1))], 1)
                             if gaps else None}
    return out


def calibrate(games: int) -> dict:
    """What a turn really gains against what the search's horizon estimates (``activity.reply_value``, the best card of
    the hand on the board as it stands), over greedy-vs-greedy games of the battles: the least-squares slope (through 0)
    of the score gain of each turn (``values.score`` of the side to move, turns that end the game left out) on the
    estimate made at its start (the other side's reply: ``search.REPLY_SHARE``) and on the estimate made a turn
    earlier, before the other side's turn (the seat's own next turn: ``search.NEXT_SHARE``)."""
    from bots.hoth.activity import reply_value
    from bots.hoth.values import score
    from domain.hoth.state import faction_of

    g = BotSeat(bot="greedy", level=1, seed="c4" * 32)
    rows: list[dict] = []  # per turn: game, estimate now, the other seat's estimate now, gain
    for k in range(games):
        a = Arena(RS, BASE[k % len(BASE)], f"calib-{k}", seed=(5000 + k).to_bytes(32, "big"))
        cur = None
        while not a.finished and a.state.turn_no <= MAX_TURNS:
            st = a.state
            if st.pending is None and st.turn is not None and st.turn.phase == "play" and st.turn_no != cur:
                cur, seat = st.turn_no, st.turn.seat
                other = next(s for s in st.turn_order if s != seat)
                rows.append({"game": k, "f": faction_of(seat), "start": score(st, faction_of(seat)),
                             "now": reply_value(st, seat), "other": reply_value(st, other), "gain": None})
            seat = a.to_act()
            a.play(seat, decide(g, a.seat_input(seat)).command)
            if rows and rows[-1]["gain"] is None and a.state.winner is None and a.state.turn_no != cur:
                rows[-1]["gain"] = score(a.state, rows[-1]["f"]) - rows[-1]["start"]

    def slope(pairs: list[tuple[float, float]]) -> float:
        return round(sum(e * y for e, y in pairs) / max(1e-9, sum(e * e for e, _ in pairs)), 3)

    reply = [(r["now"], r["gain"]) for r in rows if r["gain"] is not None]
    nxt = [(p["other"], r["gain"]) for p, r in zip(rows, rows[1:]) if p["game"] == r["game"] and r["gain"] is not None]
    return {"games": games, "turns": len(reply), "reply_share": slope(reply), "next_share": slope(nxt),
            "by_faction": {f: {"reply_share": slope([(r["now"], r["gain"]) for r in rows
                                                     if r["gain"] is not None and r["f"] == f])}
                           for f in ("imperial", "rebel")}}


def main(argv: list[str] | None = None) -> int:
    hand_to_rulesets()  # this script is a composition root: the rulesets get their content (scenarios/)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4, help="games per pair (default 4; the full run: 200)")
    ap.add_argument("--level", type=int, default=1, help="search level in the matches (default 1)")
    ap.add_argument("--playouts", type=int, default=0,
                    help="fixed playouts per search decision in the matches instead of the level's budget")
    ap.add_argument("--positions", type=int, default=12, help="positions for the speed figures (default 12)")
    ap.add_argument("--speed-playouts", type=int, default=1000, help="playouts per position for the rate")
    ap.add_argument("--quick", action="store_true", help="2 games per pair, 6 positions, 300 playouts")
    ap.add_argument("--log", help="append finished games here (JSON lines) and skip those already there")
    ap.add_argument("--summary", help="print the summary of --log files (comma-separated) and exit")
    ap.add_argument("--skip-speed", action="store_true", help="no speed figures (matches only)")
    ap.add_argument("--pairs", default="search-random,search-greedy,greedy-random",
                    help="which pairs to play (default all three; e.g. search-greedy to split a long run)")
    ap.add_argument("--json", action="store_true", help="print machine-readable results")
    ap.add_argument("--side", choices=("imperial", "rebel"),
                    help="screens: only the games where the first bot of a pair plays this side (same numbering)")
    ap.add_argument("--battles", default="",
                    help="screens: only the games on battles whose id contains one of these (comma-separated, "
                         "case-insensitive; same numbering)")
    ap.add_argument("--rest-games", type=int, default=1,
                    help="hoth games per bot (greedy:1, search:1) played through the REST service (0: none)")
    ap.add_argument("--calibrate", type=int, default=0, metavar="GAMES",
                    help="print the calibration of the search's REPLY_SHARE and NEXT_SHARE over GAMES greedy games "
                         "and exit")
    args = ap.parse_args(argv)
    if args.calibrate:
        print(json.dumps(calibrate(args.calibrate), indent=2))
        return 0
    if args.quick:
        args.games, args.positions, args.speed_playouts = 2, 6, 300
    search = f"search:{args.level}"
    named = {"search-random": (search, "random:1"), "search-greedy": (search, "greedy:1"),
             "greedy-random": ("greedy:1", "random:1"),
             # the battles' balance between two equal players (by side), to read the others against
             "greedy-greedy": ("greedy:1", "greedy:1")}
    pairs = [named[p] for p in args.pairs.split(",")]
    if args.summary:
        games = [json.loads(x) for f in args.summary.split(",") for x in Path(f).read_text().splitlines() if x.strip()]
        print(json.dumps(summarise(games, pairs), indent=2))
        return 0

    t_all = time.perf_counter()
    speed = times = None
    rnd = None
    if not args.skip_speed:
        inputs = positions(args.positions)
        rnd = random_games_rate(10 if args.quick else 40)
        speed = playout_rate(inputs, args.speed_playouts)
        times = decision_times(inputs[: max(4, len(inputs) // 2)],
                               ["random:1", "greedy:1"] + [f"search:{lv}" for lv in SearchBot.levels])

    rest = rest_times(["greedy:1", search], args.rest_games) if args.rest_games else None

    done: list[dict] = []
    if args.log and Path(args.log).exists():
        done = [json.loads(x) for x in Path(args.log).read_text().splitlines() if x.strip()]
    have = {(g["pair"], g["i"]) for g in done}
    games = [g for g in done if any(g["pair"] == f"{a} vs {b}" for a, b in pairs)]
    wanted = [w.strip().lower() for w in args.battles.split(",") if w.strip()]
    for i in range(args.games):
        if args.side and ("imperial" if i % 2 == 0 else "rebel") != args.side:
            continue
        if wanted and not any(w in BASE[(i // 2) % len(BASE)].lower() for w in wanted):
            continue
        for a, b in pairs:
            if (f"{a} vs {b}", i) in have:
                continue
            g = play((a, b), i, args.playouts or None)
            games.append(g)
            if args.log:
                with open(args.log, "a") as fh:
                    fh.write(json.dumps(g) + "\n")
            if not args.json:
                print(f"{g['pair']:28s} #{i:3d} {g['scenario']:32s} {g['a_side']:8s} winner {g['winner']} "
                      f"({g['turns']} turns, {g['seconds']}s)", flush=True)
    games = [g for g in games if g["i"] < args.games
             and (not args.side or g["a_side"] == args.side)
             and (not wanted or any(w in g["scenario"].lower() for w in wanted))]
    summary = summarise(games, pairs)
    search_times = [t for g in games for spec, ts in g["times"].items() if spec == search for t in ts]
    search_times.sort()
    made = [p for g in games for spec, ps in g["playouts"].items() if spec == search for p in ps]

    figures = []
    for key, s in summary.items():
        if s["win_rate"] is None:
            continue
        figures.append({"figure": f"{key}: win rate of the first ({s['games']} games, both factions on "
                                  f"{min(len(BASE), (s['games'] + 1) // 2)} battles; 95% Wilson "
                                  f"{100 * s['ci95'][0]:.0f}-{100 * s['ci95'][1]:.0f}%)",
                        "value": round(100 * s["win_rate"], 1), "unit": "%",
                        "vs": {"figure": "lower end of the 95% interval", "value": round(100 * s["ci95"][0], 1)}})
    if speed is not None:
        figures.append({"figure": f"search playouts per second, one core ({speed['positions']} positions x "
                                  f"{args.speed_playouts} playouts; process CPU time {speed['per_s_cpu']:,.0f}/s)",
                        "value": speed["per_s_wall"], "unit": "playouts/s",
                        "vs": {"figure": "random full games per second in the same run (ops/bench_hoth)",
                               "value": round(rnd, 1)}})
        for spec, t in times.items():
            figures.append({"figure": f"decision time {spec} (p50; {t['decisions']} positions)",
                            "value": t["p50_ms"], "unit": "ms", "lower_is_better": True,
                            "vs": {"figure": "p95", "value": t["p95_ms"]}})
    for spec, t in (rest or {}).items():
        if t["p50_ms"] is None:
            continue
        inproc = (times or {}).get(spec)
        figures.append({"figure": f"{spec} through REST: from one decision to the next (p50; {t['decisions']} "
                                  f"decisions of {t['games']} game(s); the bot's own p50 {t['p50_ms']:,.0f} ms)",
                        "value": t["between_decisions_p50_ms"], "unit": "ms", "lower_is_better": True,
                        "vs": {"figure": "in-process decision p50" if inproc else "the bot's own decision p50",
                               "value": inproc["p50_ms"] if inproc else t["p50_ms"]}})
    out = {
        "benchmark": "bots",
        "unit": "in-process bot games and searches",
        "params": {"games_per_pair": args.games, "level": args.level, "playouts": args.playouts or None,
                   "max_turns": MAX_TURNS, "battles": BASE, "search_budgets": SearchBot.BUDGETS},
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform(),
                    "load": list(os.getloadavg())},
        "pairs": summary,
        "speed": speed, "random_games_per_s": round(rnd, 2) if rnd else None, "decision_times": times,
        "rest_decisions": rest,
        "match_decisions": {"search_decisions": len(search_times),
                            "p50_ms": round(1000 * search_times[len(search_times) // 2], 1) if search_times else None,
                            "p95_ms": round(1000 * search_times[int(0.95 * (len(search_times) - 1))], 1)
                            if search_times else None,
                            "playouts_mean": round(statistics.mean(made), 1) if made else None},
        "seconds": round(time.perf_counter() - t_all, 1),
        "figures": figures,
    }
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(json.dumps({k: out[k] for k in ("pairs", "speed", "decision_times", "match_decisions", "rest_decisions")},
                         indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
