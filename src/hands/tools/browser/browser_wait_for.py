"""Browser_wait_for: wait for text to appear or go, or for some time."""

from __future__ import annotations

from typing import TYPE_CHECKING

import anyio
from pydantic import Field, model_validator

from hands.core.schema import ToolInput
from hands.errors import ToolError
from hands.tools.browser._base import Action, BrowserTool

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.browser._session import BrowserSession, Tab

MAX_WAIT_S = 30.0

DESCRIPTION = f"""Wait in the current browser page until text appears (text), until text
is gone (text_gone), or for time seconds; give exactly one. Waits at most
{MAX_WAIT_S:g} s. Returns what changed and a fresh snapshot."""


class BrowserWaitForInput(ToolInput):
    """Input of Browser_wait_for."""

    text: str | None = Field(default=None, min_length=1, description="Text to wait for")
    text_gone: str | None = Field(
        default=None, min_length=1, description="Text to wait to disappear"
    )
    time: float | None = Field(default=None, gt=0, le=MAX_WAIT_S, description="Seconds to wait")

    @model_validator(mode="after")
    def _one(self) -> BrowserWaitForInput:
        given = [v for v in (self.text, self.text_gone, self.time) if v is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of text, text_gone and time")
        return self


class BrowserWaitForTool(BrowserTool[BrowserWaitForInput]):
    """Wait for the page."""

    name = "Browser_wait_for"
    aliases = ("browser_wait_for",)
    description = DESCRIPTION
    input_model = BrowserWaitForInput
    search_hint = "wait for text to appear in the browser page"

    def is_read_only(self, input: BrowserWaitForInput) -> bool:
        return True

    async def act(
        self, input: BrowserWaitForInput, tab: Tab, browser: BrowserSession, ctx: ToolContext
    ) -> Action:
        if input.time is not None:
            await anyio.sleep(input.time)
            return Action(line=f"Waited {input.time:g} s.")
        from playwright.async_api import TimeoutError

        text = input.text or input.text_gone or ""
        state = "visible" if input.text is not None else "hidden"
        try:
            await tab.page.get_by_text(text).first.wait_for(state=state, timeout=MAX_WAIT_S * 1000)
        except TimeoutError:
            what = "appear" if state == "visible" else "go away"
            raise ToolError(
                f"The text {text!r} did not {what} within {MAX_WAIT_S:g} s. Take a snapshot "
                "to see the page as it is."
            ) from None
        did = "appeared" if state == "visible" else "is gone"
        return Action(line=f"The text {text!r} {did}.")


__all__ = ["BrowserWaitForInput", "BrowserWaitForTool"]
