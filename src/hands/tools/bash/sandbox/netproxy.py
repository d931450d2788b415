"""The sandbox's network proxy: sandboxed commands reach exactly the allowed domains.

A sandboxed command has its own network namespace. When ``sandbox.network.allowedDomains``
is set, the only way out is a unix socket bound into the sandbox, served here on the
host side by a small HTTP proxy: ``CONNECT host:port`` for HTTPS (and any other TCP
protocol a client tunnels), absolute-form ``GET http://host/...`` for plain HTTP. Every
request names its destination host, which is checked against the allowed domains (exact
names and ``*.example.com`` subdomain wildcards; ``deniedDomains`` win) before anything
is resolved. Names are resolved here, on the host, and a name that resolves to a
loopback, private, link-local (cloud metadata), multicast or otherwise non-public
address is refused unless that exact name was listed: a wildcard never opens the local
network. The connection then goes to the address that was checked, so a name cannot
change its answer between the check and the connect. Refused requests get a
``403 Forbidden`` whose body says which setting would allow them.

Lifetime: one proxy per session and domain policy, started on first use, serving on an
event loop in its own thread and stopped when the session closes. A session's commands
share it, background commands keep using it after their call returns, and it can never
outlive the process that started it.
"""

from __future__ import annotations

import contextlib
import ipaddress
import shutil
import socket
import tempfile
import threading
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias
from urllib.parse import urlsplit

import anyio
import anyio.abc
import anyio.lowlevel
import anyio.to_thread

from hands.core.session import Session
from hands.tools.bash._settings import SandboxSettings

MAX_HEAD_BYTES = 64 * 1024
HEAD_TIMEOUT_S = 30.0
CONNECT_TIMEOUT_S = 10.0
RESOLVE_TIMEOUT_S = 15.0
MAX_CONNECTIONS = 256
CHUNK = 65536
START_TIMEOUT_S = 10.0
DRAIN_S = 30.0
"""After one direction of a connection ends, how long the other may still run."""
HOP_BY_HOP = frozenset({"connection", "keep-alive", "proxy-connection", "proxy-authorization",
                        "proxy-authenticate"})  # fmt: skip

IPAddress: TypeAlias = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Awaitable[list[str]]]
"""``(host, port) -> addresses``; the proxy resolves names with this."""

_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


# -- policy -------------------------------------------------------------------------------


def normalize_host(host: str) -> str:
    """Lower case, no trailing dot, no IPv6 brackets; non-ASCII names in IDNA form."""
    host = host.strip().lower().rstrip(".")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not host.isascii():
        with contextlib.suppress(UnicodeError):
            host = host.encode("idna").decode("ascii")
    return host


def _normalize_pattern(pattern: str) -> str | None:
    pattern = pattern.strip()
    if pattern.startswith("*."):
        rest = normalize_host(pattern[2:])
        return f"*.{rest}" if rest and "*" not in rest else None
    host = normalize_host(pattern)
    return host if host and "*" not in host else None


def _matches(pattern: str, host: str) -> bool:
    if pattern.startswith("*."):
        return host.endswith(pattern[1:])
    return host == pattern


