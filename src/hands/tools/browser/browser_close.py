"""Browser_close: close the session's browser."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hands.core.schema import ToolInput
from hands.core.tool import Progress, ToolResult
from hands.tools.browser._base import Action, BrowserReport, BrowserTool

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.browser._session import BrowserSession, Tab

DESCRIPTION = """Close the browser with all its tabs, cookies and logins. The next browser
call starts a fresh one. The browser also closes by itself when the session ends."""


class BrowserCloseInput(ToolInput):
    """Input of Browser_close (none)."""


class BrowserCloseTool(BrowserTool[BrowserCloseInput]):
    """Close the browser."""

    name = "Browser_close"
    aliases = ("browser_close",)
    description = DESCRIPTION
    input_model = BrowserCloseInput
    search_hint = "close the browser"

    async def call(
        self, input: BrowserCloseInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[BrowserReport]:
        from hands.tools.browser._session import BrowserSession  # lazy: start-up

        browser = BrowserSession.for_session(ctx.session)
        if not browser.running:
            line = "The browser is not running; nothing was closed."
            return ToolResult(output=BrowserReport(text=line, summary=line))
        return await super().call(input, ctx, progress)

    async def act(
        self, input: BrowserCloseInput, tab: Tab, browser: BrowserSession, ctx: ToolContext
    ) -> Action:
        count = len(browser.tabs)
        await browser.aclose()
        return Action(line=f"Closed the browser ({count} tabs).", snapshot=False)


__all__ = ["BrowserCloseInput", "BrowserCloseTool"]
