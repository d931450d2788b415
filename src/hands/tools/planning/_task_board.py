"""The task list as the session last saw it: what the screen shows of the Task tools.

TaskCreate and TaskUpdate read the list again after each change they make, in the
same worker thread, so drawing it never touches the database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hands.tools.planning._task_store import Task, TaskStore
from hands.tools.planning._todos import TodoItem


@dataclass(kw_only=True, slots=True)
class TaskBoard:
    """The session's view of its task list (a session service)."""

    tasks: tuple[Task, ...] = field(default_factory=tuple[Task, ...])
    version: int = 0
    """Goes up with every change seen."""

    def show(self, tasks: Sequence[Task]) -> None:
        """The list as it is now."""
        self.tasks = tuple(tasks)
        self.version += 1

    def load(self, store: TaskStore, list_id: str) -> None:
        """Read the list (in a worker thread when an event loop runs)."""
        self.show(store.list(list_id))

    def load_project(self, home: Path, project: Path) -> None:
        """Read ``project``'s list from the database under ``home``.

        Only when the Task tools are on and the database exists; else the board stays.
        """
        from hands.tools.planning._task_list import database, list_id, tasks_enabled
        from hands.tools.planning._task_store import store_at

        path = database(home)
        if tasks_enabled() and path.exists():
            self.load(store_at(path), list_id(project))

    @property
    def open(self) -> tuple[Task, ...]:
        """The tasks not completed."""
        return tuple(t for t in self.tasks if t.status != "completed")

    def items(self) -> tuple[TodoItem, ...]:
        """The tasks as checklist items: ``#2 Write the tests (blocked by #1)``."""
        out: list[TodoItem] = []
        for task in self.tasks:
            waits = (
                f" (blocked by {', '.join('#' + b for b in task.open_blockers)})"
                if task.open_blockers
                else ""
            )
            out.append(
                TodoItem(
                    content=f"#{task.id} {task.subject}{waits}",
                    status=task.status,
                    activeForm=task.active_form or task.subject,
                )
            )
        return tuple(out)
