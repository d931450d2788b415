"""Background tasks as the SDK sees them: ``task_started``, ``task_progress``, ``task_updated``.

A call's output says it started a background task by carrying its id: a shell's
``background_task_id``, or an agent's ``agent_id`` with ``status: "async_launched"``;
that is ``task_started``. While it runs, a background sub-agent's tool calls are
``task_progress`` lines (tool uses, tokens and time so far, the last tool); when it ends,
a ``task_updated`` line patches its status (``completed``, ``failed``, ``killed``) and
end time, as Claude Code sends it before the task's ``task_notification``. The SDK keeps
its input open while a started agent runs, until its ``task_notification``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hands.core.task_feed import TaskChange
from hands.orchestration.events import ToolResultEvent


@dataclass(frozen=True, kw_only=True, slots=True)
class _Started:
    tool_use_id: str
    description: str
    at: float
    """``time.monotonic()`` when it started."""


class TaskLines:
    """The task lines of a session's background tasks, sent through ``send``."""

    def __init__(self, *, session_id: str, send: Callable[[dict[str, Any]], None]) -> None:
        self.session_id = session_id
        self.send = send
        self._started: dict[str, _Started] = {}

    def result(self, event: ToolResultEvent) -> None:
        """A call's result: ``task_started`` when it started a background task."""
        started = task_started(event, session_id=self.session_id)
        if started is None:
            return
        self._started[started["task_id"]] = _Started(
            tool_use_id=event.tool_use.id, description=started["description"], at=time.monotonic()
        )
        self.send(started)

    def change(self, change: TaskChange) -> None:
        """A task's progress or new state, for a task this session announced."""
        known = self._started.get(change.task_id)
        if known is None:
            return  # a sub-agent's own task: its caller hears of it, not the program
        line: dict[str, Any] = {"type": "system", "task_id": change.task_id}
        if change.state is None:
            line |= {
                "subtype": "task_progress",
                "tool_use_id": known.tool_use_id,
                "description": known.description,
                "usage": {
                    "total_tokens": change.total_tokens,
                    "tool_uses": change.tool_uses,
                    "duration_ms": int((time.monotonic() - known.at) * 1000),
                },
            }
            if change.last_tool:
                line["last_tool_name"] = change.last_tool
        else:
            patch: dict[str, Any] = {"status": change.state}
            if change.state != "running":
                patch["end_time"] = int(time.time() * 1000)
            line |= {"subtype": "task_updated", "patch": patch}
        self.send({**line, "session_id": self.session_id})


def task_started(event: ToolResultEvent, *, session_id: str) -> dict[str, Any] | None:
    """The ``system``/``task_started`` fields for a call that started a task, else None."""
    output = event.outcome.output
    if output is None or event.outcome.status != "ok":
        return None
    call_input = event.tool_use.input
    shell_task = getattr(output, "background_task_id", None)
    if isinstance(shell_task, str) and shell_task:
        task_id, task_type = shell_task, "local_bash"
        described = call_input.get("description") or call_input.get("command") or ""
    elif getattr(output, "status", None) == "async_launched":
        agent_id = getattr(output, "agent_id", None)
        if not isinstance(agent_id, str) or not agent_id:
            return None
        task_id, task_type = agent_id, "local_agent"
        described = call_input.get("description") or getattr(output, "agent_type", "")
    else:
        return None
    return {
        "type": "system",
        "subtype": "task_started",
        "task_id": task_id,
        "tool_use_id": event.tool_use.id,
        "description": str(described),
        "task_type": task_type,
        "session_id": session_id,
    }
