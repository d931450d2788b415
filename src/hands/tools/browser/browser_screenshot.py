"""Browser_screenshot: a picture of the page or of one element."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from hands.core.schema import ToolInput
from hands.tools.browser._base import Action, BrowserTool

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.browser._session import BrowserSession, Tab

DESCRIPTION = """Take a screenshot of the current browser page (the visible part, or the
full_page), or of one element by its ref, as an image. Large images are downscaled. Use
it to see layout, images and colours; to act on the page, the snapshot's refs are what
you need."""


class BrowserScreenshotInput(ToolInput):
    """Input of Browser_screenshot."""

    full_page: bool = Field(default=False, description="The whole scrollable page")
    ref: str | None = Field(default=None, description="Only this element (a snapshot ref)")


class BrowserScreenshotTool(BrowserTool[BrowserScreenshotInput]):
    """Screenshot the page."""

    name = "Browser_screenshot"
    aliases = ("browser_screenshot",)
    description = DESCRIPTION
    settles = False
    input_model = BrowserScreenshotInput
    search_hint = "screenshot image of the browser page"

    def is_read_only(self, input: BrowserScreenshotInput) -> bool:
        return True

    async def act(
        self, input: BrowserScreenshotInput, tab: Tab, browser: BrowserSession, ctx: ToolContext
    ) -> Action:
        from hands.tools.browser._refs import clean_ref, locate  # lazy: start-up
        from hands.tools.browser._snapshot import describe_ref  # lazy: start-up
        from hands.tools.file._images import prepare_image

        if input.ref is not None:
            target = await locate(tab, input.ref)
            data = await target.screenshot(type="png")
            what = describe_ref(tab, clean_ref(input.ref))
        else:
            data = await tab.page.screenshot(type="png", full_page=input.full_page)
            what = "the full page" if input.full_page else "the visible page"
        image = prepare_image(data, "image/png")
        dims = image.dimensions
        size = f"{dims[0]}x{dims[1]}" if dims else "unknown size"
        note = ", downscaled" if image.resized else ""
        return Action(
            line=f"Screenshot of {what} ({size}{note}, {len(data):,} bytes of PNG).",
            image=image,
            snapshot=False,
        )


__all__ = ["BrowserScreenshotInput", "BrowserScreenshotTool"]
