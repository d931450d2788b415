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
from hands.tools.planning import TaskBoard, TodoList, checklist, progress_words


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
        session.service(TaskBoard).load_project(session.home, project)
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
