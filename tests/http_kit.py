"""A quiet loopback HTTP server served from a thread, for tests that need one."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TypeVar

S = TypeVar("S", bound=ThreadingHTTPServer)


class QuietHandler(BaseHTTPRequestHandler):
    """A handler that logs nothing and answers with one call."""

    def reply(self, status: int, body: bytes, content_type: str | None = None) -> None:
        self.send_response(status)
        if content_type is not None:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def serving(server: S) -> Iterator[S]:
    """Serve ``server`` from a daemon thread until the block ends, then close it."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
