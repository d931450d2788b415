"""The todo checklist under a running turn: redrawn in place, the current item spinning."""

from __future__ import annotations

from rich.console import RenderableType
from rich.spinner import Spinner

from hands.core.session import Session
from hands.tools.planning._checklist import checklist
from hands.tools.planning._todos import TodoList


class TodoPanel:
    """Called on every refresh of the live region; None while the list is empty."""

    def __init__(self, session: Session) -> None:
        self._todos = session.service(TodoList)
        self._spinner = Spinner("dots", style="cyan")

    def __call__(self) -> RenderableType | None:
        """The checklist as it is now."""
        items = self._todos.items
        if not items:
            return None
        return checklist(items, spinner=self._spinner)
