"""Browser_forward: go forward one page in the current tab's history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hands.core.schema import ToolInput
from hands.tools.browser._base import Action, BrowserTool

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.browser._session import BrowserSession, Tab

DESCRIPTION = """Go forward one page in the current browser tab's history, like the browser's
forward button. Returns the page reached and a fresh snapshot."""


class BrowserForwardInput(ToolInput):
    """Input of Browser_forward (none)."""


class BrowserForwardTool(BrowserTool[BrowserForwardInput]):
    """Go forward in the history."""

    name = "Browser_forward"
    aliases = ("browser_forward",)
    description = DESCRIPTION
    input_model = BrowserForwardInput
    search_hint = "go forward to the next page in the browser"

    async def act(
        self, input: BrowserForwardInput, tab: Tab, browser: BrowserSession, ctx: ToolContext
    ) -> Action:
        from hands.tools.browser._history import go  # lazy: start-up

        return await go(tab, browser, "forward")


__all__ = ["BrowserForwardInput", "BrowserForwardTool"]
