"""The plan under a running turn: the todo checklist and the task list, redrawn in place.

TodoWrite's list and the Task tools' list (as the session last saw it, after its last
TaskCreate or TaskUpdate) are drawn one under the other, the current item spinning.
A task list read at the start is shown while it has open tasks; once changed in the
session, it stays.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Group, RenderableType
from rich.spinner import Spinner
from rich.text import Text

from hands.core.session import Session
from hands.tools.planning._checklist import checklist, progress_words
from hands.tools.planning._task_board import TaskBoard
from hands.tools.planning._todos import TodoList


class TodoPanel:
    """Called on every refresh of the live region; None while both lists are empty."""

    def __init__(self, session: Session) -> None:
        self._todos = session.service(TodoList)
        self._tasks = session.service(TaskBoard)
        self._seen = self._tasks.version
        self._spinner = Spinner("dots", style="cyan")

    @classmethod
    def for_project(cls, session: Session, project: Path) -> TodoPanel:
        """A panel that starts with the project's task list (when the Task tools are on)."""
        from hands.tools.planning._task_list import database, list_id, tasks_enabled
        from hands.tools.planning._task_store import store_at

        path = database(session.home)
        if tasks_enabled() and path.exists():
            session.service(TaskBoard).load(store_at(path), list_id(project))
        return cls(session)

    def __call__(self) -> RenderableType | None:
        """The lists as they are now."""
        todos = self._todos.items
        board = self._tasks
        tasks = board.items() if board.open or board.version > self._seen else ()
        parts: list[RenderableType] = []
        if todos:
            parts.append(checklist(todos, spinner=self._spinner))
        if tasks:
            spinning = None if todos else self._spinner  # one spinner on screen
            heading = Text(f"Tasks · {progress_words(tasks)}", style="dim")
            parts += [heading, checklist(tasks, spinner=spinning)]
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else Group(*parts)
