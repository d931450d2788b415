"""An HTTP proxy's wire: one client connection read, checked by its owner, and relayed.

A client names its destination in the request: ``CONNECT host:port`` for HTTPS,
WebSockets and any other TCP protocol it tunnels, absolute-form ``GET http://host/...``
for plain HTTP. :class:`ProxyHandler` reads that request head, asks its subclass's
:meth:`ProxyHandler.open` for a connection to the destination (the subclass decides
whether the destination may be reached, resolves it once and connects to the address it
checked, so a name cannot change its answer between the check and the connect), and
then relays bytes both ways without buffering. A refused request is answered with an
error status whose body says why. The Bash sandbox's proxy and the browser's proxy are
both built on it.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

import anyio
import anyio.abc

from hands.net.hosts import ascii_host

MAX_HEAD_BYTES = 64 * 1024
HEAD_TIMEOUT_S = 30.0
CONNECT_TIMEOUT_S = 10.0
CHUNK = 65536
DRAIN_S = 30.0
"""After one direction of a connection ends, how long the other may still run."""
BLOCKED_HEADER, BLOCKED_VALUE = "X-Proxy-Error", "blocked-by-allowlist"
"""The header of an answer to a refused request."""
HOP_BY_HOP = frozenset({"connection", "keep-alive", "proxy-connection", "proxy-authorization",
                        "proxy-authenticate"})  # fmt: skip


def normalize_host(host: str) -> str:
    """Lower case, no trailing dot, no IPv6 brackets; non-ASCII names in IDNA form."""
    found = ascii_host(host)
    if found is not None:
        return found
    return host.strip().lower().rstrip(".").removeprefix("[").removesuffix("]")


class ProxyError(Exception):
    """A request the proxy answers with an error status instead of forwarding."""

    def __init__(self, status: int, message: str, *, blocked: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.blocked = blocked


@dataclass(frozen=True, kw_only=True, slots=True)
class Request:
    """A parsed proxy request."""

    method: str
    host: str
    port: int
    tunnel: bool
    """``CONNECT``: relay raw bytes after answering 200."""
    head: bytes = b""
    """For plain HTTP: the request head to send upstream (origin-form, Connection: close)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Blocked:
    """A request the proxy refused."""

    host: str
    port: int
    reason: str
    at: float


