"""What every browser tool shares: the session's tab, the action, and the report of its effect.

A tool implements :meth:`BrowserTool.act`; the base gets the current tab (starting the
browser on the first call), runs the action, waits for the page to settle, and reports
what changed: the events (navigations, dialogs, downloads, new tabs, console errors) and
a fresh snapshot, so the model sees the effect without another call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, TypeVar

import anyio
from pydantic import BaseModel

from hands.core.messages import ImageBlock, TextBlock
from hands.core.tool import Progress, Tool, ToolResult
from hands.errors import ToolError
from hands.tools.browser._events import bullet
from hands.tools.browser._session import BrowserSession, Tab
from hands.tools.browser._settings import offered
from hands.tools.browser._snapshot import Snapshot, render_snapshot, take_snapshot

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hands.core.context import ToolContext
    from hands.core.images import PreparedImage

InputT = TypeVar("InputT", bound=BaseModel)

_QUIET_STEPS = 3
_STEP_SECONDS = 0.05
_RETAKES = 3
"""How often the report follows a tab that became current while it took the snapshot."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Action:
    """What one action did, before the report adds the events and the snapshot."""

    line: str
    """One sentence: what was done."""
    snapshot: bool = True
    """Follow it with a snapshot of the current tab."""
    image: PreparedImage | None = None
    is_error: bool = False
    extra: str = ""
    """More text after the line (a tab list)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class BrowserReport:
    """A browser tool's output: text for the model, a line for people, maybe an image."""

    text: str
    summary: str
    image: PreparedImage | None = None
    snapshot: Snapshot | None = None
    events: tuple[str, ...] = field(default=())


class BrowserTool(Tool[InputT, BrowserReport]):
    """Base of the browser tools: one shared page, so none runs beside another."""

    should_defer = True
    session_states = (BrowserSession,)
    show_unchanged: ClassVar[bool] = False
    """Print the whole snapshot even when it did not change (the snapshot tool)."""
    settles: ClassVar[bool] = True
    """Wait for the page's requests after the action; False for tools that change nothing."""

    def is_enabled(self) -> bool:
        return offered()

    async def act(
        self, input: InputT, tab: Tab, browser: BrowserSession, ctx: ToolContext
    ) -> Action:
        """Do the tool's action on the current tab."""
        raise NotImplementedError

    async def call(
        self, input: InputT, ctx: ToolContext, progress: Progress
    ) -> ToolResult[BrowserReport]:
        browser = BrowserSession.for_session(ctx.session)
        mark = browser.events.mark()
        if not browser.running:
            progress("Starting the browser")
        try:
            tab = await browser.tab(ctx)
            action = await self.act(input, tab, browser, ctx)
            if self.settles:
                await settle(browser, tab)
        except ToolError:
            raise
        except Exception as exc:
            raise ToolError(explain(exc, browser, mark)) from None
        return ToolResult(
            output=await report(action, browser, ctx, mark, show_unchanged=self.show_unchanged),
            is_error=action.is_error,
        )

    def to_content(self, output: BrowserReport) -> str | Sequence[TextBlock | ImageBlock]:
        if output.image is not None:
            img = output.image
            return (
                ImageBlock(media_type=img.media_type, data=img.base64),
                TextBlock(text=output.text),
            )
        return output.text

    def render_result(self, output: BrowserReport) -> RenderableType:
        from hands.core.render import dim_text

        return dim_text(output.summary)


async def settle(browser: BrowserSession, tab: Tab) -> None:
    """Wait (capped) until the page's requests are done and a started load finished."""
    page = tab.page
    cap = browser.settings.settle_s
    with anyio.move_on_after(cap):
        quiet = 0
        while quiet < _QUIET_STEPS:
            await anyio.sleep(_STEP_SECONDS)
            quiet = quiet + 1 if browser.inflight <= 0 else 0
    try:
        await page.wait_for_load_state("load", timeout=cap * 1000)
    except Exception:  # still loading, or gone: the report says what there is
        pass


async def report(
    action: Action, browser: BrowserSession, ctx: ToolContext, mark: int, *, show_unchanged: bool
) -> BrowserReport:
    """The action's line, the events since ``mark``, and the current tab's snapshot."""
    await browser.events.finish_downloads()
    parts = [action.line]
    if action.extra:
        parts.append(action.extra)
    snap: Snapshot | None = None
    if action.snapshot and browser.running and browser.tabs:
        tab = browser.tabs[browser.current]
        snap = await _snapshot(tab, browser)
        for _ in range(_RETAKES):
            # a tab the action opened may become the current one while the snapshot is
            # taken: the report shows the tab it names as current, settled
            if not browser.tabs or browser.tabs[browser.current] is tab:
                break
            tab = browser.tabs[browser.current]
            await settle(browser, tab)
            snap = await _snapshot(tab, browser)
    events = tuple(browser.events.since(mark))
    if events:
        parts.append("Events:\n" + bullet(events))
    if len(browser.tabs) > 1:
        parts.append(f"Current tab: [{browser.current}] of {len(browser.tabs)} tabs.")
    if snap is not None:
        parts.append(render_snapshot(snap, show_unchanged=show_unchanged))
    return BrowserReport(
        text="\n\n".join(parts),
        summary=summary_line(action, snap, events),
        image=action.image,
        snapshot=snap,
        events=events,
    )


async def _snapshot(tab: Tab, browser: BrowserSession) -> Snapshot | None:
    settings = browser.settings
    try:
        snap, browser.next_ref = await take_snapshot(
            tab,
            next_ref=browser.next_ref,
            cap=settings.snapshot_chars,
            max_nodes=settings.snapshot_elements,
        )
        return snap
    except Exception as exc:
        browser.events.note(f"No snapshot could be taken ({first_line(exc)}).")
        return None


def summary_line(action: Action, snap: Snapshot | None, events: Sequence[str]) -> str:
    """One line for people."""
    text = action.line.rstrip(".")
    if snap is not None:
        text += f" · {len(snap.refs)} refs, {len(snap.text):,} chars"
    if events:
        text += f" · {len(events)} events"
    return text


def explain(exc: BaseException, browser: BrowserSession, mark: int) -> str:
    """A Playwright failure as a message the model can act on."""
    text = first_line(exc)
    name = type(exc).__name__
    if name == "TargetClosedError" or "Target crashed" in text or "has been closed" in text:
        if "browser has been closed" in text:
            browser.lost("it closed during a call")
        text += (
            ". The page or browser closed during the call; the next browser call opens a new one."
        )
    elif name == "TimeoutError":
        text += ". The page did not respond in time; take a new snapshot to see its state."
    events = browser.events.since(mark)
    if events:
        text += "\nEvents:\n" + bullet(events)
    return text


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message (Playwright adds a long call log)."""
    lines = [line for line in str(exc).strip().splitlines() if line.strip()]
    text = lines[0] if lines else type(exc).__name__
    return text.removeprefix("Error: ").strip()
