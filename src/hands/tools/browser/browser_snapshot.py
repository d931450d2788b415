"""Browser_snapshot: the current page as an accessibility tree with element refs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hands.core.schema import ToolInput
from hands.tools.browser._base import Action, BrowserTool

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.browser._session import BrowserSession, Tab

DESCRIPTION = """Take an accessibility snapshot of the current browser tab: the page as a
tree of roles, accessible names, values and states (checked, disabled, expanded, active),
headings and links with their targets, iframes included. Every element you can act on
carries a ref such as [ref=e12]; pass it to the click, type, select_option, hover and
screenshot tools. Better than a screenshot: text and structure, far fewer bytes.

- Refs hold while the element exists; after the page changes, use the refs of the newest
  snapshot. Every browser action already returns a fresh snapshot.
- A long page is cut with a notice."""


class BrowserSnapshotInput(ToolInput):
    """Input of Browser_snapshot (none)."""


class BrowserSnapshotTool(BrowserTool[BrowserSnapshotInput]):
    """Snapshot the current tab."""

    name = "Browser_snapshot"
    aliases = ("browser_snapshot",)
    description = DESCRIPTION
    settles = False
    input_model = BrowserSnapshotInput
    show_unchanged = True
    search_hint = "accessibility snapshot of the browser page with element refs"

    def is_read_only(self, input: BrowserSnapshotInput) -> bool:
        return True

    async def act(
        self, input: BrowserSnapshotInput, tab: Tab, browser: BrowserSession, ctx: ToolContext
    ) -> Action:
        return Action(line=f"Snapshot of tab [{browser.current}].")


__all__ = ["BrowserSnapshotInput", "BrowserSnapshotTool"]
