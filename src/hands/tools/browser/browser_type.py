"""Browser_type: type text into an editable element by its ref."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from hands.core.schema import ToolInput
from hands.errors import ToolError
from hands.tools.browser._base import Action, BrowserTool

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.browser._session import BrowserSession, Tab

DESCRIPTION = """Type text into an editable element (a textbox, a search box, a
contenteditable area) of the current browser page, named by its ref. The text replaces
what the field held.

- submit: press Enter afterwards (submits most forms).
- slowly: type one key at a time, firing each key's events (for fields that react to
  keystrokes); otherwise the text is filled at once.
- Returns what changed and a fresh snapshot."""


class BrowserTypeInput(ToolInput):
    """Input of Browser_type."""

    ref: str = Field(description="The editable element's ref from the latest snapshot")
    text: str = Field(description="The text to type")
    submit: bool = Field(default=False, description="Press Enter after typing")
    slowly: bool = Field(default=False, description="Type one character at a time")


class BrowserTypeTool(BrowserTool[BrowserTypeInput]):
    """Type into an element."""

    name = "Browser_type"
    aliases = ("browser_type",)
    description = DESCRIPTION
    input_model = BrowserTypeInput
    search_hint = "type text into a browser form field"

    async def act(
        self, input: BrowserTypeInput, tab: Tab, browser: BrowserSession, ctx: ToolContext
    ) -> Action:
        from hands.tools.browser._refs import clean_ref, locate  # lazy: start-up
        from hands.tools.browser._snapshot import describe_ref  # lazy: start-up

        target = await locate(tab, input.ref)
        what = describe_ref(tab, clean_ref(input.ref))
        try:
            editable = await target.is_editable()
        except Exception:  # Playwright raises for an element that cannot be edited at all
            editable = False
        if not editable:
            raise ToolError(
                f"{what} is not an editable element, so nothing was typed. Type into a "
                "textbox, searchbox or other editable element of the latest snapshot."
            )
        if input.slowly:
            await target.fill("")
            await target.type(input.text, delay=20)
        else:
            await target.fill(input.text)
        line = f"Typed {len(input.text):,} characters into {what}"
        if input.submit:
            await target.press("Enter")
            line += " and pressed Enter"
        return Action(line=line + ".")


__all__ = ["BrowserTypeInput", "BrowserTypeTool"]
