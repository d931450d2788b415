"""An httpx transport that connects only to addresses checked beforehand.

The fetch resolves a host once, checks the addresses, and pins the one to use; the
transport's network backend then connects to that address and never looks the name up
again, so a second DNS answer cannot swap it. TLS still verifies the certificate of, and
sends SNI and ``Host`` for, the host name itself.
"""

from __future__ import annotations

import functools
import ssl
from collections.abc import Iterable
from typing import cast

import httpcore
import httpx

SocketOption = (
    tuple[int, int, int] | tuple[int, int, bytes | bytearray] | tuple[int, int, None, int]
)


class PinnedBackend(httpcore.AsyncNetworkBackend):
    """Connects a host name to the address pinned for it; an unpinned host is refused."""

    def __init__(self) -> None:
        self._inner = cast(httpcore.AsyncNetworkBackend, httpcore.AnyIOBackend())
        self.pins: dict[str, str] = {}

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,  # noqa: ASYNC109 - httpcore's signature
        local_address: str | None = None,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        address = self.pins.get(host.lower())
        if address is None:
            raise httpcore.ConnectError(f"{host} has no checked address")
        return await self._inner.connect_tcp(
            address,
            port,
            timeout=timeout,
            local_address=local_address,
            socket_options=socket_options,
        )

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,  # noqa: ASYNC109 - httpcore's signature
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.ConnectError("unix sockets are not fetched")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class PinnedTransport(httpx.AsyncHTTPTransport):
    """httpx's transport over a :class:`PinnedBackend`, without proxies."""

    def __init__(self, backend: PinnedBackend) -> None:
        context = _ssl_context()
        super().__init__(verify=context, trust_env=False)
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=context,
            max_connections=4,
            max_keepalive_connections=2,
            network_backend=backend,
        )


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    """The verifying TLS context, made once: loading the CA store takes milliseconds."""
    return httpx.create_ssl_context(trust_env=False)
