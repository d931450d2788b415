"""Browser_back: go back one page in the current tab's history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hands.core.schema import ToolInput
from hands.tools.browser._base import Action, BrowserTool

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.browser._session import BrowserSession, Tab

DESCRIPTION = """Go back one page in the current browser tab's history, like the browser's
back button. Returns the page reached and a fresh snapshot."""


class BrowserBackInput(ToolInput):
    """Input of Browser_back (none)."""


class BrowserBackTool(BrowserTool[BrowserBackInput]):
    """Go back in the history."""

    name = "Browser_back"
    aliases = ("browser_back",)
    description = DESCRIPTION
    input_model = BrowserBackInput
    search_hint = "go back to the previous page in the browser"

    async def act(
        self, input: BrowserBackInput, tab: Tab, browser: BrowserSession, ctx: ToolContext
    ) -> Action:
        from hands.tools.browser._history import go  # lazy: start-up

        return await go(tab, browser, "back")


__all__ = ["BrowserBackInput", "BrowserBackTool"]
