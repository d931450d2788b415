"""The browser's network proxy: every connection checked when it is made, to the address checked.

The session's browser context sends all its traffic here (Playwright also routes loopback
through a context's proxy): page loads, redirect hops, subresources, iframes, popups and
WebSockets. Each connection names its host; a ``WebFetch(domain:…)`` deny rule refuses
it, and the host is resolved once, here, and refused when an address is loopback,
private, link-local or otherwise non-public and the user did not open that exact host.
The connection then goes to the address that was checked, so a name that answers
differently on a second lookup (DNS rebinding) reaches nothing it was not checked for.
A refusal is noted in the events of the call that caused it.

The proxy serves a loopback TCP port on the session's event loop, as a task beside
Playwright's own; it stops with the browser.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

import anyio
import anyio.abc

from hands.core.outcome import echo
from hands.net.resolve import ResolveError, resolve
from hands.tools.browser._guard import addresses_refusal
from hands.tools.browser._navigation import decide_url, is_opened
from hands.tools.http_proxy import Blocked, ProxyError, ProxyHandler, Request, connect_first

if TYPE_CHECKING:
    from hands.tools.browser._contract import BrowserState, Resolver, StopProxy

RESOLVE_TIMEOUT_S = 15.0


class BrowserProxy(ProxyHandler):
    """Checks each of the browser's connections against the running call's rules."""

    intro = "This is the browser's network proxy."

    def __init__(self, browser: BrowserState, *, resolver: Resolver = resolve) -> None:
        super().__init__(on_blocked=self._note)
        self.browser = browser
        self.resolver = resolver

    def _note(self, blocked: Blocked) -> None:
        where = echo(f"{blocked.host}:{blocked.port}", 120)
        self.browser.events.note(f"Blocked a connection to {where}: {blocked.reason}")

    async def open(self, request: Request) -> anyio.abc.SocketStream:
        ctx = self.browser.ctx
        host, port = request.host, request.port
        if ctx is None:
            raise ProxyError(403, "No browser call is running.", blocked=True)
        if await decide_url(f"http://{host}/", ctx) == "deny":
            raise ProxyError(403, f"a permission rule denies {host}", blocked=True)
        try:
            with anyio.fail_after(RESOLVE_TIMEOUT_S):
                addresses = await self.resolver(host, port)
        except TimeoutError as exc:
            raise ProxyError(504, f"Resolving {host} timed out.") from exc
        except ResolveError as exc:
            raise ProxyError(502, str(exc)) from exc
        if not is_opened(host, ctx):
            refused = addresses_refusal(host, addresses)
            if refused is not None:
                raise ProxyError(403, refused, blocked=True)
        return await connect_first(host, port, [str(a) for a in addresses])


async def serve_proxy(handler: ProxyHandler) -> tuple[int, StopProxy]:
    """Serve ``handler`` on a loopback port; returns the port and how to stop serving."""
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)
    port = int(listener.extra(anyio.abc.SocketAttribute.local_port))

    async def one(client: anyio.abc.SocketStream) -> None:
        try:
            await handler.handle(client)
        except Exception:  # one broken connection must not stop the others
            await client.aclose()

    async def run() -> None:
        async with listener:
            await listener.serve(one)

    task = asyncio.get_running_loop().create_task(run())

    async def stop() -> None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task

    return port, stop
