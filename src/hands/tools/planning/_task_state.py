"""The task list as session state: its open tasks are restated after compaction.

The tasks themselves live in the task list's database, so nothing is saved here.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any, ClassVar

from hands.core.state import Carried

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.planning._task_store import Task


class OpenTasks:
    """The task list's tasks not completed yet (the Task tools)."""

    key: ClassVar[str] = ""

    def snapshot(self) -> Any:
        """Nothing: the database keeps the tasks."""
        return None

    def restore(self, data: Any) -> None:
        """Nothing to restore: the database keeps the tasks."""
        return None

    async def aclose(self) -> None:
        """Nothing open: the database is opened per call."""
        return None

    def carry(self, ctx: ToolContext, *, reattach: int) -> Carried:
        """One line per open task."""
        from hands.tools.planning._task_list import database, store_for, tasks_enabled
        from hands.tools.planning._task_store import TaskError

        if not tasks_enabled() or not database(ctx.session.home).exists():
            return Carried()
        store, list_id = store_for(ctx)
        try:
            tasks = [t for t in store.list(list_id) if t.status != "completed"]
        except (TaskError, sqlite3.Error):
            return Carried()  # the list cannot be read now: TaskList still can later
        if not tasks:
            return Carried()
        head = "Open tasks in the task list (TaskList shows them all):"
        return Carried(lines=(head, *map(task_line, tasks)))


def task_line(task: Task) -> str:
    """``#2 Write the tests — pending, owner me, waiting on #1``."""
    facts = [task.status]
    if task.owner:
        facts.append(f"owner {task.owner}")
    if task.open_blockers:
        facts.append(f"waiting on {', '.join('#' + t for t in task.open_blockers)}")
    return f"#{task.id} {task.subject} — {', '.join(facts)}"
