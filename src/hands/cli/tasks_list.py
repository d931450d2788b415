"""``hands tasks``: the project's task list (or the one HANDS_TASK_LIST_ID names)."""

from __future__ import annotations

import json

from rich.console import Console
from rich.table import Table

from hands.tools.planning import Task


def as_json(name: str, tasks: list[Task]) -> str:
    """``{"list": ..., "tasks": [...]}``."""
    return json.dumps({"list": name, "tasks": [t.to_json() for t in tasks]}, indent=2)


def show(console: Console, name: str, tasks: list[Task]) -> None:
    """A table: number, status, subject, owner, what each waits for."""
    if not tasks:
        console.print(f"No tasks in {name} yet.", markup=False, highlight=False)
        return
    table = Table("#", "status", "subject", "owner", "waits for", title=name)
    style = {"completed": "dim", "in_progress": "bold"}
    for task in tasks:
        table.add_row(
            f"#{task.id}",
            task.status,
            task.subject,
            task.owner or "",
            ", ".join("#" + t for t in task.open_blockers),
            style=style.get(task.status),
        )
    console.print(table)
