"""Navigation safety: which URLs the browser may open, and every request checked on its way.

The browser follows WebFetch's network rules. ``Browser_navigate`` asks per domain and
obeys ``WebFetch(domain:…)`` rules (:mod:`hands.tools.browser._navigation`); private, loopback
and metadata addresses are refused unless the user opened that exact host (an exact
domain allow rule, or ``sandbox.network.allowedDomains``); ``file://`` opens only inside
the working directories. Each request the page makes passes :class:`RequestGuard`: a deny
rule or a refused address blocks it, and a top-level navigation to a host no call was
allowed to open (a click on an outside link) is stopped and reported, so the model asks
for it with a navigate call. Redirect hops are checked the same way before Chromium
requests them (:mod:`hands.tools.browser._redirects`), and every connection the browser
makes goes through the session's proxy (:mod:`hands.tools.browser._proxy`), which
resolves each name once and connects only to the address it checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit
from urllib.request import url2pathname

from hands.core.outcome import echo
from hands.net.address import Address, address_problem
from hands.net.resolve import ResolveError, resolve
from hands.tools.browser._navigation import NavigationRules, decide_url, is_opened

if TYPE_CHECKING:
    from playwright.async_api import Request, Route

    from hands.core.context import ToolContext
    from hands.tools.browser._contract import BrowserState

_PASS_SCHEMES = frozenset({"data", "blob", "about", "chrome-error"})


async def address_refusal(host: str, port: int, ctx: ToolContext) -> str | None:
    """Why ``host`` may not be reached (a non-public address it was not opened for)."""
    if is_opened(host, ctx):
        return None
    try:
        addresses = await resolve(host, port)
    except ResolveError:
        return None  # the browser's own lookup fails the same way, with its own error
    return addresses_refusal(host, addresses)


def addresses_refusal(host: str, addresses: Sequence[Address]) -> str | None:
    """Why ``host``, resolved to ``addresses``, may not be reached; None when it may."""
    for address in addresses:
        problem = address_problem(address)
        if problem is not None:
            return (
                f"{host} resolves to {address}, {problem}. Such addresses are reached only when "
                f"the user allows this exact host (a domain:{host} allow rule for WebFetch or "
                "the browser, or sandbox.network.allowedDomains)."
            )
    return None


class RequestGuard:
    """Checks each request of the session's pages; a refused one is aborted and noted."""

    def __init__(self, browser: BrowserState) -> None:
        self.browser = browser
        self._seen: ToolContext | None = None
        self._hosts: dict[tuple[str, bool], str | None] = {}

    async def handle(self, route: Route) -> None:
        """Playwright's route handler: continue the request, or abort it with a note."""
        try:
            problem = await self.problem(route.request)
        except Exception as exc:  # fail closed: a check that broke lets nothing through
            problem = f"the request could not be checked ({exc})"
        try:
            if problem is None:
                await route.continue_()
            else:
                self.browser.events.note(f"Blocked {echo(route.request.url, 120)}: {problem}")
                await route.abort("blockedbyclient")
        except Exception:  # the page or browser went away meanwhile
            pass

    async def problem(self, request: Request) -> str | None:
        """Why ``request`` may not go out; None when it may."""
        return await self.url_problem(request.url, top=_is_top_navigation(request))

    async def url_problem(self, url: str, *, top: bool) -> str | None:
        """Why a request of ``url`` may not go out (``top``: a tab's navigation); None: it may."""
        ctx = self.browser.ctx
        if ctx is None:
            return "no call is running"
        if ctx is not self._seen:  # rules and addresses are checked afresh in every call
            self._seen, self._hosts = ctx, {}
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme in _PASS_SCHEMES:
            return None
        if scheme == "file":
            path = Path(url2pathname(parts.path))
            if ctx.is_inside_working_dirs(path):
                return None
            return f"{path} is outside the working directories"
        host = (parts.hostname or "").lower().rstrip(".")
        if scheme not in ("http", "https", "ws", "wss") or not host:
            return f"the {scheme}: scheme is not opened by the browser"
        key = (host, top)
        if key not in self._hosts:
            self._hosts[key] = await self._host_problem(url, host, parts.port, top, ctx)
        return self._hosts[key]

    async def _host_problem(
        self, url: str, host: str, port: int | None, top: bool, ctx: ToolContext
    ) -> str | None:
        verdict = await decide_url(url, ctx)
        if verdict == "deny":
            return f"a permission rule denies {host}"
        new_host = top and host not in self.browser.approved_hosts
        if new_host and verdict != "allow":
            return (
                f"opening {host} needs the user's permission; call "
                f"{NavigationRules.name} with this URL to ask for it"
            )
        default = 443 if url.startswith(("https:", "wss:")) else 80
        refused = await address_refusal(host, port or default, ctx)
        if refused is None and new_host:
            self.browser.approved_hosts.add(host)
        return refused


def _is_top_navigation(request: Request) -> bool:
    try:
        frame = request.frame
        return request.is_navigation_request() and frame.parent_frame is None
    except Exception:  # a request of no frame (a worker's) is not a navigation
        return False
