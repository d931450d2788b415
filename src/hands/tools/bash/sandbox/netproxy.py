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
import weakref
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import anyio
import anyio.abc
import anyio.lowlevel
import anyio.to_thread

from hands.core.session import Session
from hands.net.address import is_public
from hands.tools.bash._settings import SandboxSettings
from hands.tools.http_proxy import (
    CHUNK,
    Blocked,
    ProxyError,
    Request,
    connect_first,
    normalize_host,
)
from hands.tools.http_proxy import ProxyHandler as RelayHandler

RESOLVE_TIMEOUT_S = 15.0
MAX_CONNECTIONS = 256
START_TIMEOUT_S = 10.0

Resolver = Callable[[str, int], Awaitable[list[str]]]
"""``(host, port) -> addresses``; the proxy resolves names with this."""

# -- policy -------------------------------------------------------------------------------


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


class ProxyHandler(RelayHandler):
    """Serves proxy connections under a :class:`DomainPolicy`."""

    intro = "This is the sandbox's network proxy."

    def __init__(
        self,
        policy: DomainPolicy,
        *,
        resolver: Resolver = resolve_host,
        on_blocked: Callable[[Blocked], None] | None = None,
    ) -> None:
        super().__init__(on_blocked=on_blocked)
        self.policy = policy
        self.resolver = resolver

    async def open(self, request: Request) -> anyio.abc.SocketStream:
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
        return await connect_first(request.host, request.port, usable)


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
