"""The page as the model reads it: an accessibility snapshot with element refs.

Roles, accessible names, values and states, headings and links with their targets, and
the content of iframes, one element per line. Every element the model can act on carries
``[ref=e12]``; a ref keeps naming its element while the element exists, and no other
element (of this page or a later one) ever gets it. The walk stops at the character and
element caps, so a huge page costs no more than the caps; only the refs shown are
accepted back. After an action that changed part of the same document, the result shows
only the changed parts (:mod:`hands.tools.browser._partial`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from hands.tools.browser._partial import partial_view
from hands.tools.browser._snapshot_script import FRAME_KEY_JS, SNAPSHOT_JS

if TYPE_CHECKING:
    from playwright.async_api import Frame

    from hands.tools.browser._session import Tab

REF = re.compile(r"\[ref=([A-Za-z0-9]+)\]")
_PLACEHOLDER = re.compile(r"^( *)- <<(frame[a-z0-9]+)>>$", re.MULTILINE)


@dataclass(frozen=True, kw_only=True, slots=True)
class Snapshot:
    """One snapshot of a tab, as shown to the model."""

    title: str
    url: str
    text: str
    refs: frozenset[str]
    """The refs in ``text``: the only ones an action accepts."""
    walked: int
    """Elements the walk visited."""
    total: int
    """Elements in the page's documents."""
    cut: bool = False
    """The walk stopped at a cap: part of the page was left out."""
    unchanged: bool = False
    """The same text as the tab's previous snapshot."""
    partial: str | None = None
    """Only the parts that changed since the tab's previous snapshot of the same document
    (see :mod:`hands.tools.browser._partial`); None: show the whole."""


@dataclass(kw_only=True, slots=True)
class _Walk:
    next: int
    max_nodes: int
    max_chars: int
    refs: dict[str, Frame]
    walked: int = 0
    total: int = 0
    cut: bool = False
    document: str = ""
    """The main frame's document: a new one after every navigation."""


async def take_snapshot(
    tab: Tab, *, next_ref: int, cap: int, max_nodes: int
) -> tuple[Snapshot, int]:
    """Snapshot the tab's page (iframes included); remember its refs on the tab.

    Returns the snapshot and the next free ref number.
    """
    page = tab.page
    walk = _Walk(next=next_ref, max_nodes=max_nodes, max_chars=cap, refs={})
    text = await _frame_lines(page.main_frame, walk)
    old = tab.last_snapshot
    unchanged = old == text
    partial = None
    if old is not None and not unchanged and not (walk.cut or tab.last_cut):
        if walk.document and walk.document == tab.last_document:
            partial = partial_view(old, text)
    tab.refs = walk.refs
    tab.last_snapshot = text
    tab.last_document, tab.last_cut = walk.document, walk.cut
    try:
        title = await page.title()
    except Exception:  # a page navigating away has no title for a moment
        title = ""
    snap = Snapshot(
        title=title,
        url=page.url,
        text=text,
        refs=frozenset(walk.refs),
        walked=walk.walked,
        total=walk.total,
        cut=walk.cut,
        unchanged=unchanged,
        partial=partial,
    )
    return snap, walk.next


async def _frame_lines(frame: Frame, walk: _Walk) -> str:
    room = walk.max_chars
    args = {"next": walk.next, "maxNodes": max(1, walk.max_nodes - walk.walked), "maxChars": room}
    got = cast(dict[str, Any], await frame.evaluate(SNAPSHOT_JS, args))
    walk.next = int(got["next"])
    walk.walked += int(got["nodes"])
    walk.total += int(got["total"])
    walk.cut = walk.cut or bool(got["cut"])
    walk.document = walk.document or str(got.get("doc", ""))
    for ref in got["refs"]:
        walk.refs[str(ref)] = frame
    text = str(got["lines"])
    if not got["frames"]:
        return text
    inner: dict[str, Frame] = {}
    for child in frame.child_frames:
        try:
            key = await (await child.frame_element()).evaluate(FRAME_KEY_JS)
        except Exception:  # detached meanwhile
            continue
        if isinstance(key, str):
            inner[key] = child
    parts: list[str] = []
    last = 0
    for match in _PLACEHOLDER.finditer(text):
        parts.append(text[last : match.start()])
        last = match.end()
        child = inner.get(match.group(2))
        indent = match.group(1)
        body = "(not loaded)"
        if child is not None:
            try:
                body = await _frame_lines(child, walk) or "(empty)"
            except Exception:  # a frame that navigated or closed meanwhile
                body = "(could not be read)"
        if body.startswith("- "):
            parts.append("\n".join(indent + line for line in body.splitlines()))
        else:
            parts.append(f"{indent}- {body}")
    parts.append(text[last:])
    return "".join(parts)


def render_snapshot(snap: Snapshot, *, show_unchanged: bool = False) -> str:
    """The snapshot section of a result."""
    head = f'Page: "{snap.title}" at {snap.url}' if snap.title else f"Page: {snap.url}"
    if snap.unchanged and not show_unchanged:
        return f"{head}\nThe snapshot is unchanged since the last one; its refs still hold."
    if snap.partial is not None and not show_unchanged:
        return "\n".join([
            head,
            "Snapshot (partial: only the parts that changed since the last snapshot; each "
            "'… (unchanged)' line stands for lines that are as before, and their refs still "
            "hold):",
            snap.partial,
        ])  # fmt: skip
    lines = [head, "Snapshot:", snap.text or "(the page has no accessible content)"]
    if snap.cut:
        lines.append(
            f"[Snapshot cut: {snap.walked:,} of {snap.total:,} elements were read before the "
            "size limit; the rest of the page is not shown and its refs cannot be used. "
            "Scroll or open a narrower page; HANDS_BROWSER_SNAPSHOT_CHARS and "
            "HANDS_BROWSER_SNAPSHOT_ELEMENTS set the limits.]"
        )
    return "\n".join(lines)


def describe_ref(tab: Tab, ref: str) -> str:
    """The element a ref names, as its snapshot line says (``button "Sign in"``)."""
    marker = f"[ref={ref}]"
    for line in (tab.last_snapshot or "").splitlines():
        if marker in line:
            text = line.strip().removeprefix("- ").split(marker, 1)[0].strip()
            return f"{text} [{ref}]" if text else ref
    return ref
