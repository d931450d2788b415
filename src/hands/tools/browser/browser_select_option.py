"""Browser_select_option: choose options of a select element by its ref."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from hands.core.schema import ToolInput
from hands.tools.browser._base import Action, BrowserTool

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.browser._session import BrowserSession, Tab

DESCRIPTION = """Choose one or more options of a select element (a combobox or listbox in
the snapshot), named by its ref. values are the options' labels or values; several only
for a multiple select. Returns what changed and a fresh snapshot."""


class BrowserSelectOptionInput(ToolInput):
    """Input of Browser_select_option."""

    ref: str = Field(description="The select element's ref from the latest snapshot")
    values: list[str] = Field(min_length=1, description="Labels or values of the options")


class BrowserSelectOptionTool(BrowserTool[BrowserSelectOptionInput]):
    """Choose options of a select."""

    name = "Browser_select_option"
    aliases = ("browser_select_option",)
    description = DESCRIPTION
    input_model = BrowserSelectOptionInput
    search_hint = "choose an option of a dropdown select in the browser page"

    async def act(
        self, input: BrowserSelectOptionInput, tab: Tab, browser: BrowserSession, ctx: ToolContext
    ) -> Action:
        from hands.tools.browser._refs import clean_ref, locate  # lazy: start-up
        from hands.tools.browser._snapshot import describe_ref  # lazy: start-up

        target = await locate(tab, input.ref)
        what = describe_ref(tab, clean_ref(input.ref))
        chosen = await target.select_option(input.values)
        return Action(line=f"Selected {', '.join(map(repr, chosen)) or 'nothing'} in {what}.")


__all__ = ["BrowserSelectOptionInput", "BrowserSelectOptionTool"]
