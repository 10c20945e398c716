"""The drills. Each returns a :class:`Report`: what happened, line by line, and whether it held.

1. :func:`server_kills`  SIGKILL ``umpire serve`` (1 or N workers) several times under
   concurrent load, restart it; nothing acknowledged lost, chains verify, projections converge.
2. :func:`redis_outages` SIGKILL the Redis under load and restart it; commands still accepted,
   reads answered from the log (``X-Umpire-Degraded: projections``), convergence after.
3. :func:`disk_full`     the data dir on a tiny tmpfs filled up: clean problem-details errors,
   nothing acknowledged lost, writes resume once space is back.
4. :func:`read_only`     ``umpire serve`` on a read-only data dir: a one-line error, exit code 1.
5. :func:`backup_restore` ``VACUUM INTO`` of the live database under load (README: Operations),
   restored into a new data dir and served: everything acknowledged before the backup is there.

Sizes come from :class:`Plan` (``--quick`` or the full default).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from service.redis_runtime import EmbeddedRedis

from .checks import Findings, check_log, wait_converged
from .load import Ack, Seat, Tally, _json, create_games, start_clients
from .server import ROOT, Server, server_env, umpire_exe


@dataclass(frozen=True)
class Plan:
    games: int = 3
    seats_per_game: int = 2  # clients per game: they race for its version
    kills: int = 4
    interval_s: float = 3.0  # load between two faults
    redis_outages: int = 2
    outage_s: float = 2.0
    tmpfs_size: str = "4m"
    cli_verify: bool = True


FULL = Plan()
QUICK = Plan(games=2, seats_per_game=2, kills=3, interval_s=1.2, redis_outages=1, outage_s=1.2)


@dataclass
class Report:
    name: str
    ok: bool = True
    lines: list[str] = field(default_factory=list)
    skipped: str | None = None
    findings: Findings | None = None
    tally: Tally | None = None

    def say(self, text: str) -> None:
        self.lines.append(text)

    def fail(self, text: str) -> None:
        self.ok = False
        self.lines.append("FAIL: " + text)


def _finish(rep: Report, server: Server, data_dir: Path, redis: EmbeddedRedis | str, tally: Tally, plan: Plan,
            last_fault: float) -> None:
    redis_url = redis if isinstance(redis, str) else redis.url
    rep.tally = tally
    st = tally.statuses
    if st:
        rep.say("client answers: " + ", ".join(f"{k}: {v}" for k, v in sorted(st.items())))
    if tally.problems:
        rep.fail(f"{len(tally.problems)} unexpected answers, e.g. {tally.problems[0]}")
    f = Findings()
    wait_converged(server.url, data_dir, redis_url, sorted(tally.sent), f, since=time.monotonic())
    g = check_log(server.url, data_dir, tally, cli_verify=plan.cli_verify)
    g.not_converged, g.converge_s = f.not_converged, f.converge_s
    f = g
    rep.findings = f
    for line in f.lines():
        rep.say(line)
    if not f.ok:
        rep.ok = False
    if not tally.acks:
        rep.fail("no command was acknowledged at all")


def _stop_clients(stop: threading.Event, clients: list) -> None:
    stop.set()
    for c in clients:
        c.join(timeout=30)


def server_kills(base: Path, redis: EmbeddedRedis, plan: Plan, *, workers: int = 1, seed: int = 7) -> Report:
    rep = Report(f"server SIGKILL x{plan.kills} under load ({workers} worker{'s' if workers > 1 else ''})")
    data_dir = base / "data"
    server = Server(data_dir, redis.url, workers=workers, log_path=base / "server.log")
    try:
        t = server.start()
        rep.say(f"umpire serve --workers {workers} on {server.url}, data {data_dir}, redis {redis.url}: up in {t:.2f} s")
        seats = create_games(server.url, plan.games, plan.seats_per_game)
        stop = threading.Event()
        clients, tally = start_clients(server.url, seats, stop, seed)
        rep.say(f"{len(clients)} clients on {plan.games} games ({plan.seats_per_game} seats each, racing)")
        last_fault = time.monotonic()
        for i in range(plan.kills):
            time.sleep(plan.interval_s)
            n = len(tally.acks)
            server.kill()
            last_fault = time.monotonic()
            t = server.start()
            rep.say(f"kill {i + 1}: SIGKILL (process group) after {n} acks; restarted, answering in {t:.2f} s")
        time.sleep(plan.interval_s)
        _stop_clients(stop, clients)
        _finish(rep, server, data_dir, redis, tally, plan, last_fault)
    except Exception as exc:  # a drill reports, it does not crash
        rep.fail(f"{type(exc).__name__}: {exc}")
    finally:
        server.stop()
    return rep


def redis_outages(base: Path, redis: EmbeddedRedis, plan: Plan, *, seed: int = 11) -> Report:
    rep = Report(f"Redis SIGKILL x{plan.redis_outages} under load")
    data_dir = base / "data"
    server = Server(data_dir, redis.url, log_path=base / "server.log")
    try:
        server.start()
        seats = create_games(server.url, plan.games, plan.seats_per_game)
        stop = threading.Event()
        clients, tally = start_clients(server.url, seats, stop, seed)
        rep.say(f"{len(clients)} clients on {plan.games} games; redis-server pid {redis.pid}")
        last_fault = time.monotonic()
        for i in range(plan.redis_outages):
            time.sleep(plan.interval_s)
            redis.kill()
            t0 = time.monotonic()
            time.sleep(plan.outage_s)
            t1 = time.monotonic()
            redis.restart()
            last_fault = time.monotonic()
            during = sum(1 for a in tally.acks if t0 <= a.at <= t1)
            with tally.lock:
                deg = sum(1 for t in tally.degraded_reads if t0 <= t <= t1 + 0.5)
            rep.say(f"outage {i + 1}: Redis down {t1 - t0:.1f} s: {during} commands acknowledged meanwhile, "
                    f"{deg} reads answered with X-Umpire-Degraded; Redis restarted empty (pid {redis.pid})")
            if during == 0:
                rep.fail("no command was accepted while Redis was down")
            if deg == 0:
                rep.fail("no read carried X-Umpire-Degraded while Redis was down")
        time.sleep(plan.interval_s)
        _stop_clients(stop, clients)
        _finish(rep, server, data_dir, redis, tally, plan, last_fault)
    except Exception as exc:
        rep.fail(f"{type(exc).__name__}: {exc}")
    finally:
        server.stop()
        if not redis.running:
            redis.restart()
    return rep


# -- storage faults ---------------------------------------------------------
def _can_mount() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("mount") is not None


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), capture_output=True, text=True, timeout=30)


def _clean_problem(r: httpx.Response) -> str | None:
    """None if ``r`` is a clean problem-details error; else what is wrong with it."""
    ctype = r.headers.get("content-type", "")
    body = _json(r)
    if not ctype.startswith("application/problem+json"):
        return f"content-type {ctype}"
    if not body.get("detail") or not body.get("type"):
        return "no type/detail"
    if "Traceback" in r.text or 'File "' in r.text:
        return "traceback in the body"
    return None


def _post(c: httpx.Client, seat: Seat, cid: str, version: int) -> httpx.Response:
    return c.post(f"/games/{seat.game_id}/commands", headers={"Authorization": f"Bearer {seat.token}"},
                  json={"command": {"type": "tick", "events": 1}, "expected_version": version, "command_id": cid})


def _ack(seat: Seat, cid: str, r: httpx.Response) -> Ack:
    ans = r.json()
    return Ack(seat.game_id, cid, time.monotonic(), int(ans["version"]),
               tuple((int(e["seq"]), str(e["hash"])) for e in ans["events"]))


def _fill(path: Path) -> int:
    """Write zeros to ``path`` until the filesystem is full; bytes written."""
    n = 0
    chunk = b"\0" * 65536
    with open(path, "wb", buffering=0) as f:
        while True:
            try:
                n += f.write(chunk)
            except OSError:
                break
        for size in (4096, 512, 1):
            while True:
                try:
                    n += f.write(b"\0" * size)
                except OSError:
                    break
    return n


def disk_full(base: Path, redis: EmbeddedRedis, plan: Plan) -> Report:
    rep = Report(f"full disk (data dir on a {plan.tmpfs_size} tmpfs, filled up)")
    if not _can_mount():
        rep.skipped = "needs root and mount(8) for a tmpfs; not available here"
        return rep
    mnt = base / "disk"
    mnt.mkdir(parents=True, exist_ok=True)
    p = _run("mount", "-t", "tmpfs", "-o", f"size={plan.tmpfs_size}", "tmpfs", str(mnt))
    if p.returncode != 0:
        rep.skipped = f"cannot mount a tmpfs here: {p.stderr.strip()}"
        return rep
    data_dir = mnt / "data"
    server = Server(data_dir, redis.url, log_path=base / "server.log")
    tally = Tally()
    try:
        server.start()
        seat = create_games(server.url, 1, 1)[0]
        tally.sent[seat.game_id] = set()
        with httpx.Client(base_url=server.url, timeout=30) as c:
            version = seat.version
            for i in range(5):
                cid = f"before-{i}"
                tally.sent[seat.game_id].add(cid)
                r = _post(c, seat, cid, version)
                if r.status_code != 201:
                    raise RuntimeError(f"command before the fault answered {r.status_code}: {r.text[:200]}")
                tally.acks.append(_ack(seat, cid, r))
                version = tally.acks[-1].version
            filler = mnt / "filler"
            n = _fill(filler)
            rep.say(f"{len(tally.acks)} commands acknowledged; then the disk was filled ({n // 1024} KiB of zeros)")
            # Keep posting until the store refuses (the WAL may still have room for a few).
            failures: list[httpx.Response] = []
            failed_cids: list[str] = []
            accepted_while_full = 0
            for i in range(400):
                cid = f"full-{i}"
                tally.sent[seat.game_id].add(cid)
                r = _post(c, seat, cid, version)
                if r.status_code == 201:
                    tally.acks.append(_ack(seat, cid, r))
                    version = tally.acks[-1].version
                    accepted_while_full += 1
                    continue
                failures.append(r)
                failed_cids.append(cid)
                if len(failures) >= 3:
                    break
            if not failures:
                rep.fail("the store never refused a command on a full disk")
            else:
                r = failures[0]
                rep.say(f"{accepted_while_full} more commands fitted in the WAL; then: {r.status_code} "
                        f"{r.headers.get('content-type')}: {_json(r).get('detail')!r}")
                bad = [w for w in (_clean_problem(x) for x in failures) if w]
                if bad:
                    rep.fail(f"not a clean problem-details error: {bad[0]}")
                if any(x.status_code < 500 for x in failures):
                    rep.fail(f"a storage failure answered {sorted({x.status_code for x in failures})}, not 5xx")
            r = c.post("/games", json={"ruleset": "drill", "scenario": "race"})
            rep.say(f"POST /games on the full disk: {r.status_code} {_json(r).get('detail')!r}")
            if r.status_code == 201:
                tally.sent.setdefault(r.json()["game_id"], set())
            elif _clean_problem(r):
                rep.fail(f"POST /games: {_clean_problem(r)}")
            r = c.get(f"/games/{seat.game_id}")
            rep.say(f"GET /games/{{id}} on the full disk: {r.status_code} (reads still work)")
            if r.status_code != 200:
                rep.fail(f"reads fail on a full disk: {r.status_code}")
            filler.unlink()
            rep.say("space freed (filler removed)")
            # The failed command ids again: now accepted (nothing half-written blocks them).
            retried = 0
            for cid in failed_cids:
                for _ in range(3):
                    r = _post(c, seat, cid, version)
                    if r.status_code == 409:
                        version = int(_json(r)["current_version"])
                        continue
                    break
                if r.status_code == 201:
                    tally.acks.append(_ack(seat, cid, r))
                    version = tally.acks[-1].version
                    retried += 1
            rep.say(f"the {len(failures)} refused commands sent again with the same command_id: {retried} accepted")
            if retried != len(failures):
                rep.fail("writes did not resume once space was back")
        server.kill()
        server.start()
        rep.say("server SIGKILLed and restarted to read back from the disk")
        _finish(rep, server, data_dir, redis, tally, plan, time.monotonic())
    except Exception as exc:
        rep.fail(f"{type(exc).__name__}: {exc}")
    finally:
        server.stop()
        _run("umount", "-l", str(mnt))
    return rep


def read_only(base: Path, redis: EmbeddedRedis, plan: Plan) -> Report:
    rep = Report("read-only data dir")
    if not _can_mount():
        rep.skipped = "needs root and mount(8) for a read-only bind mount; not available here"
        return rep
    data_dir = base / "data"
    ro = base / "ro"
    ro.mkdir(parents=True, exist_ok=True)
    server = Server(data_dir, redis.url, log_path=base / "server.log")
    mounted = False
    try:
        server.start()
        seat = create_games(server.url, 1, 1)[0]
        acks: list[Ack] = []
        with httpx.Client(base_url=server.url, timeout=30) as c:
            for i in range(3):
                r = _post(c, seat, f"rw-{i}", seat.version + i)
                acks.append(_ack(seat, f"rw-{i}", r))
        server.stop()
        for args in (("mount", "--bind", str(data_dir), str(ro)), ("mount", "-o", "remount,bind,ro", str(ro))):
            p = _run(*args)
            if p.returncode != 0:
                rep.skipped = f"cannot make a read-only bind mount: {p.stderr.strip()}"
                return rep
            mounted = True
        rep.say(f"{len(acks)} commands acknowledged, server stopped, data dir bind-mounted read-only at {ro}")
        p = subprocess.run(umpire_exe() + ["serve", "--port", "1", "--data-dir", str(ro)], capture_output=True,
                           text=True, env=server_env(redis.url), cwd=ROOT, timeout=60)
        err = p.stderr.strip().splitlines()
        rep.say(f"umpire serve --data-dir <read-only>: exit {p.returncode}: {err[-1] if err else '(nothing on stderr)'}")
        if p.returncode == 0 or not err or "Traceback" in p.stderr:
            rep.fail("no clear one-line error for a read-only data dir")
        p = subprocess.run(umpire_exe() + ["verify", seat.game_id, "--data-dir", str(ro)], capture_output=True,
                           text=True, env=server_env(None), cwd=ROOT, timeout=60)
        err = p.stderr.strip().splitlines()
        rep.say(f"umpire verify on the read-only dir: exit {p.returncode}: "
                f"{(p.stdout.strip().splitlines() or err or ['-'])[-1]}")
        _run("umount", str(ro))
        mounted = False
        server.start()
        tally = Tally(acks=acks, sent={seat.game_id: {a.command_id for a in acks}})
        _finish(rep, server, data_dir, redis, tally, plan, time.monotonic())
    except Exception as exc:
        rep.fail(f"{type(exc).__name__}: {exc}")
    finally:
        server.stop()
        if mounted:
            _run("umount", "-l", str(ro))
    return rep


def backup(db: Path, out: Path) -> str:
    """``VACUUM INTO`` a consistent copy of the live database (the README's backup step)."""
    sqlite = shutil.which("sqlite3")
    if sqlite:
        p = subprocess.run([sqlite, str(db), f"VACUUM INTO '{out}'"], capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            raise RuntimeError(f"sqlite3 VACUUM INTO failed: {p.stderr.strip()}")
        return f"sqlite3 {db.name} \"VACUUM INTO '{out.name}'\""
    import sqlite3

    conn = sqlite3.connect(db, timeout=30)
    try:
        conn.execute("VACUUM INTO ?", (str(out),))
    finally:
        conn.close()
    return f"python sqlite3: VACUUM INTO '{out.name}'"


def backup_restore(base: Path, redis: EmbeddedRedis, plan: Plan, *, seed: int = 23) -> Report:
    rep = Report("backup under load (VACUUM INTO) and restore")
    data_dir = base / "data"
    server = Server(data_dir, redis.url, log_path=base / "server.log")
    restored_server: Server | None = None
    try:
        server.start()
        seats = create_games(server.url, plan.games, plan.seats_per_game)
        stop = threading.Event()
        clients, tally = start_clients(server.url, seats, stop, seed)
        time.sleep(plan.interval_s)
        with tally.lock:
            before = list(tally.acks)
        t0 = time.monotonic()
        how = backup(data_dir / "umpire.db", base / "backup.db")
        took = time.monotonic() - t0
        time.sleep(plan.interval_s / 2)
        _stop_clients(stop, clients)
        rep.say(f"{how} while {len(clients)} clients wrote: {took:.2f} s, "
                f"{(base / 'backup.db').stat().st_size // 1024} KiB; {len(before)} commands acknowledged before it, "
                f"{len(tally.acks)} by the end")
        server.stop()
        restored = base / "restored"
        restored.mkdir()
        shutil.copyfile(base / "backup.db", restored / "umpire.db")
        # a second Redis database: the restored games must not meet the live ones' models
        url1 = redis.url.rsplit("/", 1)[0] + "/1"
        restored_server = Server(restored, url1, log_path=base / "restored.log")
        restored_server.start()
        rep.say(f"restored into a new data dir and served it (redis db 1); checking the acknowledgements "
                f"made before the backup")
        kept = Tally(acks=before, sent=tally.sent)
        _finish(rep, restored_server, restored, url1, kept, plan, time.monotonic())
    except Exception as exc:
        rep.fail(f"{type(exc).__name__}: {exc}")
    finally:
        server.stop()
        if restored_server is not None:
            restored_server.stop()
    return rep
