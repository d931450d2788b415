"""Browser_click: click an element of the page by its ref."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from hands.core.schema import ToolInput
from hands.tools.browser._base import Action, BrowserTool

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.browser._session import BrowserSession, Tab

DESCRIPTION = """Click an element of the current browser page, named by its ref from the
latest snapshot (e.g. e12). Returns what changed: navigations, dialogs, downloads, new
tabs, console errors, and a fresh snapshot.

- double: a double click. button: left (default), right or middle.
- A ref from an older snapshot is refused: take a new snapshot and use its refs."""


class BrowserClickInput(ToolInput):
    """Input of Browser_click."""

    ref: str = Field(description="The element's ref from the latest snapshot, e.g. e12")
    double: bool = Field(default=False, description="Double-click instead of a single click")
    button: Literal["left", "right", "middle"] = Field(
        default="left", description="The mouse button"
    )


class BrowserClickTool(BrowserTool[BrowserClickInput]):
    """Click an element."""

    name = "Browser_click"
    aliases = ("browser_click",)
    description = DESCRIPTION
    input_model = BrowserClickInput
    search_hint = "click a button or link in the browser page"

    async def act(
        self, input: BrowserClickInput, tab: Tab, browser: BrowserSession, ctx: ToolContext
    ) -> Action:
        from hands.tools.browser._refs import clean_ref, locate  # lazy: start-up
        from hands.tools.browser._snapshot import describe_ref  # lazy: start-up

        target = await locate(tab, input.ref)
        what = describe_ref(tab, clean_ref(input.ref))
        if input.double:
            await target.dblclick(button=input.button)
        else:
            await target.click(button=input.button)
        verb = "Double-clicked" if input.double else "Clicked"
        side = "" if input.button == "left" else f" with the {input.button} button"
        return Action(line=f"{verb} {what}{side}.")


__all__ = ["BrowserClickInput", "BrowserClickTool"]
