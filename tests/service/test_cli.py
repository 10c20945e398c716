"""The ``umpire`` command line through real subprocesses, the JSON-lines transfer,
settings, and the private Redis runtime that ``umpire serve`` and the tests use."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import msgspec
import pytest
import redis

from domain.kernel.dice import Dice, commitment
from service.redis_runtime import EmbeddedRedis
from service.settings import Settings, SettingsError
from service.store import EventStore, GameExists, NewEvent, token_hash
from service.transfer import TransferError, export_lines, import_game
from service.verify import verify_game

from .raw_games import create_raw_game

ROOT = Path(__file__).resolve().parents[2]
SEED = bytes(range(32))
_enc = msgspec.json.Encoder()


def umpire(*args: str, env: dict | None = None, input: str | None = None) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("UMPIRE_")}
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "service.cli", *args], cwd=ROOT, env=full_env,
                          capture_output=True, text=True, timeout=60, input=input)


def assert_clean_error(p: subprocess.CompletedProcess, *needles: str) -> None:
    assert p.returncode != 0
    assert "Traceback" not in p.stderr
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith("umpire: error: ")
    for n in needles:
        assert n in lines[0], lines[0]


def play(data_dir: Path, game_id: str = "g", finish: bool = True) -> None:
    store = EventStore(data_dir)
    v = create_raw_game(store, game_id, seed=SEED, seats=("imperial", "rebel"), options={"x": 1},
                        token_hashes={"imperial": token_hash("ti"), "rebel": token_hash("tr")})
    dice = Dice(SEED, game_id)
    for k in range(4):
        dice.faces("ABCDEF", 2)
        last = finish and k == 3
        v = store.append(game_id, v, [
            NewEvent(type="Attacked", payload=_enc.encode({"k": k}).decode(), rolls=_enc.encode(dice.take()).decode()),
            NewEvent(type="Moved", payload="{}", actor="rebel", visibility="rebel"),
        ], command_id=f"c{k}", status="finished" if last else None).version
    store.close()


# -- bad input: one clear line, non-zero exit, no traceback ------------------

def test_unwritable_data_dir(tmp_path):
    (tmp_path / "file").write_text("x")
    bad = tmp_path / "file" / "data"
    p = umpire("import", str(tmp_path / "missing.jsonl"), "--data-dir", str(bad))
    assert_clean_error(p, "cannot read")
    exported = tmp_path / "g.jsonl"
    play(tmp_path / "src")
    assert umpire("export", "g", "--data-dir", str(tmp_path / "src"), "-o", str(exported)).returncode == 0
    p = umpire("import", str(exported), "--data-dir", str(bad))
    assert_clean_error(p, "cannot create data dir")
    p = umpire("serve", "--data-dir", str(bad), "--port", "1")
    assert_clean_error(p, "cannot create data dir")


def test_file_that_is_not_a_database(tmp_path):
    (tmp_path / "umpire.db").write_bytes(b"\x00garbage" * 500)
    for args in (["verify", "g"], ["export", "g"]):
        assert_clean_error(umpire(*args, "--data-dir", str(tmp_path)), "not a usable umpire database")


def test_unknown_game_and_missing_database(tmp_path):
    play(tmp_path)
    assert_clean_error(umpire("verify", "nope", "--data-dir", str(tmp_path)), "no game with id 'nope'")
    assert_clean_error(umpire("export", "nope", "--data-dir", str(tmp_path)), "no game with id 'nope'")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert_clean_error(umpire("verify", "g", "--data-dir", str(empty)), "no umpire database")
    assert not (empty / "umpire.db").exists()  # a read command creates nothing


def test_bad_settings_name_the_variable(tmp_path):
    p = umpire("verify", "g", env={"UMPIRE_DATA_DIR": str(tmp_path)})
    assert_clean_error(p, "no umpire database")
    p = umpire("serve", "--data-dir", str(tmp_path), env={"UMPIRE_PORT": "http"})
    assert_clean_error(p, "UMPIRE_PORT")
    p = umpire("serve", "--data-dir", str(tmp_path), "--port", "70000")
    assert_clean_error(p, "--port")


@pytest.mark.parametrize(
    "mangle, needle",
    [
        (lambda lines: [b"{not json"] + lines[1:], "line 1"),
        (lambda lines: lines[:1] + [lines[1].replace(b'"seq":1', b'"seq":"one"')] + lines[2:], "line 2"),
        (lambda lines: lines[:3] + lines[4:], "announces"),
        (lambda lines: lines[:2] + [lines[3], lines[2]] + lines[4:], "chain broken at seq 2"),
        (lambda lines: lines[:3] + [lines[3].replace(b'"Moved"', b'"Fled"')] + lines[4:], "chain broken at seq 3"),
        (lambda lines: [lines[0].replace(SEED.hex().encode(), bytes(32).hex().encode())] + lines[1:], "seed_commitment"),
        (lambda lines: [lines[0].replace(b'"umpire-game"', b'"other"')] + lines[1:], "kind"),
        (lambda lines: [], "empty file"),
    ],
    ids=["not-json", "bad-field", "missing-line", "reordered", "edited-type", "wrong-seed", "wrong-kind", "empty"],
)
def test_malformed_import_file_is_refused_and_writes_nothing(tmp_path, mangle, needle):
    play(tmp_path / "src")
    lines = [bytes(x) for x in export_lines(EventStore(tmp_path / "src"), "g")]
    f = tmp_path / "bad.jsonl"
    f.write_bytes(b"".join(x + b"\n" for x in mangle(lines)))
    dest = tmp_path / "dest"
    p = umpire("import", str(f), "--data-dir", str(dest))
    assert_clean_error(p, needle)
    assert not dest.exists()  # checked before the store was touched


# -- export / import round trip -----------------------------------------------

def test_export_then_import_round_trips_and_verifies(tmp_path):
    src, dest = tmp_path / "src", tmp_path / "dest"
    play(src)
    out = tmp_path / "g.jsonl"
    p = umpire("export", "g", "--data-dir", str(src), "-o", str(out))
    assert p.returncode == 0, p.stderr
    header = json.loads(out.read_text().splitlines()[0])
    assert header["seed"] == SEED.hex() and header["events"] == 9
    assert header["seats"] == {"imperial": token_hash("ti"), "rebel": token_hash("tr")}
    p = umpire("import", str(out), "--data-dir", str(dest))
    assert p.returncode == 0, p.stderr
    assert "imported game g" in p.stdout
    a, b = EventStore(src), EventStore(dest)
    assert a.load("g") == b.load("g")
    assert a.require_game("g") == b.require_game("g")
    assert b.seat_for_token("g", "tr") == "rebel"
    assert b.command_result("g", "c2").first_seq == 6
    p = umpire("verify", "g", "--data-dir", str(dest))
    assert p.returncode == 0, p.stderr
    assert "chain: ok" in p.stdout and "dice: ok (8 rolls)" in p.stdout and SEED.hex() in p.stdout
    p = umpire("verify", "g", "--data-dir", str(dest), "--json")
    assert json.loads(p.stdout)["dice_ok"] is True
    # importing again is refused
    assert_clean_error(umpire("import", str(out), "--data-dir", str(dest)), "already exists")


def test_unfinished_game_exports_its_seed_only_when_asked(tmp_path):
    play(tmp_path / "src", finish=False)
    plain = umpire("export", "g", "--data-dir", str(tmp_path / "src"))
    assert plain.returncode == 0
    assert json.loads(plain.stdout.splitlines()[0])["seed"] is None
    assert SEED.hex() not in plain.stdout
    secret = umpire("export", "g", "--data-dir", str(tmp_path / "src"), "--with-secrets")
    assert json.loads(secret.stdout.splitlines()[0])["seed"] == SEED.hex()
    # without secrets: importable and verifiable, but the seed is not there to play on
    p = umpire("import", "-", "--data-dir", str(tmp_path / "d1"), input=plain.stdout)
    assert p.returncode == 0, p.stderr
    s1 = EventStore(tmp_path / "d1")
    assert verify_game(s1, "g").chain_ok
    with pytest.raises(Exception, match="not in this store"):
        s1.seed("g")
    p = umpire("import", "-", "--data-dir", str(tmp_path / "d2"), input=secret.stdout)
    assert p.returncode == 0, p.stderr
    assert EventStore(tmp_path / "d2").seed("g") == SEED


def test_import_api_refuses_existing_game_in_one_transaction(store, tmp_path):
    play(tmp_path / "src")
    lines = list(export_lines(EventStore(tmp_path / "src"), "g"))
    import_game(store, lines)
    with pytest.raises(GameExists):
        import_game(store, lines)
    assert len(store.load("g")) == 9
    with pytest.raises(TransferError, match="line 2"):
        import_game(store, lines[:1] + [b'{"kind": "event"}'])


def test_verify_exit_code_on_a_tampered_log(tmp_path):
    play(tmp_path)
    import sqlite3

    conn = sqlite3.connect(tmp_path / "umpire.db")
    conn.execute("UPDATE events SET payload='{\"k\":9}' WHERE seq=3")
    conn.commit()
    conn.close()
    p = umpire("verify", "g", "--data-dir", str(tmp_path))
    assert p.returncode == 3
    assert "chain: BROKEN at seq 3" in p.stdout


# -- read-only data dirs (a backup copy): verify/export read, serve/import refuse --

def _snapshot(d: Path) -> dict[str, tuple[int, bytes]]:
    """Every file in ``d``: (mtime_ns, bytes) -- any write, or a new -wal/-shm, changes it."""
    return {f.name: (f.stat().st_mtime_ns, f.read_bytes()) for f in sorted(d.iterdir())}


def _read_only_copy(tmp_path: Path) -> Path:
    import shutil

    play(tmp_path / "live")
    ro = tmp_path / "backup"
    shutil.copytree(tmp_path / "live", ro)
    (ro / "umpire.db").chmod(0o444)
    ro.chmod(0o555)
    return ro


def _writable_again(d: Path) -> None:
    d.chmod(0o755)
    for f in d.iterdir():
        f.chmod(0o644)


def test_verify_and_export_read_a_read_only_copy_and_write_nothing(tmp_path):
    """EventStore(read_only=True): mode=ro, no migration, no pragma writes -- the database's bytes
    and mtime stay as they were and no -wal/-shm appears (this holds as root too, where chmod
    alone would not stop a write)."""
    from service.store import StoreError

    ro = _read_only_copy(tmp_path)
    try:
        before = _snapshot(ro)
        from service.store import WRITER_LOCK_FILE

        assert [n for n in before if n != WRITER_LOCK_FILE] == ["umpire.db"]  # the writers' lock file is empty
        store = EventStore(ro, read_only=True)
        assert verify_game(store, "g").ok
        assert len(list(export_lines(store, "g"))) == 10
        with pytest.raises(StoreError, match="read-only"):
            store.append("g", 9, [NewEvent(type="Moved", payload="{}")])
        store.close()
        p = umpire("verify", "g", "--data-dir", str(ro))
        assert p.returncode == 0 and "chain: ok" in p.stdout and "dice: ok" in p.stdout, p.stderr
        out = tmp_path / "g.jsonl"
        p = umpire("export", "g", "--data-dir", str(ro), "-o", str(out))
        assert p.returncode == 0, p.stderr
        assert len(out.read_bytes().splitlines()) == 10
        assert _snapshot(ro) == before
    finally:
        _writable_again(ro)
    fresh = tmp_path / "fresh"
    assert umpire("import", str(out), "--data-dir", str(fresh)).returncode == 0
    assert verify_game(EventStore(fresh), "g").ok


@pytest.mark.parametrize("user_version, needle", [(2, "older than this umpire"), (99, "newer than this umpire")])
def test_read_only_open_names_a_schema_it_cannot_migrate(tmp_path, user_version, needle):
    import sqlite3

    from service.store import StoreError

    play(tmp_path)
    conn = sqlite3.connect(tmp_path / "umpire.db")
    conn.execute(f"PRAGMA user_version={user_version}")
    conn.close()
    before = _snapshot(tmp_path)
    with pytest.raises(StoreError, match=needle):
        EventStore(tmp_path, read_only=True)
    for cmd in ("verify", "export"):
        assert_clean_error(umpire(cmd, "g", "--data-dir", str(tmp_path)), "schema version", needle)
    assert _snapshot(tmp_path) == before  # nothing migrated


def _ro_mount_prefix(d: Path) -> list[str] | None:
    """As root chmod does not stop writes: run the command in a private mount namespace where ``d``
    is a read-only bind mount (gone when the process exits). None when that is not possible here."""
    import shutil

    if shutil.which("unshare") is None:
        return None
    prefix = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
              'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" && shift && exec "$@"', "sh", str(d)]
    probe = subprocess.run([*prefix, "sh", "-c", f'! touch "{d}/.probe" 2>/dev/null'], capture_output=True)
    return prefix if probe.returncode == 0 and not (d / ".probe").exists() else None


def test_serve_and_import_refuse_a_read_only_data_dir(tmp_path):
    ro = _read_only_copy(tmp_path)
    out = tmp_path / "g.jsonl"
    try:
        prefix: list[str] = []
        if os.geteuid() == 0:
            got = _ro_mount_prefix(ro)
            if got is None:
                pytest.skip("running as root (chmod does not stop root's writes) and no read-only bind mount"
                            " (unshare --mount) is available here; the read_only store itself is tested above")
            prefix = got
        before = _snapshot(ro)

        def run(*args: str) -> subprocess.CompletedProcess:
            env = {k: v for k, v in os.environ.items() if not k.startswith("UMPIRE_")}
            return subprocess.run([*prefix, sys.executable, "-m", "service.cli", *args], cwd=ROOT, env=env,
                                  capture_output=True, text=True, timeout=60)

        p = run("export", "g", "--data-dir", str(ro), "-o", str(out))
        assert p.returncode == 0, p.stderr
        p = run("verify", "g", "--data-dir", str(ro))
        assert p.returncode == 0 and "chain: ok" in p.stdout, p.stderr
        assert_clean_error(run("import", str(out), "--data-dir", str(ro)), "not writable")
        assert_clean_error(run("serve", "--data-dir", str(ro), "--port", "1"), "not writable")
        assert _snapshot(ro) == before
    finally:
        _writable_again(ro)


# -- plug-in command groups ---------------------------------------------------

def test_plugins_add_commands_and_a_broken_one_only_warns(tmp_path):
    (tmp_path / "good_plugin.py").write_text(
        "import click\n"
        "@click.command('hello')\n"
        "def hello():\n"
        "    click.echo('hello from plug-in')\n"
        "COMMANDS = [hello]\n"
    )
    (tmp_path / "broken_plugin.py").write_text("raise RuntimeError('boom at import')\n")
    env = {"PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}", "UMPIRE_CLI_PLUGINS": "good_plugin,broken_plugin,absent_plugin"}
    p = umpire("hello", env=env)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "hello from plug-in"
    warnings = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert warnings == ["umpire: warning: plug-in broken_plugin not loaded: RuntimeError: boom at import"]
    p = umpire("--help", env=env)
    assert p.returncode == 0 and "hello" in p.stdout and "verify" in p.stdout


# -- settings -----------------------------------------------------------------

def test_settings_env_then_options():
    env = {"UMPIRE_DATA_DIR": "/srv/u", "UMPIRE_REDIS_URL": "redis://h:1/0", "UMPIRE_HOST": "0.0.0.0", "UMPIRE_PORT": "9000"}
    assert Settings.from_env(env) == Settings(data_dir="/srv/u", redis_url="redis://h:1/0", host="0.0.0.0", port=9000)
    s = Settings.from_env(env, data_dir="/x", port=8123, host="::1")
    assert (s.data_dir, s.port, s.host, s.redis_url) == ("/x", 8123, "::1", "redis://h:1/0")
    assert Settings.from_env({}) == Settings(data_dir="data", redis_url=None, host="127.0.0.1", port=8000)
    assert Settings.from_env({"UMPIRE_REDIS_URL": ""}).redis_url is None
    with pytest.raises(SettingsError, match="UMPIRE_REDIS_URL"):
        Settings.from_env({"UMPIRE_REDIS_URL": "localhost:6379"})


# -- the private Redis ----------------------------------------------------------

def test_embedded_redis_start_kill_restart_same_url_stop(tmp_path):
    r = EmbeddedRedis(tmp_path / "r")
    url = r.start()
    c = redis.Redis.from_url(url, socket_timeout=2)
    assert c.ping() and c.set("k", "v")
    first = r.pid
    r.kill()
    assert not r.running
    with pytest.raises(redis.ConnectionError):
        c.ping()
    assert r.restart() == url and r.pid != first
    c = redis.Redis.from_url(url, socket_timeout=2)
    assert c.ping() and c.get("k") is None  # no persistence: projections are rebuilt
    pid = r.pid
    r.stop()
    assert not r.running and not Path(f"/proc/{pid}").exists()


def test_embedded_redis_on_a_unix_socket(tmp_path):
    with EmbeddedRedis(tmp_path / "s", unix_socket=True) as r:
        assert r.url.startswith("unix://")
        assert redis.Redis.from_url(r.url).ping()
    assert not r.running


def test_session_redis_fixture_answers_and_is_flushed(redis_client, redis_server, redis_url):
    assert redis_url == redis_server.url
    assert redis_client.dbsize() == 0
    redis_client.set("left-over", 1)


OWNER = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
from service.redis_runtime import EmbeddedRedis
r = EmbeddedRedis(sys.argv[2])
r.start()
print(r.pid, flush=True)
time.sleep(120)
"""


