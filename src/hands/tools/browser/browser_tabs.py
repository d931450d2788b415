"""Browser_tabs: list, open, select and close the browser's tabs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from hands.core.schema import ToolInput
from hands.errors import ToolError
from hands.tools.browser._base import Action, BrowserTool

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.browser._session import BrowserSession, Tab

DESCRIPTION = """Manage the browser's tabs: list them, open a new blank one (it becomes
current), select one by index (the other browser tools act on the current tab), or close
one (index; default the current). Pages opened by the site (popups, target=_blank links)
become tabs by themselves."""


class BrowserTabsInput(ToolInput):
    """Input of Browser_tabs."""

    action: Literal["list", "new", "select", "close"] = Field(description="What to do")
    index: int | None = Field(default=None, ge=0, description="The tab, for select and close")


class BrowserTabsTool(BrowserTool[BrowserTabsInput]):
    """Manage tabs."""

    name = "Browser_tabs"
    aliases = ("browser_tabs",)
    description = DESCRIPTION
    input_model = BrowserTabsInput
    search_hint = "list, open, switch or close browser tabs"

    def is_read_only(self, input: BrowserTabsInput) -> bool:
        return input.action == "list"

    async def act(
        self, input: BrowserTabsInput, tab: Tab, browser: BrowserSession, ctx: ToolContext
    ) -> Action:
        if input.action == "new":
            await browser.new_tab()
            return Action(line=f"Opened tab [{browser.current}].", extra=await tab_list(browser))
        if input.action == "list":
            return Action(line="The browser's tabs:", extra=await tab_list(browser), snapshot=False)
        index = browser.current if input.index is None else input.index
        if index >= len(browser.tabs):
            raise ToolError(
                f"There is no tab [{index}]; the tabs are [0] to [{len(browser.tabs) - 1}].\n"
                + await tab_list(browser)
            )
        if input.action == "select":
            browser.current = index
            return Action(line=f"Selected tab [{index}].")
        await browser.close_tab(index)
        if not browser.tabs:
            await browser.new_tab()
        return Action(
            line=f"Closed tab [{index}]; tab [{browser.current}] is current.",
            extra=await tab_list(browser),
        )


async def tab_list(browser: BrowserSession) -> str:
    """One line per tab: index, title and URL; the current one marked."""
    lines: list[str] = []
    for i, tab in enumerate(browser.tabs):
        try:
            title = await tab.page.title()
        except Exception:  # closing or crashed
            title = ""
        mark = " (current)" if i == browser.current else ""
        lines.append(f"- [{i}]{mark} {title!r} {tab.page.url}")
    return "\n".join(lines)


__all__ = ["BrowserTabsInput", "BrowserTabsTool"]