@dataclass(frozen=True, kw_only=True, slots=True)
class Verdict:
    """Whether a host may be reached, and whether it was named exactly."""

    allowed: bool
    explicit: bool = False
    """The host itself is listed (not only matched by a wildcard)."""
    reason: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class DomainPolicy:
    """``allowedDomains`` and ``deniedDomains``, normalized."""

    allowed: tuple[str, ...]
    denied: tuple[str, ...] = ()

    @classmethod
    def from_settings(cls, settings: SandboxSettings) -> DomainPolicy:
        """The policy of the ``sandbox.network`` settings (invalid entries are dropped)."""

        def clean(patterns: tuple[str, ...]) -> tuple[str, ...]:
            found = (_normalize_pattern(p) for p in patterns)
            return tuple(dict.fromkeys(p for p in found if p))

        return cls(allowed=clean(settings.allowed_domains), denied=clean(settings.denied_domains))

    def check(self, host: str) -> Verdict:
        """The verdict for ``host`` (already normalized)."""
        for pattern in self.denied:
            if _matches(pattern, host):
                return Verdict(
                    allowed=False,
                    reason=(
                        f'{host} matches "{pattern}" in sandbox.network.deniedDomains. Remove '
                        "that entry from the settings to allow it."
                    ),
                )
        explicit = host in self.allowed
        if explicit or any(_matches(p, host) for p in self.allowed if p.startswith("*.")):
            return Verdict(allowed=True, explicit=explicit)
        parent = host.split(".", 1)[1] if host.count(".") >= 2 else ""
        wildcard = f' (or "*.{parent}" for all of its siblings)' if parent else ""
        return Verdict(
            allowed=False,
            reason=(
                f"{host} is not in sandbox.network.allowedDomains. To allow it, add "
                f'"{host}"{wildcard} to sandbox.network.allowedDomains in the settings.'
            ),
        )


def is_public(address: IPAddress) -> bool:
    """Whether ``address`` is a public unicast address (not loopback, private, metadata...)."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        elif address in _NAT64:
            address = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address.is_global and not address.is_multicast


async def resolve_host(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to on the host side, in resolver order."""
    infos = await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    addresses: list[str] = []
    for _family, _type, _proto, _name, sockaddr in infos:
        address = str(sockaddr[0]).split("%", 1)[0]
        if address not in addresses:
            addresses.append(address)
    return addresses


# -- one connection -----------------------------------------------------------------------


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


def parse_request(head: bytes) -> Request:
    """The destination and upstream head of a proxy request head (ending in CRLF CRLF)."""
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
            "This is the sandbox's network proxy. Send absolute http:// URLs, or use "
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
    extra = "X-Proxy-Error: blocked-by-allowlist\r\n" if blocked else ""
    head = (
        f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\n"
        f"{extra}"
        "Connection: close\r\n\r\n"
    )
    return head.encode() + body


class ProxyHandler:
    """Serves proxy connections, one :meth:`handle` call each, under a :class:`DomainPolicy`."""

    def __init__(
        self,
        policy: DomainPolicy,
        *,
        resolver: Resolver = resolve_host,
        on_blocked: Callable[[Blocked], None] | None = None,
    ) -> None:
        self.policy = policy
        self.resolver = resolver
        self.on_blocked = on_blocked

    async def handle(self, client: anyio.abc.ByteStream) -> None:
        """Read the request, check it, and relay it (or answer with an error)."""
        async with client:
            request: Request | None = None
            try:
                with anyio.fail_after(HEAD_TIMEOUT_S):
                    head, rest = await _read_head(client)
                request = parse_request(head)
                upstream = await self._open(request)
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
                await _relay(client, upstream, end_with_upstream=not request.tunnel)

    async def _open(self, request: Request) -> anyio.abc.SocketStream:
        verdict = self.policy.check(request.host)
        if not verdict.allowed:
            raise ProxyError(403, f"Blocked by the sandbox: {verdict.reason}", blocked=True)
        try:
            with anyio.fail_after(RESOLVE_TIMEOUT_S):
                addresses = await self.resolver(request.host, request.port)
        except TimeoutError as exc:
            raise ProxyError(504, f"Resolving {request.host} timed out.") from exc
        except (OSError, UnicodeError, ValueError) as exc:
            raise ProxyError(502, f"Cannot resolve {request.host}: {exc}") from exc
        usable: list[str] = []
        refused: list[str] = []
        for address in addresses:
            try:
                ip = ipaddress.ip_address(address)
            except ValueError:
                continue
            (usable if verdict.explicit or is_public(ip) else refused).append(address)
        if not usable:
            if refused:
                raise ProxyError(
                    403,
                    f"Blocked by the sandbox: {request.host} resolves to {', '.join(refused)}, "
                    "a loopback, private, link-local or otherwise non-public address. Such "
                    "addresses are reachable only for a name listed exactly (not through a "
                    f'wildcard) in sandbox.network.allowedDomains: add "{request.host}" to '
                    "allow it.",
                    blocked=True,
                )
            raise ProxyError(502, f"Cannot resolve {request.host}: no addresses.")
        failures: list[str] = []
        for address in usable:
            try:
                with anyio.fail_after(CONNECT_TIMEOUT_S):
                    return await anyio.connect_tcp(address, request.port)
            except TimeoutError:
                failures.append(f"{address}: timed out")
            except OSError as exc:
                failures.append(f"{address}: {exc.strerror or exc}")
        raise ProxyError(
            502, f"Cannot connect to {request.host}:{request.port} ({'; '.join(failures)})."
        )


