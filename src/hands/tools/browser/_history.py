"""Back and forward through the current tab's history."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from hands.tools.browser._base import Action

if TYPE_CHECKING:
    from hands.tools.browser._session import BrowserSession, Tab


async def go(tab: Tab, browser: BrowserSession, way: Literal["back", "forward"]) -> Action:
    """Go one page back or forward; says so when there is none."""
    timeout = browser.settings.navigation_timeout_s * 1000
    page = tab.page
    before = page.url
    if way == "back":
        response = await page.go_back(wait_until="load", timeout=timeout)
    else:
        response = await page.go_forward(wait_until="load", timeout=timeout)
    if response is None and page.url == before:
        return Action(line=f"There is no page to go {way} to; the tab stays on {before}.")
    return Action(line=f"Went {way} to {page.url}.")
