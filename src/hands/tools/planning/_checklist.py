"""The todo list as people see it: a checklist, the item in progress in bold."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hands.tools.planning._todos import TodoItem

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.spinner import Spinner
    from rich.text import Text

BOXES = {"completed": "☒", "in_progress": "◼", "pending": "☐"}


def checklist(
    items: Sequence[TodoItem], *, spinner: Spinner | None = None, result: bool = False
) -> RenderableType:
    """One line per item; with ``spinner``, the item in progress spins with its activeForm.

    ``result``: indented under a ``⎿``, as a tool's result is shown.
    """
    from rich.console import Group  # lazy: rich is loaded when a list is shown
    from rich.text import Text

    lines: list[RenderableType] = []
    for number, item in enumerate(items):
        if result:
            lead = Text("  ⎿ " if number == 0 else "    ", style="dim")
            lines.append(Text.assemble(lead, _line(item)))
            continue
        if item.status == "in_progress" and spinner is not None:
            spinner.update(text=Text(item.active_form + "…", style="bold"))
            lines.append(spinner)
        else:
            lines.append(_line(item))
    return Group(*lines) if lines or not result else Text("  ⎿ (empty)", style="dim")


def _line(item: TodoItem) -> Text:
    from rich.text import Text

    style = {"in_progress": "bold", "completed": "dim strike"}.get(item.status, "")
    return Text(f"{BOXES[item.status]} {item.content}", style=style)


def progress_words(items: Sequence[TodoItem]) -> str:
    """``2 of 5 done``."""
    done = sum(1 for i in items if i.status == "completed")
    return f"{done} of {len(items)} done"