async def _read_head(stream: anyio.abc.ByteReceiveStream) -> tuple[bytes, bytes]:
    buffer = bytearray()
    while True:
        end = buffer.find(b"\r\n\r\n")
        if end >= 0:
            return bytes(buffer[: end + 4]), bytes(buffer[end + 4 :])
        if len(buffer) > MAX_HEAD_BYTES:
            raise ProxyError(400, "Request head too large.")
        buffer += await stream.receive(CHUNK)


async def _relay(
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


# -- the server ---------------------------------------------------------------------------


class NetworkProxy:
    """A proxy for one domain policy, serving a unix socket from its own thread."""

    def __init__(self, policy: DomainPolicy, *, resolver: Resolver = resolve_host) -> None:
        self.policy = policy
        self._handler = ProxyHandler(policy, resolver=resolver, on_blocked=self._record)
        self._directory: Path | None = None
        self._cleanup: Callable[[], object] | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stop = threading.Event()
        self._failure: BaseException | None = None
        self._lock = threading.Lock()
        self._blocked: deque[Blocked] = deque(maxlen=100)
        self._blocked_total = 0

    @property
    def socket_path(self) -> Path:
        """The unix socket the proxy listens on."""
        if self._directory is None:
            raise RuntimeError("the proxy is not running")
        return self._directory / "proxy.sock"

    @property
    def running(self) -> bool:
        """Whether the serving thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Start serving; returns once the socket accepts connections."""
        if self._thread is not None:
            return
        # short (unix socket paths are limited to about 100 bytes) and private (0700)
        self._directory = Path(tempfile.mkdtemp(prefix="hands-net-"))
        # removed at interpreter exit too, should the session never be closed
        self._cleanup = weakref.finalize(self, shutil.rmtree, self._directory, True)
        self._thread = threading.Thread(
            target=self._run, name=f"hands-netproxy-{self._directory.name}", daemon=True
        )
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT_S) or self._failure is not None:
            failure = self._failure
            self.close()
            raise RuntimeError(f"the sandbox network proxy did not start: {failure}")

    def close(self) -> None:
        """Stop serving, drop every open connection, remove the socket (blocking)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(START_TIMEOUT_S)
        if self._cleanup is not None:
            self._cleanup()

    async def aclose(self) -> None:
        """:meth:`close`, without blocking the event loop."""
        await anyio.to_thread.run_sync(self.close)

    def blocked_since(self, mark: int) -> list[Blocked]:
        """Requests refused since :meth:`blocked_mark` returned ``mark``."""
        with self._lock:
            new = self._blocked_total - mark
            return list(self._blocked)[-new:] if new > 0 else []

    def blocked_mark(self) -> int:
        """A position in the log of refused requests."""
        with self._lock:
            return self._blocked_total

    def _record(self, blocked: Blocked) -> None:
        with self._lock:
            self._blocked.append(blocked)
            self._blocked_total += 1

    def _run(self) -> None:
        try:
            anyio.run(self._serve)
        except BaseException as exc:
            self._failure = exc
        finally:
            self._ready.set()

    async def _serve(self) -> None:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(str(self.socket_path))
            self.socket_path.chmod(0o600)
            listener.listen(128)
            listener.setblocking(False)
        except BaseException:
            listener.close()
            raise
        limit = anyio.Semaphore(MAX_CONNECTIONS)
        with listener:
            async with anyio.create_task_group() as tg:

                async def handle(client: UnixStream) -> None:
                    try:
                        await self._handler.handle(client)
                    except Exception:
                        await client.aclose()
                    finally:
                        limit.release()

                async def stop_when_asked() -> None:
                    await anyio.to_thread.run_sync(self._stop.wait)
                    tg.cancel_scope.cancel()

                tg.start_soon(stop_when_asked)
                self._ready.set()
                while True:
                    await limit.acquire()
                    try:
                        await anyio.wait_readable(listener)
                        conn, _ = listener.accept()
                    except (BlockingIOError, InterruptedError):
                        limit.release()
                        continue
                    except OSError:  # out of fds and the like: back off, keep serving
                        limit.release()
                        await anyio.sleep(0.05)
                        continue
                    except BaseException:
                        limit.release()
                        raise
                    tg.start_soon(handle, UnixStream(conn))


class UnixStream(anyio.abc.ByteStream):
    """A byte stream over a connected unix socket.

    anyio's own unix streams wait on a future that a cancelled read can leave behind for
    the event loop to complete (logging ``InvalidStateError``); :func:`anyio.wait_readable`
    has no such race.
    """

    def __init__(self, sock: socket.socket) -> None:
        sock.setblocking(False)
        self._sock = sock

    async def receive(self, max_bytes: int = CHUNK) -> bytes:
        await anyio.lowlevel.checkpoint()
        while True:
            try:
                data = self._sock.recv(max_bytes)
            except (BlockingIOError, InterruptedError):
                await anyio.wait_readable(self._sock)
                continue
            except OSError as exc:
                raise anyio.BrokenResourceError from exc
            if not data:
                raise anyio.EndOfStream
            return data

    async def send(self, item: bytes) -> None:
        await anyio.lowlevel.checkpoint()
        view = memoryview(item)
        while view:
            try:
                sent = self._sock.send(view)
            except (BlockingIOError, InterruptedError):
                await anyio.wait_writable(self._sock)
                continue
            except OSError as exc:
                raise anyio.BrokenResourceError from exc
            view = view[sent:]

    async def send_eof(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_WR)

    async def aclose(self) -> None:
        self._sock.close()
        await anyio.lowlevel.checkpoint()


class NetworkProxies:
    """The session's proxies, one per domain policy. Get it with :meth:`for_session`."""

    def __init__(self) -> None:
        self._proxies: dict[DomainPolicy, NetworkProxy] = {}
        self._lock = threading.Lock()
        self._session_bound = False

    @classmethod
    def for_session(cls, session: Session) -> NetworkProxies:
        """The session's registry; the first use arranges for the proxies to stop with it."""
        proxies = session.service(cls)
        if not proxies._session_bound:
            proxies._session_bound = True
            session.add_cleanup(proxies.aclose)
        return proxies

    def get(self, policy: DomainPolicy) -> NetworkProxy:
        """The running proxy for ``policy``, started on first use (blocks briefly)."""
        with self._lock:
            proxy = self._proxies.get(policy)
            if proxy is not None:
                if proxy.running:
                    return proxy
                proxy.close()
            proxy = NetworkProxy(policy)
            proxy.start()
            self._proxies[policy] = proxy
            return proxy

    async def aclose(self) -> None:
        """Stop every proxy (session end)."""
        with self._lock:
            proxies = list(self._proxies.values())
            self._proxies.clear()
        for proxy in proxies:
            await proxy.aclose()