def _gone(pid: int, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().split(")")[-1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_redis_never_outlives_its_owner(tmp_path, sig):
    p = subprocess.Popen([sys.executable, "-c", OWNER, str(ROOT), str(tmp_path / "r")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    pid = int(p.stdout.readline())
    assert Path(f"/proc/{pid}").exists()
    p.send_signal(sig)
    p.wait(timeout=30)
    p.stdout.close()
    p.stderr.close()
    assert _gone(pid), f"redis-server {pid} still running after {sig.name} of its owner"


# -- umpire serve -----------------------------------------------------------------

def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(tmp_path: Path, env: dict | None = None, extra: tuple[str, ...] = ()) -> tuple[subprocess.Popen, int]:
    port = _free_port()
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("UMPIRE_")}
    full_env.update(env or {})
    p = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(port),
                          "--data-dir", str(tmp_path / "data"), *extra],
                         cwd=ROOT, env=full_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return p, port


def _health(port: int, p: subprocess.Popen) -> dict:
    import httpx

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert p.poll() is None, p.stderr.read()
        try:
            r = httpx.get(f"http://127.0.0.1:{port}/health", timeout=2)
            if r.status_code == 200:
                return r.json()
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError("umpire serve did not answer /health")


@pytest.mark.parametrize("workers", [1, 2], ids=["one-process", "two-workers"])
def test_serve_starts_its_own_redis_and_stops_it_on_sigterm(tmp_path, workers):
    p, port = _serve(tmp_path, extra=("--workers", str(workers)))
    try:
        line = ""
        while "private redis-server pid" not in line:
            line = p.stderr.readline()
            assert line, "serve exited before starting Redis"
        redis_pid = int(line.split("pid ")[1].split()[0])
        body = _health(port, p)
        assert body["status"] == "ok" and body["redis"] == "ok"
        assert (tmp_path / "data" / "umpire.db").is_file()
        # serve records where its private Redis listens, so `projections status` finds it without a URL
        # (its URL holds the private Redis's password: the file is the service user's only, the log line
        # shows the URL without it)
        url_file = tmp_path / "data" / "redis.url"
        recorded = url_file.read_text().strip()
        assert recorded.startswith(("redis://", "unix://")) and url_file.stat().st_mode & 0o777 == 0o600
        password = recorded.split("://:", 1)[1].split("@", 1)[0]
        assert password and password not in line and recorded.replace(password, "***") in line
        env = {k: v for k, v in os.environ.items() if not k.startswith("UMPIRE_")}
        st = subprocess.run([sys.executable, "-m", "service.cli", "projections", "status", "--data-dir",
                             str(tmp_path / "data")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
        assert st.returncode == 0 and "0 games, 0 behind" in st.stdout, st.stdout + st.stderr
    finally:
        p.send_signal(signal.SIGTERM)
        p.wait(timeout=30)
        p.stderr.close()
    assert p.returncode in (0, 128 + signal.SIGTERM, -signal.SIGTERM)
    assert _gone(redis_pid), "the private redis-server outlived umpire serve"
    assert not (tmp_path / "data" / "redis.url").exists(), "the record of a stopped Redis is left behind"


def test_serve_uses_an_existing_redis_when_told(tmp_path, redis_server):
    p, port = _serve(tmp_path, env={"UMPIRE_REDIS_URL": redis_server.url})
    try:
        body = _health(port, p)
        assert body["redis"] == "ok"
    finally:
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=30)
    assert "private redis-server" not in err
    assert redis_server.running and redis.Redis.from_url(redis_server.url).ping()
