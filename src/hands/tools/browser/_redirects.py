"""Redirect hops, checked before Chromium requests them.

Chromium follows an HTTP redirect by itself, and Playwright's routes see only the first
request of a chain. So the browser's responses are paused through the DevTools ``Fetch``
domain on the browser target (which covers every page, popup and iframe of the browser
from its first request): a 3xx response's ``Location`` passes the same
:class:`~hands.tools.browser._guard.RequestGuard` check as a request before the browser
may follow it, and a refused hop fails with ``BlockedByClient`` and a note saying why.
Every other response is let through at once, as soon as its headers are in: no body is
read or held, so a page that streams or stalls behaves as without the check. The browser
target's interception sees every context of the browser; each session has a browser of
its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urljoin

from hands.core.outcome import echo

if TYPE_CHECKING:
    from playwright.async_api import Browser, CDPSession

    from hands.tools.browser._contract import BrowserState
    from hands.tools.browser._guard import RequestGuard

REDIRECTS = frozenset({301, 302, 303, 307, 308})


class RedirectGuard:
    """Pauses each response of the browser; a redirect goes on only when its target may."""

    def __init__(self, browser: BrowserState, guard: RequestGuard) -> None:
        self.browser = browser
        self.guard = guard
        self._cdp: CDPSession | None = None
        self._pages: set[str] = set()

    async def start(self, chromium: Browser) -> None:
        """Start pausing the browser's responses."""
        cdp = await chromium.new_browser_cdp_session()
        cdp.on("Fetch.requestPaused", self._paused)
        await cdp.send(
            "Fetch.enable", {"patterns": [{"urlPattern": "*", "requestStage": "Response"}]}
        )
        self._cdp = cdp

    async def stop(self) -> None:
        """Stop pausing (the browser may be gone already)."""
        cdp, self._cdp = self._cdp, None
        if cdp is not None:
            try:
                await cdp.detach()
            except Exception:  # the browser closed first
                pass

    async def _paused(self, event: dict[str, Any]) -> None:
        cdp = self._cdp
        if cdp is None:
            return
        request_id = event["requestId"]
        try:
            problem = await self._problem(event, cdp)
        except Exception as exc:  # fail closed: a check that broke lets nothing through
            problem = f"the redirect could not be checked ({exc})"
        try:
            if problem is None:
                await cdp.send("Fetch.continueRequest", {"requestId": request_id})
            else:
                await cdp.send(
                    "Fetch.failRequest", {"requestId": request_id, "errorReason": "BlockedByClient"}
                )
        except Exception:  # the request or the browser went away meanwhile
            pass

    async def _problem(self, event: dict[str, Any], cdp: CDPSession) -> str | None:
        status = event.get("responseStatusCode")
        if status not in REDIRECTS or event.get("responseErrorReason"):
            return None
        headers = cast(list[dict[str, str]], event.get("responseHeaders") or [])
        location = next((h["value"] for h in headers if h["name"].lower() == "location"), None)
        if not location:
            return None
        source = str(event["request"]["url"])
        target = urljoin(source, location.strip())
        top = event.get("resourceType") == "Document" and await self._is_page(
            str(event.get("frameId", "")), cdp
        )
        problem = await self.guard.url_problem(target, top=top)
        if problem is not None:
            self.browser.events.note(
                f"Blocked the redirect (HTTP {status}) from {echo(source, 120)} to "
                f"{echo(target, 120)} before it was followed: {problem}"
            )
        return problem

    async def _is_page(self, frame_id: str, cdp: CDPSession) -> bool:
        """Whether ``frame_id`` is a tab's main frame (whose id is its page target's)."""
        if frame_id not in self._pages:
            found = cast(dict[str, Any], await cdp.send("Target.getTargets"))
            infos = cast(list[dict[str, Any]], found.get("targetInfos", []))
            self._pages = {str(t["targetId"]) for t in infos if t.get("type") == "page"}
        return frame_id in self._pages
