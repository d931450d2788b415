"""Background tasks as the SDK sees them: the ``task_*`` and ``background_tasks_changed`` lines.

A main-agent call's output says it started a background task by carrying its id: a
shell's ``background_task_id``, or an agent's ``agent_id`` with ``status:
"async_launched"``; that is ``task_started``. A task a sub-agent started is announced
when it starts (the task feed's start report), with the sub-agent's id as its
``parent_task_id``. While it runs, a background sub-agent's tool calls are
``task_progress`` lines (tool uses, tokens and time so far, the last tool); when a task
ends, a ``task_updated`` line patches its status (``completed``, ``failed``,
``killed``) and end time, as Claude Code sends it before the task's
``task_notification``; a sub-agent's notification carries its ``usage``. Every change
of the set of live tasks is a ``background_tasks_changed`` line listing them all (a task
that starts joins it before its ``task_started``). The SDK keeps its input open while a
started agent runs, until its ``task_notification``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hands.core.task_feed import TaskChange
from hands.orchestration.events import ToolResultEvent


@dataclass(kw_only=True, slots=True)
class _Task:
    tool_use_id: str
    description: str
    task_type: str
    at: float
    """``time.monotonic()`` when it started."""
    parent: str | None = None
    """The sub-agent that started it (``None``: the main agent)."""
    foreground: bool = False
    """A sub-agent its call waits for: its end is told here, with no notice to follow."""
    tool_uses: int = 0
    total_tokens: int = 0
    ended: float | None = None
    """``time.monotonic()`` when it ended."""

    def usage(self) -> dict[str, int]:
        end = time.monotonic() if self.ended is None else self.ended
        return {
            "total_tokens": self.total_tokens,
            "tool_uses": self.tool_uses,
            "duration_ms": int((end - self.at) * 1000),
        }


class TaskLines:
    """The task lines of a session's background tasks, sent through ``send``."""

    def __init__(self, *, session_id: str, send: Callable[[dict[str, Any]], None]) -> None:
        self.session_id = session_id
        self.send = send
        self._live: dict[str, _Task] = {}
        self._ended: dict[str, _Task] = {}
        self._early: dict[str, TaskChange] = {}
        """Ends reported before the call that started the task returned its result."""

    def result(self, event: ToolResultEvent) -> None:
        """A main-agent call's result: ``task_started`` when it started a background task."""
        started = task_started(event, session_id=self.session_id)
        if started is None or started["task_id"] in self._live:
            return
        self._start(
            started,
            _Task(
                tool_use_id=event.tool_use.id,
                description=started["description"],
                task_type=started["task_type"],
                at=time.monotonic(),
            ),
        )
        early = self._early.pop(started["task_id"], None)
        if early is not None:
            self.change(early)

    def _start(self, line: dict[str, Any], task: _Task) -> None:
        self._live[line["task_id"]] = task
        self._level()
        self.send(line)

    def change(self, change: TaskChange) -> None:
        """A task's start, progress or end."""
        if change.state == "running":
            self._announced(change)
            return
        known = self._live.get(change.task_id)
        if known is None:
            if change.state is not None and change.owner is None:
                self._early[change.task_id] = change  # its call's result is still to come
            return
        line: dict[str, Any] = {"type": "system", "task_id": change.task_id}
        known.tool_uses = max(known.tool_uses, change.tool_uses)
        known.total_tokens = max(known.total_tokens, change.total_tokens)
        if change.state is None:
            line |= {
                "subtype": "task_progress",
                "tool_use_id": known.tool_use_id,
                "description": known.description,
                "usage": known.usage(),
            }
            if change.last_tool:
                line["last_tool_name"] = change.last_tool
            self.send({**line, "session_id": self.session_id})
            return
        patch: dict[str, Any] = {"status": change.state, "end_time": int(time.time() * 1000)}
        line |= {"subtype": "task_updated", "patch": patch}
        self.send({**line, "session_id": self.session_id})
        known.ended = time.monotonic()
        self._ended[change.task_id] = self._live.pop(change.task_id)
        if known.foreground:
            self._foreground_ended(change, known)
        self._level()

    def _foreground_ended(self, change: TaskChange, task: _Task) -> None:
        """A sub-agent its call waited for ended: its ``task_notification``.

        No notice follows such an end: the call's result says what came of it.
        """
        status = {"completed": "completed", "killed": "stopped"}.get(str(change.state), "failed")
        self.send(
            {
                "type": "system",
                "subtype": "task_notification",
                "task_id": change.task_id,
                "tool_use_id": task.tool_use_id,
                "status": status,
                "output_file": change.output_file,
                "summary": f'The agent "{task.description}" {status}.',
                "usage": task.usage(),
                "session_id": self.session_id,
            }
        )

    def _announced(self, change: TaskChange) -> None:
        """A task announced as it starts: one a sub-agent started, or a foreground sub-agent.

        The main agent's background tasks are announced by their call's result.
        """
        if (change.owner is None and not change.foreground) or change.task_id in self._live:
            return
        line = {
            "type": "system",
            "subtype": "task_started",
            "task_id": change.task_id,
            "tool_use_id": change.tool_use_id,
            "description": change.description,
            "task_type": change.kind,
            "session_id": self.session_id,
        }
        if change.owner is not None:
            line["parent_task_id"] = change.owner
        task = _Task(
            tool_use_id=change.tool_use_id,
            description=change.description,
            task_type=change.kind,
            at=time.monotonic(),
            parent=change.owner,
            foreground=change.foreground,
        )
        self._start(line, task)

    def notified(self, line: dict[str, Any]) -> dict[str, Any]:
        """``line`` with the sub-agent's ``usage`` when it is that agent's notification."""
        if line.get("subtype") != "task_notification":
            return line
        task = self._ended.get(str(line.get("task_id")))
        if task is None or task.task_type != "local_agent":
            return line
        return {**line, "usage": task.usage()}

    def agents_running(self) -> bool:
        """Whether a background agent the main agent started still runs."""
        return any(
            t.task_type == "local_agent" and t.parent is None and not t.foreground
            for t in self._live.values()
        )

    def _level(self) -> None:
        """``background_tasks_changed``: every live task, after a change of the set."""
        tasks: list[dict[str, Any]] = []
        for task_id, task in self._live.items():
            entry = {
                "task_id": task_id,
                "task_type": task.task_type,
                "description": task.description,
            }
            if task.parent is not None:
                entry["parent_task_id"] = task.parent
            tasks.append(entry)
        self.send(
            {
                "type": "system",
                "subtype": "background_tasks_changed",
                "tasks": tasks,
                "session_id": self.session_id,
            }
        )


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