_REASONS = {400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway", 504: "Gateway Timeout"}


def parse_request(head: bytes, *, intro: str = "This is an HTTP proxy.") -> Request:
    """The destination and upstream head of a proxy request head (ending in CRLF CRLF).

    ``intro`` opens the error for a request that is not a proxy request.
    """
    text = head.decode("latin-1")
    lines = text.split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/"):
        raise ProxyError(400, "Malformed request line.")
    method, target, version = parts
    if method.upper() == "CONNECT":
        host, port = _authority(target, default_port=None)
        return Request(method="CONNECT", host=host, port=port, tunnel=True)
    url = urlsplit(target)
    if url.scheme.lower() != "http" or not url.netloc:
        raise ProxyError(
            400,
            f"{intro} Send absolute http:// URLs, or use "
            "CONNECT (HTTPS_PROXY) for https:// and other protocols.",
        )
    host, port = _authority(url.netloc.rpartition("@")[2], default_port=80)
    path = url.path or "/"
    if url.query:
        path += "?" + url.query
    headers = [line for line in lines[1:] if line]
    kept = [h for h in headers if h.split(":", 1)[0].strip().lower() not in HOP_BY_HOP]
    if not any(h.split(":", 1)[0].strip().lower() == "host" for h in kept):
        kept.insert(0, f"Host: {url.netloc.rpartition('@')[2]}")
    upstream = "\r\n".join([f"{method} {path} {version}", *kept, "Connection: close", "", ""])
    return Request(
        method=method, host=host, port=port, tunnel=False, head=upstream.encode("latin-1")
    )


def _authority(authority: str, *, default_port: int | None) -> tuple[str, int]:
    if authority.startswith("["):
        host, _, rest = authority[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
    elif authority.count(":") == 1:
        host, _, port_text = authority.partition(":")
    else:
        host, port_text = authority, ""
    if not port_text:
        if default_port is None:
            raise ProxyError(400, "CONNECT needs host:port.")
        port = default_port
    elif port_text.isdigit() and 0 < int(port_text) < 65536:
        port = int(port_text)
    else:
        raise ProxyError(400, f"Bad port in {authority!r}.")
    host = normalize_host(host)
    if not host or any(c in host for c in "/\\@ \t"):
        raise ProxyError(400, f"Bad host in {authority!r}.")
    return host, port


def error_response(status: int, message: str, *, blocked: bool = False) -> bytes:
    """A complete ``Connection: close`` response with a plain-text body."""
    body = (message.rstrip("\n") + "\n").encode()
    extra = f"{BLOCKED_HEADER}: {BLOCKED_VALUE}\r\n" if blocked else ""
    head = (
        f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\n"
        f"{extra}"
        "Connection: close\r\n\r\n"
    )
    return head.encode() + body


class ProxyHandler:
    """Serves proxy connections, one :meth:`handle` call each; :meth:`open` decides."""

    intro = "This is an HTTP proxy."
    """Opens the error for a request that is not a proxy request."""

    def __init__(self, *, on_blocked: Callable[[Blocked], None] | None = None) -> None:
        self.on_blocked = on_blocked

    async def open(self, request: Request) -> anyio.abc.SocketStream:
        """A connection to the request's destination; raises ProxyError to refuse it."""
        raise NotImplementedError

    async def handle(self, client: anyio.abc.ByteStream) -> None:
        """Read the request, check it, and relay it (or answer with an error)."""
        async with client:
            request: Request | None = None
            try:
                with anyio.fail_after(HEAD_TIMEOUT_S):
                    head, rest = await read_head(client)
                request = parse_request(head, intro=self.intro)
                upstream = await self.open(request)
            except ProxyError as exc:
                if exc.blocked and request is not None and self.on_blocked is not None:
                    self.on_blocked(
                        Blocked(
                            host=request.host,
                            port=request.port,
                            reason=exc.message,
                            at=time.monotonic(),
                        )
                    )
                with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
                    await client.send(error_response(exc.status, exc.message, blocked=exc.blocked))
                return
            except (TimeoutError, anyio.EndOfStream, anyio.BrokenResourceError, OSError):
                return
            async with upstream:
                try:
                    if request.tunnel:
                        await client.send(b"HTTP/1.1 200 Connection Established\r\n\r\n")
                    else:
                        await upstream.send(request.head)
                    if rest:
                        await upstream.send(rest)
                except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                    return
                await relay(client, upstream, end_with_upstream=not request.tunnel)


async def read_head(stream: anyio.abc.ByteReceiveStream) -> tuple[bytes, bytes]:
    """The request head (through CRLF CRLF) and whatever bytes came after it."""
    buffer = bytearray()
    while True:
        end = buffer.find(b"\r\n\r\n")
        if end >= 0:
            return bytes(buffer[: end + 4]), bytes(buffer[end + 4 :])
        if len(buffer) > MAX_HEAD_BYTES:
            raise ProxyError(400, "Request head too large.")
        buffer += await stream.receive(CHUNK)


async def relay(
    client: anyio.abc.ByteStream, upstream: anyio.abc.ByteStream, *, end_with_upstream: bool
) -> None:
    """Copy both ways; half-close on end of stream. Plain HTTP ends with the response."""
    async with anyio.create_task_group() as tg:

        async def copy(src: anyio.abc.ByteStream, dst: anyio.abc.ByteStream, last: bool) -> None:
            try:
                async for chunk in src:
                    await dst.send(chunk)
                with contextlib.suppress(Exception):
                    await dst.send_eof()
            except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                tg.cancel_scope.cancel()
                return
            if last:
                tg.cancel_scope.cancel()
            else:
                # one side is done: the other gets a while to finish, not forever
                drain = anyio.current_time() + DRAIN_S
                tg.cancel_scope.deadline = min(tg.cancel_scope.deadline, drain)

        tg.start_soon(copy, client, upstream, False)
        tg.start_soon(copy, upstream, client, end_with_upstream)


async def connect_first(host: str, port: int, addresses: Sequence[str]) -> anyio.abc.SocketStream:
    """A connection to the first of the checked ``addresses`` that answers."""
    failures: list[str] = []
    for address in addresses:
        try:
            with anyio.fail_after(CONNECT_TIMEOUT_S):
                return await anyio.connect_tcp(address, port)
        except TimeoutError:
            failures.append(f"{address}: timed out")
        except OSError as exc:
            failures.append(f"{address}: {exc.strerror or exc}")
    raise ProxyError(502, f"Cannot connect to {host}:{port} ({'; '.join(failures)}).")
