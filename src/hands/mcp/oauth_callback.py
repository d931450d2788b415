"""The loopback listener that receives the authorization server's redirect (RFC 8252).

:class:`CallbackListener` listens on ``localhost`` (127.0.0.1, and ::1 when there is one)
for one ``GET /callback?code=...&state=...``, answers the browser with a short page and
hands the parameters to whoever waits (each redirect to the next wait: the flow may
authorize twice). Any other path gets 404; an ``error`` parameter ends the wait with
:class:`AuthorizationDenied`.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from types import TracebackType
from urllib.parse import parse_qs, urlsplit

CALLBACK_PATH = "/callback"
_HEAD_LIMIT = 16_384
_DONE_PAGE = (
    "<!doctype html><title>hands</title><p>hands received the authorization; "
    "you can close this tab.</p>"
)
_DENIED_PAGE = "<!doctype html><title>hands</title><p>The authorization was not granted.</p>"


@dataclass(frozen=True, kw_only=True, slots=True)
class CallbackResult:
    """The parameters of the redirect."""

    code: str
    state: str | None = None
    iss: str | None = None


class AuthorizationDenied(Exception):
    """The authorization server redirected back with an ``error``."""


class CallbackListener:
    """One redirect, received on a loopback port (0: any free port)."""

    def __init__(self, port: int = 0) -> None:
        self.port = port
        self._servers: list[asyncio.Server] = []
        self._results: asyncio.Queue[CallbackResult | AuthorizationDenied] = asyncio.Queue()

    @property
    def redirect_uri(self) -> str:
        """The URI registered with the authorization server and sent with the request."""
        return f"http://localhost:{self.port}{CALLBACK_PATH}"

    async def __aenter__(self) -> CallbackListener:
        first = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        self._servers.append(first)
        self.port = int(first.sockets[0].getsockname()[1])
        with contextlib.suppress(OSError):  # no IPv6 loopback here
            self._servers.append(await asyncio.start_server(self._serve, "::1", self.port))
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for server in self._servers:
            server.close()
        for server in self._servers:
            with contextlib.suppress(Exception):
                await server.wait_closed()
        self._servers.clear()

    async def wait(self) -> CallbackResult:
        """The next redirect's parameters, once the browser arrives."""
        got = await self._results.get()
        if isinstance(got, AuthorizationDenied):
            raise got
        return got

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, OSError):
            writer.close()
            return
        status, page = self._answer(head[:_HEAD_LIMIT].decode("latin-1"))
        body = page.encode("utf-8")
        writer.write(
            f"HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode("latin-1")
            + body
        )
        with contextlib.suppress(OSError):
            await writer.drain()
        writer.close()

    def _answer(self, head: str) -> tuple[str, str]:
        request_line = head.split("\r\n", 1)[0].split(" ")
        if len(request_line) < 2 or request_line[0] != "GET":
            return "405 Method Not Allowed", ""
        target = urlsplit(request_line[1])
        if target.path != CALLBACK_PATH:
            return "404 Not Found", ""
        query = {k: v[0] for k, v in parse_qs(target.query).items()}
        if "error" in query:
            detail = query.get("error_description", "")
            self._results.put_nowait(
                AuthorizationDenied(f"{query['error']}{': ' + detail if detail else ''}")
            )
            return "200 OK", _DENIED_PAGE
        code = query.get("code")
        if not code:
            return "400 Bad Request", _DENIED_PAGE
        self._results.put_nowait(
            CallbackResult(code=code, state=query.get("state"), iss=query.get("iss"))
        )
        return "200 OK", _DONE_PAGE
