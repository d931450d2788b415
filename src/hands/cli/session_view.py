"""Shows a running query in the terminal the way a user expects to see it.

On a terminal, text streams live as Markdown and each running tool shows a spinner with
its elapsed time and the tail of its output, replaced by its result when it finishes; from
the moment a turn starts until it ends, a bottom line counts its time and the tokens
received. Retries of a failed request are noted as they are scheduled. Elsewhere (pipes,
tests) only the final text, tool uses, results and notices are printed.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.markdown import Markdown
from rich.spinner import Spinner
from rich.table import Table
from rich.text import Text

from hands.agent.events import (
    BlockEvent,
    CompactionEvent,
    QueryEvent,
    RequestRetryEvent,
    ResultEvent,
    StreamRetryEvent,
    TextDeltaEvent,
)
from hands.cli.indent import hanging
from hands.core.messages import (
    ServerToolUseBlock,
    TextBlock,
    ToolUseBlock,
    WebSearchToolResultBlock,
)
from hands.core.outcome import error_message
from hands.core.tool import Tool
from hands.core.words import plural
from hands.orchestration.events import ToolProgressEvent, ToolResultEvent
from hands.pipeline.pool import ToolPool

_TAIL_CHARS = 4000
"""How much of a command's streamed output is kept for its live tail."""

_REFRESH_PER_S = 8
"""How often the live region is drawn again."""


class _Running:
    __slots__ = ("label", "output", "progress", "spinner", "started")

    def __init__(self, label: str) -> None:
        self.label = label
        self.started = time.monotonic()
        self.progress: RenderableType | None = None
        self.output = ""
        self.spinner = Spinner("dots")

    def __rich__(self) -> RenderableType:
        # Rendered on every refresh, so the elapsed time keeps counting.
        elapsed = time.monotonic() - self.started
        self.spinner.update(text=Text(f"{self.label} · {elapsed:.0f}s"))
        return self.spinner


