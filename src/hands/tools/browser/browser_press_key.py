"""Browser_press_key: press a key (or a combination) in the current page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from hands.core.schema import ToolInput
from hands.tools.browser._base import Action, BrowserTool

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.browser._session import BrowserSession, Tab

DESCRIPTION = """Press a key in the current browser page, on the element that has focus:
Enter, Tab, Escape, ArrowDown, PageDown, Backspace, a character such as a, or a
combination such as Control+a or Shift+Tab. Returns what changed and a fresh snapshot."""


class BrowserPressKeyInput(ToolInput):
    """Input of Browser_press_key."""

    key: str = Field(min_length=1, description="The key, e.g. Enter, ArrowDown, Control+a")


class BrowserPressKeyTool(BrowserTool[BrowserPressKeyInput]):
    """Press a key."""

    name = "Browser_press_key"
    aliases = ("browser_press_key",)
    description = DESCRIPTION
    input_model = BrowserPressKeyInput
    search_hint = "press a keyboard key in the browser page"

    async def act(
        self, input: BrowserPressKeyInput, tab: Tab, browser: BrowserSession, ctx: ToolContext
    ) -> Action:
        await tab.page.keyboard.press(input.key)
        return Action(line=f"Pressed {input.key}.")


__all__ = ["BrowserPressKeyInput", "BrowserPressKeyTool"]
