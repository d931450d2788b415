"""Browser_scroll: scroll the current page."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from hands.core.schema import ToolInput
from hands.tools.browser._base import Action, BrowserTool

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.browser._session import BrowserSession, Tab

DESCRIPTION = """Scroll the current browser page up, down, left or right, by amount pixels
(default: most of a screen). Pages that load more content as you scroll load it; the
fresh snapshot shows it."""

_STEPS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


class BrowserScrollInput(ToolInput):
    """Input of Browser_scroll."""

    direction: Literal["up", "down", "left", "right"] = Field(description="Where to scroll")
    amount: int | None = Field(
        default=None, ge=1, le=100_000, description="Pixels to scroll; default: most of a screen"
    )


class BrowserScrollTool(BrowserTool[BrowserScrollInput]):
    """Scroll the page."""

    name = "Browser_scroll"
    aliases = ("browser_scroll",)
    description = DESCRIPTION
    input_model = BrowserScrollInput
    search_hint = "scroll the browser page up or down, load more"

    async def act(
        self, input: BrowserScrollInput, tab: Tab, browser: BrowserSession, ctx: ToolContext
    ) -> Action:
        size = tab.page.viewport_size or {"width": 1280, "height": 800}
        dx, dy = _STEPS[input.direction]
        edge = size["height"] if dy else size["width"]
        amount = input.amount or int(edge * 0.8)
        await tab.page.mouse.wheel(dx * amount, dy * amount)
        return Action(line=f"Scrolled {input.direction} by {amount:,} pixels.")


__all__ = ["BrowserScrollInput", "BrowserScrollTool"]
