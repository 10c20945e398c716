"""``umpire serve --workers N``: the workers share one listening socket that the
parent binds; it must be marked IPPROTO_TCP so that asyncio sets TCP_NODELAY on
every accepted connection (uvicorn binds it with proto 0, Kludex/uvicorn#3149,
and keep-alive responses then wait for the client's delayed ACK)."""
from __future__ import annotations

import asyncio
import socket

import uvicorn

from service.cli import tcp_listener


#: How long the probe waits for the server to accept its connection (it returns as soon as it has).
PROBE_SECONDS = 60.0


def _accepted_nodelay(sock: socket.socket) -> int:
    """TCP_NODELAY of a connection accepted by an asyncio server on ``sock``."""
    seen: dict[str, int] = {}

    class Probe(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            s = transport.get_extra_info("socket")
            seen["nodelay"] = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
            transport.close()

    async def main() -> None:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(Probe, sock=sock)
        port = sock.getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        deadline = loop.time() + PROBE_SECONDS  # generous: a loaded 2-core machine may take seconds to accept
        while "nodelay" not in seen and loop.time() < deadline:
            await asyncio.sleep(0.01)
        writer.close()
        server.close()
        await server.wait_closed()

    asyncio.run(main())
    assert "nodelay" in seen, f"the server accepted no connection within {PROBE_SECONDS} s"
    return seen["nodelay"]


def test_the_workers_listener_gives_connections_tcp_nodelay():
    config = uvicorn.Config("service.cli:worker_app", factory=True, workers=2, host="127.0.0.1", port=0)
    sock = tcp_listener(config.bind_socket())
    assert sock.proto == socket.IPPROTO_TCP and sock.get_inheritable()
    assert _accepted_nodelay(sock) != 0


def test_a_listener_that_is_already_tcp_is_kept():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    s.bind(("127.0.0.1", 0))
    assert tcp_listener(s) is s
    s.close()
