"""The page as the model reads it: Playwright's accessibility snapshot with element refs.

Every element the model can act on carries ``[ref=e12]``; a ref keeps naming the same
element while it exists (refs of a new document get a new frame prefix, ``f2e3``, so an
old ref never lands on a new page's element). The text is cut at a line once it passes
the character cap, and only the refs shown are accepted back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hands.tools.browser._session import Tab

REF = re.compile(r"\[ref=([A-Za-z0-9]+)\]")


@dataclass(frozen=True, kw_only=True, slots=True)
class Snapshot:
    """One snapshot of a tab, as shown to the model."""

    title: str
    url: str
    text: str
    """The snapshot, cut to the cap."""
    refs: frozenset[str]
    """The refs in ``text``: the only ones an action accepts."""
    total_chars: int
    total_refs: int
    unchanged: bool = False
    """The same text as the tab's previous snapshot."""

    @property
    def cut(self) -> bool:
        """Whether part of the page was left out."""
        return len(self.text) < self.total_chars


async def take_snapshot(tab: Tab, *, cap: int, timeout_s: float) -> Snapshot:
    """Snapshot the tab's page (iframes included) and remember its refs on the tab."""
    page = tab.page
    raw = await page.aria_snapshot(mode="ai", timeout=timeout_s * 1000)
    text = cut(raw, cap)
    refs = frozenset(REF.findall(text))
    unchanged = tab.last_snapshot == text
    tab.refs = refs
    tab.last_snapshot = text
    try:
        title = await page.title()
    except Exception:  # a page navigating away has no title for a moment
        title = ""
    return Snapshot(
        title=title,
        url=page.url,
        text=text,
        refs=refs,
        total_chars=len(raw),
        total_refs=len(REF.findall(raw)) if len(raw) > len(text) else len(refs),
        unchanged=unchanged,
    )


def cut(text: str, cap: int) -> str:
    """``text`` up to the last whole line within ``cap`` characters."""
    if len(text) <= cap:
        return text
    end = text.rfind("\n", 0, cap)
    return text[: end if end > 0 else cap]


def render_snapshot(snap: Snapshot, *, show_unchanged: bool = False) -> str:
    """The snapshot section of a result."""
    head = f'Page: "{snap.title}" at {snap.url}' if snap.title else f"Page: {snap.url}"
    if snap.unchanged and not show_unchanged:
        return f"{head}\nThe snapshot is unchanged since the last one; its refs still hold."
    lines = [head, "Snapshot:", snap.text or "(the page has no accessible content)"]
    if snap.cut:
        hidden = snap.total_refs - len(snap.refs)
        lines.append(
            f"[Snapshot cut at {len(snap.text):,} of {snap.total_chars:,} characters; "
            f"{hidden:,} more elements with refs are not shown and cannot be used. Scroll, "
            "or open a narrower page; HANDS_BROWSER_SNAPSHOT_CHARS sets the limit.]"
        )
    return "\n".join(lines)


def describe_ref(tab: Tab, ref: str) -> str:
    """The element a ref names, as its snapshot line says (``button "Sign in"``)."""
    marker = f"[ref={ref}]"
    for line in (tab.last_snapshot or "").splitlines():
        if marker in line:
            text = line.strip().removeprefix("- ").rstrip(":")
            text = REF.sub("", text).replace("  ", " ").strip()
            return f"{text} [{ref}]" if text else ref
    return ref
