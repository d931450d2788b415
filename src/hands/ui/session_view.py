"""Shows a running query in the terminal the way a user expects to see it."""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.markdown import Markdown
from rich.text import Text

from hands.events import BlockEvent, QueryEvent, ResultEvent
from hands.messages import TextBlock, ToolUseBlock
from hands.orchestration.events import ToolProgressEvent, ToolResultEvent
from hands.pool import ToolPool
from hands.tool import Tool


class SessionView:
    """Renders query events: text, each tool use, live progress, results in order."""

    def __init__(self, console: Console, tools: ToolPool) -> None:
        self.console = console
        self.tools = tools
        self._live: Live | None = None
        self._running: dict[str, RenderableType] = {}

    def show(self, event: QueryEvent) -> None:
        """Render one event."""
        if isinstance(event, BlockEvent):
            block = event.block
            if isinstance(block, TextBlock) and block.text.strip():
                self.console.print(Text("● ", style="white"), end="")
                self.console.print(Markdown(block.text))
            elif isinstance(block, ToolUseBlock):
                self._show_use(block)
        elif isinstance(event, ToolProgressEvent):
            self._show_progress(event)
        elif isinstance(event, ToolResultEvent):
            self._clear_progress(event.tool_use.id)
            self._show_result(event)
        elif isinstance(event, ResultEvent):
            self._running.clear()
            self._stop_live()
            style = "red" if event.is_error else "dim"
            tail = f" — {event.error}" if event.error else ""
            self.console.print(
                Text(
                    f"\n{event.subtype} · {event.num_turns} turns · "
                    f"{event.duration_ms / 1000:.1f} s{tail}",
                    style=style,
                )
            )

    def _show_progress(self, event: ToolProgressEvent) -> None:
        # Progress is transient: shown live while the tool runs, replaced by its result.
        if not self.console.is_terminal:
            return
        tool = self.tools.find(event.tool_use.name)
        if tool is None:
            return
        self._running[event.tool_use.id] = tool.render_progress(event.data)
        if self._live is None:
            self._live = Live(console=self.console, transient=True, auto_refresh=False)
            self._live.start()
        self._live.update(Group(*self._running.values()), refresh=True)

    def _clear_progress(self, tool_use_id: str) -> None:
        if self._running.pop(tool_use_id, None) is None or self._live is None:
            return
        if self._running:
            self._live.update(Group(*self._running.values()), refresh=True)
        else:
            self._stop_live()

    def _stop_live(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    def _show_use(self, block: ToolUseBlock) -> None:
        tool = self.tools.find(block.name)
        parsed = _parse(tool, block)
        if tool is None or parsed is None:
            self.console.print(Text(f"● {block.name}({block.input})", style="bold"))
            return
        self.console.print(tool.render_use(parsed))

    def _show_result(self, event: ToolResultEvent) -> None:
        outcome = event.outcome
        tool = outcome.tool
        if tool is None:
            self.console.print(Text("  ⎿ " + outcome.block.text, style="red"))
            return
        if outcome.status == "rejected" and outcome.input is not None:
            self.console.print(tool.render_rejected(outcome.input, outcome.block.text))
        elif outcome.is_error:
            self.console.print(tool.render_error(outcome.block.text))
        else:
            self.console.print(tool.render_result(outcome.output))


def _parse(tool: Tool[Any, Any] | None, block: ToolUseBlock) -> Any:
    if tool is None:
        return None
    try:
        return tool.parse_input(block.input)
    except Exception:
        return None
