"""``task_started``: background work a call started (a shell command, a sub-agent).

A call's output says it started a background task by carrying its id: a shell's
``background_task_id``, or an agent's ``agent_id`` with ``status: "async_launched"``.
The SDK keeps its input open while a started agent runs, until its ``task_notification``.
"""

from __future__ import annotations

from typing import Any

from hands.orchestration.events import ToolResultEvent


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
