"""Browser_hover: move the mouse over an element by its ref."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from hands.core.schema import ToolInput
from hands.tools.browser._base import Action, BrowserTool

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.browser._session import BrowserSession, Tab

DESCRIPTION = """Move the mouse over an element of the current browser page, named by its
ref (opens hover menus and tooltips). Returns what changed and a fresh snapshot."""


class BrowserHoverInput(ToolInput):
    """Input of Browser_hover."""

    ref: str = Field(description="The element's ref from the latest snapshot")


class BrowserHoverTool(BrowserTool[BrowserHoverInput]):
    """Hover over an element."""

    name = "Browser_hover"
    aliases = ("browser_hover",)
    description = DESCRIPTION
    input_model = BrowserHoverInput
    search_hint = "hover the mouse over an element in the browser page"

    async def act(
        self, input: BrowserHoverInput, tab: Tab, browser: BrowserSession, ctx: ToolContext
    ) -> Action:
        from hands.tools.browser._refs import clean_ref, locate  # lazy: start-up
        from hands.tools.browser._snapshot import describe_ref  # lazy: start-up

        target = await locate(tab, input.ref)
        await target.hover()
        return Action(line=f"Hovered over {describe_ref(tab, clean_ref(input.ref))}.")


__all__ = ["BrowserHoverInput", "BrowserHoverTool"]
