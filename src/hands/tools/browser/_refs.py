"""A ref the model sent, checked against the tab's latest snapshot before anything is done.

A ref from an older snapshot, a mistyped one, or one whose element is gone is an error
that tells the model to take a new snapshot: never an action on another element.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hands.core.outcome import echo
from hands.errors import ToolError

if TYPE_CHECKING:
    from playwright.async_api import ElementHandle

    from hands.tools.browser._session import Tab

REF_FORM = re.compile(r"(?:f\d+)?e\d+")


def clean_ref(raw: str) -> str:
    """``[ref=e5]``, ``ref=e5`` or `` e5 `` → ``e5``."""
    text = raw.strip().strip("[]").strip()
    return text.removeprefix("ref=").strip()


def snapshot_tool_name() -> str:
    """The snapshot tool's name, for messages."""
    from hands.tools.browser.browser_snapshot import BrowserSnapshotTool

    return BrowserSnapshotTool.name


async def locate(tab: Tab, raw: str) -> ElementHandle:
    """The one element ``raw`` names in the tab's latest snapshot; raises ToolError."""
    ref = clean_ref(raw)
    take = f"Take a new snapshot with {snapshot_tool_name()} and use a ref from it."
    if not REF_FORM.fullmatch(ref):
        raise ToolError(
            f"{echo(raw)!r} is not an element ref: refs look like e12 or f1e3, as written "
            f"[ref=...] in a snapshot. {take}"
        )
    if tab.last_snapshot is None:
        raise ToolError(f"There is no snapshot of this tab yet, so ref {ref} means nothing. {take}")
    if ref not in tab.refs:
        raise ToolError(
            f"Ref {ref} is not in the latest snapshot of this tab: it is from an older page "
            f"or snapshot, was left out of a cut snapshot, or is mistyped. {take}"
        )
    from hands.tools.browser._snapshot_script import RESOLVE_JS

    element: ElementHandle | None = None
    try:
        handle = await tab.refs[ref].evaluate_handle(RESOLVE_JS, ref)
        element = handle.as_element()
    except Exception:  # the frame navigated or closed
        element = None
    if element is None:
        raise ToolError(
            f"Ref {ref} no longer names an element on the page (it changed since the "
            f"snapshot). {take}"
        )
    return element
