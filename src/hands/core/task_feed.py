"""What background tasks report while they run and when they end, for whoever listens.

A background shell command or sub-agent publishes a :class:`TaskChange` when it starts,
when it makes progress (a sub-agent's tool call) and when its state changes (it ended),
with the agent that started it (``owner``); a front end
that shows tasks (the Agent SDK's ``task_progress`` / ``task_updated`` lines) listens.
Publishing with nobody listening costs nothing. A session service.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeAlias

TaskState: TypeAlias = Literal["running", "completed", "failed", "killed"]


@dataclass(frozen=True, kw_only=True, slots=True)
class TaskChange:
    """One report of a background task: its new state, or its progress so far."""

    task_id: str
    state: TaskState | None = None
    """The state it moved to (``running``: it started); ``None``: a progress report."""
    description: str = ""
    tool_uses: int = 0
    """Tool calls it made so far (a sub-agent)."""
    total_tokens: int = 0
    """Input and output tokens of its requests so far (a sub-agent)."""
    last_tool: str | None = None
    """The name of the tool it called last."""
    owner: str | None = None
    """The agent that started it (``None``: the main agent)."""
    kind: str = ""
    """What it is, on a start: ``local_bash`` (a shell command) or ``local_agent``."""
    tool_use_id: str = ""
    """The call that started it, on a start."""
    foreground: bool = False
    """A sub-agent its call waits for (no notice follows its end: the call's result says)."""
    output_file: str = ""
    """Where its output or conversation is kept, on an end."""


Listener = Callable[[TaskChange], None]


class TaskFeed:
    """The session's listeners of task changes."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` with every change published from now on."""
        self._listeners.append(listener)

    def publish(self, change: TaskChange) -> None:
        """Tell every listener; a listener's failure does not reach the task."""
        for listener in list(self._listeners):
            try:
                listener(change)
            except Exception:  # a front end's bug must not end the task that reports
                import logging

                logging.getLogger(__name__).exception("a task listener failed")
