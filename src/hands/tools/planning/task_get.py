"""TaskGet: one task of the session's task list, in full."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from pydantic import Field

from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.tool import Progress, ToolResult
from hands.errors import ToolError
from hands.tools.planning._task_tool import TaskReader, in_store

if TYPE_CHECKING:
    from hands.tools.planning._task_store import Task


class TaskGetInput(ToolInput):
    """Input of TaskGet."""

    task_id: str = Field(alias="taskId", description="The task's number, as TaskList shows it")


class TaskGetTool(TaskReader[TaskGetInput, "Task"]):
    """Read one task."""

    name = "TaskGet"
    description = (
        "Read one task of the task list in full: its description, status, owner, "
        "metadata, which tasks it waits for and which wait for it."
    )
    input_model = TaskGetInput
    search_hint = "read one task of the task list"

    async def call(
        self, input: TaskGetInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[Task]:
        task = await in_store(ctx, lambda store, list_id: store.get(list_id, input.task_id))
        if task is None:
            raise ToolError(f"There is no task #{input.task_id} in this list; TaskList shows them.")
        return ToolResult(output=task)

    def to_content(self, output: Task) -> str:
        lines = [f"#{output.id} {output.subject}", f"state: {output.status}"]
        if output.owner:
            lines.append(f"owner: {output.owner}")
        if output.blocked_by:
            waits = ", ".join(
                f"#{t}" + ("" if t in output.open_blockers else " (done)")
                for t in output.blocked_by
            )
            lines.append(f"waiting on: {waits}")
        if output.blocks:
            lines.append(f"holding up: {', '.join('#' + t for t in output.blocks)}")
        if output.metadata:
            lines.append(f"metadata: {json.dumps(dict(output.metadata), ensure_ascii=False)}")
        lines += ["", output.description or "(no description)"]
        return "\n".join(lines)