class _Working:
    """The bottom line of a running turn: elapsed time, tokens received, how to stop it."""

    __slots__ = ("chars", "retry_at", "spinner", "started")

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.chars = 0
        self.retry_at: float | None = None
        self.spinner = Spinner("dots", style="cyan")

    def __rich__(self) -> RenderableType:
        now = time.monotonic()
        what = "Working…"
        if self.retry_at is not None:
            left = self.retry_at - now
            what = f"Retrying in {left:.0f} s…" if left > 0.5 else "Retrying…"
        tokens = plural(self.chars // 4, "token")
        self.spinner.update(
            text=Text.assemble(
                (what, "cyan"),
                (f" ({now - self.started:.0f}s · ↓ {tokens} · Esc to interrupt)", "dim"),
            )
        )
        return self.spinner


class SessionView:
    """Renders query events: text, each tool use, live progress, results in order."""

    def __init__(self, console: Console, tools: ToolPool) -> None:
        self.console = console
        self.tools = tools
        self._live: Live | None = None
        self._running: dict[str, _Running] = {}
        self._text = ""
        self._pending_uses: list[ToolUseBlock] = []
        self._held: list[tuple[RenderableType, dict[str, Any]]] | None = None
        self._shown_uses: set[str] = set()
        self._early: dict[str, ToolResultEvent] = {}
        self._working: _Working | None = None
        self.footer: Callable[[], RenderableType | None] | None = None
        """Drawn under the running tools while a turn runs (the todo checklist)."""
        self.under: Callable[[], RenderableType | None] | None = None
        """Drawn under the working line (what the user types meanwhile)."""

    # -- public -------------------------------------------------------------------

    def begin(self) -> None:
        """A turn starts: show that it is running until its result arrives."""
        self._working = _Working()
        self._refresh()

    def _show_progress(self, event: ToolProgressEvent) -> None:
        running = self._running.get(event.tool_use.id)
        tool = self.tools.find(event.tool_use.name)
        if running is None or tool is None:
            return
        data = event.data
        if isinstance(data, str):  # streamed output: its tail is what is shown
            running.output = (running.output + data)[-_TAIL_CHARS:]
            data = running.output
        running.progress = tool.render_progress(data)
        self._refresh()

    def _show_retry(self, event: RequestRetryEvent) -> None:
        if self._working is not None:
            self._working.retry_at = time.monotonic() + event.delay_s
        self._print(
            Text(
                f"  ⎿ {event.error} · retrying in {event.delay_s:.0f} s "
                f"(attempt {event.attempt}/{event.max_attempts})",
                style="yellow",
            )
        )

    def show(self, event: QueryEvent) -> None:
        """Render one event."""
        working = self._working
        if isinstance(event, TextDeltaEvent):
            self._text += event.text
            if working is not None:
                working.chars += len(event.text)
                working.retry_at = None
            self._refresh()
            return
        if isinstance(event, BlockEvent) and isinstance(event.block, ToolUseBlock):
            if working is not None:
                working.chars += len(json.dumps(dict(event.block.input), default=str))
            self._queue_use(event.block)
            return
        self._flush_uses()
        if isinstance(event, BlockEvent):
            block = event.block
            self._text = ""
            if isinstance(block, TextBlock) and block.text.strip():
                self._print(bulleted(Markdown(block.text)))
            elif isinstance(block, ServerToolUseBlock | WebSearchToolResultBlock):
                self._print(Text(f"  {server_line(block)}", style="dim"))
        elif isinstance(event, ToolProgressEvent):
            self._show_progress(event)
        elif isinstance(event, ToolResultEvent):
            if event.tool_use.id not in self._shown_uses:
                # settled before its call reached the screen (an unknown tool): the call
                # line comes first
                self._early[event.tool_use.id] = event
                return
            self._running.pop(event.tool_use.id, None)
            self._show_result(event)
        elif isinstance(event, StreamRetryEvent):
            self._running.clear()
            self._print(
                Text(f"  model stream broke ({event.error}); asking again…", style="yellow")
            )
        elif isinstance(event, CompactionEvent):
            from hands.agent.compaction.compactor import describe

            failed = event.outcome.status in ("failed", "blocked")
            self._print(Text(f"  {describe(event.outcome)}", style="yellow" if failed else "dim"))
        elif isinstance(event, RequestRetryEvent):
            self._show_retry(event)
        elif isinstance(event, ResultEvent):
            self._running.clear()
            self._working = None
            self.pause()
            style = "red" if event.is_error else "dim"
            tail = f" — {event.error}" if event.error else ""
            self.console.print(
                Text(
                    f"\n{event.subtype} · {plural(event.num_turns, 'turn')} · "
                    f"{event.duration_ms / 1000:.1f} s{tail}",
                    style=style,
                )
            )

    def end(self) -> None:
        """The turn is over (whether or not its result arrived): clear the live region."""
        self._working = None
        self._running.clear()
        self._text = ""
        self.pause()

    def pause(self) -> None:
        """Take the live region off the screen (before a prompt)."""
        self._flush_uses()
        if self._live is not None:
            self._live.stop()
            self._live = None

    def hold(self) -> None:
        """Stop drawing while the user answers a prompt: output waits for :meth:`release`."""
        self.pause()
        if self._held is None:
            self._held = []

    def release(self) -> None:
        """Print what arrived during the prompt and bring the live region back."""
        held, self._held = self._held or [], None
        for renderable, kwargs in held:
            self.console.print(renderable, **kwargs)
        self._refresh()

    # -- tool uses: consecutive calls of one tool are shown as a group ---------------

    def _queue_use(self, block: ToolUseBlock) -> None:
        self._shown_uses.add(block.id)
        if self._pending_uses and self._pending_uses[-1].name != block.name:
            self._flush_uses()
        self._pending_uses.append(block)
        self._running[block.id] = _Running(block.name)
        early = self._early.pop(block.id, None)
        if early is not None:
            self.show(early)
            return
        self._refresh()

    def _flush_uses(self) -> None:
        uses, self._pending_uses = self._pending_uses, []
        if not uses:
            return
        tool = self.tools.find(uses[0].name)
        parsed = [_parse(tool, b) for b in uses]
        if tool is None or any(p is None for p in parsed):
            for block in uses:
                shown = json.dumps(dict(block.input), ensure_ascii=False, default=str)
                self._print(Text(f"● {block.name}({shown})", style="bold"))
            return
        if len(uses) == 1:
            self._print(hanging(tool.render_use(parsed[0])))
        else:
            self._print(hanging(tool.render_group(parsed)))
        for block, inp in zip(uses, parsed, strict=True):
            running = self._running.get(block.id)
            if running is not None:
                running.label = f"{tool.user_facing_name(inp)}({tool.describe_input(inp)})"

    def _show_result(self, event: ToolResultEvent) -> None:
        outcome = event.outcome
        tool = outcome.tool
        message = error_message(outcome.block.text) if outcome.is_error else ""
        if tool is None:
            rendered: RenderableType = Text("  ⎿ " + message, style="red")
        elif outcome.status == "rejected" and outcome.input is not None:
            rendered = tool.render_rejected(outcome.input, message)
        elif outcome.is_error:
            rendered = tool.render_error(message)
        else:
            rendered = tool.render_result(outcome.output)
        self._print(hanging(rendered))

    # -- the live region (terminals only) -------------------------------------------

    def _print(self, renderable: RenderableType, **kwargs: Any) -> None:
        if self._held is not None:
            self._held.append((renderable, kwargs))
            return
        if self._live is not None:
            self._live.console.print(renderable, **kwargs)
        else:
            self.console.print(renderable, **kwargs)
        self._refresh()

    def _refresh(self) -> None:
        # Only make sure the live region is up: it renders __rich__ on its own refresh
        # (8 times a second), so a text delta costs an append, not a Markdown parse.
        if not self.console.is_terminal or self._held is not None:
            return
        if not self._text and not self._running and self._working is None:
            self.pause()
            return
        if self._live is None:
            loop = _running_loop()
            self._live = Live(
                self,
                console=self.console,
                transient=True,
                refresh_per_second=_REFRESH_PER_S,
                auto_refresh=loop is None,
            )
            self._live.start()
            if loop is not None:
                self._tick(self._live, loop)

    def _tick(self, live: Live, loop: asyncio.AbstractEventLoop) -> None:
        # Redrawn from the event loop, the thread everything else prints from: rich's own
        # refresh thread can interleave a redraw with a print between where the region's
        # height is measured and where it is written, and leave a stale line on screen.
        if self._live is not live:
            return
        live.refresh()
        loop.call_later(1 / _REFRESH_PER_S, self._tick, live, loop)

    def __rich__(self) -> RenderableType:
        parts: list[RenderableType] = []
        if self._text:
            parts.append(Markdown(self._text))
        for running in list(self._running.values()):
            parts.append(running)
            if running.progress is not None:
                parts.append(running.progress)
        footer = self.footer() if self.footer is not None else None
        if footer is not None:
            parts.append(footer)
        if self._working is not None:
            parts.append(self._working)
        under = self.under() if self.under is not None else None
        if under is not None:
            parts.append(under)
        return Group(*parts)


def bulleted(body: RenderableType) -> RenderableType:
    """``● `` then ``body``, its wrapped lines indented under the first."""
    grid = Table.grid()
    grid.add_column(width=2)
    grid.add_column()
    grid.add_row(Text("● "), body)
    return grid


def _parse(tool: Tool[Any, Any] | None, block: ToolUseBlock) -> Any:
    if tool is None:
        return None
    try:
        return tool.parse_input(block.input)
    except Exception:
        return None


def server_line(block: ServerToolUseBlock | WebSearchToolResultBlock) -> str:
    """One line for a tool the API ran itself: what it searched, what it found."""
    if isinstance(block, ServerToolUseBlock):
        query = block.input.get("query")
        what = f": {query}" if isinstance(query, str) else ""
        return f"{block.name} (run by the API){what}"
    if block.error_code is not None:
        return f"  ⎿ the search failed ({block.error_code})"
    return f"  ⎿ {plural(len(block.results), 'page')} found"


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
