"""A tiny HTTP/1.1 server on 127.0.0.1 that replays scripted responses, one per request.

Each request takes the next :class:`Reply` from the queue. A reply is a status, headers and
a body made of steps: ``bytes`` written as one HTTP chunk (so SSE events can be split
anywhere, even inside a UTF-8 character), :class:`Wait` to block until a test opens a gate,
and :class:`Cut` to drop the connection without finishing the chunked body.
"""

from __future__ import annotations

import json
import socket
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol, TypeVar


class Closable(Protocol):
    async def aclose(self) -> None: ...


C = TypeVar("C", bound=Closable)


@dataclass(frozen=True, kw_only=True)
class Wait:
    """Block the response until ``gate`` is set (or ``timeout`` passes; recorded)."""

    gate: threading.Event
    timeout: float = 5.0


@dataclass(frozen=True, kw_only=True)
class Cut:
    """Close the connection abruptly, leaving the chunked body unfinished."""


Step = bytes | Wait | Cut


@dataclass(frozen=True, kw_only=True)
class Reply:
    """One scripted HTTP response."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=lambda: dict[str, str]())
    body: Sequence[Step] = ()


@dataclass(frozen=True, kw_only=True)
class Recorded:
    """One request the server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    peer: str = ""
    """The client's ``host:port``: the same for requests sent on one connection."""
    raw: bytes = b""
    """The body as sent."""


def sse(event: str | None, data: Any) -> bytes:
    """One SSE event; ``data`` is JSON-encoded unless it is already a string."""
    payload = data if isinstance(data, str) else json.dumps(data)
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {payload}\n\n".encode()


def json_reply(status: int, body: Any, headers: dict[str, str] | None = None) -> Reply:
    """A plain JSON response (errors before any streaming)."""
    return Reply(
        status=status,
        headers={"content-type": "application/json", **(headers or {})},
        body=(json.dumps(body).encode(),),
    )


def sse_reply(*steps: Step) -> Reply:
    """A ``text/event-stream`` response."""
    return Reply(headers={"content-type": "text/event-stream"}, body=steps)


def split_every(data: bytes, size: int) -> list[bytes]:
    """Cut ``data`` into ``size``-byte pieces, ignoring line and character boundaries."""
    return [data[i : i + size] for i in range(0, len(data), size)]


class LoopbackServer:
    """Serves queued replies; records every request; counts them."""

    def __init__(self) -> None:
        self.replies: deque[Reply] = deque()
        self.requests: list[Recorded] = []
        self.timed_out: list[threading.Event] = []
        self.clients: list[Closable] = []
        self.route: Callable[[Any], str | None] | None = None
        """Names the queue of :attr:`routed` a request's body takes its reply from
        (``None``, or a name with nothing queued: the main queue)."""
        self.routed: dict[str, deque[Reply]] = {}
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # a kept-alive connection's answers go at once

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                raw = self.rfile.read(length) if length else b""
                with outer._lock:
                    outer.requests.append(
                        Recorded(
                            method="POST",
                            path=self.path,
                            headers={k.lower(): v for k, v in self.headers.items()},
                            body=json.loads(raw) if raw else None,
                            peer=":".join(str(part) for part in self.client_address[:2]),
                            raw=raw,
                        )
                    )
                    key = outer.route(outer.requests[-1].body) if outer.route else None
                    queue = outer.routed.get(key or "") or outer.replies
                    reply = queue.popleft() if queue else None
                if reply is None:
                    reply = json_reply(
                        500, {"error": {"type": "api_error", "message": "no reply queued"}}
                    )
                self._send(reply)

            def _send(self, reply: Reply) -> None:
                self.send_response(reply.status)
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                self.send_header("transfer-encoding", "chunked")
                self.end_headers()
                for step in reply.body:
                    if isinstance(step, Wait):
                        if not step.gate.wait(step.timeout):
                            outer.timed_out.append(step.gate)
                    elif isinstance(step, Cut):
                        self.wfile.flush()
                        self.connection.shutdown(socket.SHUT_RDWR)
                        self.close_connection = True
                        return
                    elif step:
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(step), step))
                        self.wfile.flush()
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client hanging up mid-stream is what some tests do on purpose

        self._server = Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), daemon=True
        )

    @property
    def url(self) -> str:
        """The server's base URL."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def adopt(self, client: C) -> C:
        """Remember a model whose connections must be closed with the server."""
        self.clients.append(client)
        return client

    def queue(self, *replies: Reply) -> None:
        """Add replies, served in order."""
        with self._lock:
            self.replies.extend(replies)

    def queue_for(self, key: str, *replies: Reply) -> None:
        """Add replies for the requests :attr:`route` names ``key``, served in order."""
        with self._lock:
            self.routed.setdefault(key, deque()).extend(replies)

    def start(self) -> None:
        """Serve in a background thread."""
        self._thread.start()

    def stop(self) -> None:
        """Shut down and free the port."""
        self._server.shutdown()
        self._server.server_close()


@contextmanager
def serving(monkeypatch: Any) -> Iterator[LoopbackServer]:
    """A started server, reached without a proxy (``monkeypatch`` clears the variables)."""
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    srv = LoopbackServer()
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()
