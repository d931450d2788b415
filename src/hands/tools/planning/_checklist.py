"""The todo list as people see it: a checklist, the item in progress in bold."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.spinner import Spinner
from rich.text import Text

from hands.tools.planning._todos import TodoItem

BOXES = {"completed": "☒", "in_progress": "◼", "pending": "☐"}


def checklist(items: Sequence[TodoItem], *, spinner: Spinner | None = None) -> RenderableType:
    """One line per item; with ``spinner``, the item in progress spins with its activeForm."""
    lines: list[RenderableType] = []
    for item in items:
        if item.status == "in_progress" and spinner is not None:
            spinner.update(text=Text(item.active_form + "…", style="bold"))
            lines.append(spinner)
        elif item.status == "in_progress":
            lines.append(Text(f"{BOXES['in_progress']} {item.content}", style="bold"))
        elif item.status == "completed":
            lines.append(Text(f"{BOXES['completed']} {item.content}", style="dim strike"))
        else:
            lines.append(Text(f"{BOXES['pending']} {item.content}"))
    return Group(*lines)


def progress_words(items: Sequence[TodoItem]) -> str:
    """``2 of 5 done``."""
    done = sum(1 for i in items if i.status == "completed")
    return f"{done} of {len(items)} done"
