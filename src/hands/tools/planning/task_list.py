"""TaskList: every task of the session's task list, one line each."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.tool import Progress, ToolResult
from hands.tools.planning._task_tool import TaskReader, in_store, task_line

if TYPE_CHECKING:
    from hands.tools.planning._task_store import Task


class TaskListInput(ToolInput):
    """TaskList takes no input."""


class TaskListTool(TaskReader[TaskListInput, "list[Task]"]):
    """List the tasks."""

    name = "TaskList"
    description = (
        "List every task of the task list: number, status, subject, owner and the "
        "unfinished tasks each waits for. Use it to pick the next task (the lowest-numbered "
        "pending one that waits for nothing) and to check progress."
    )
    input_model = TaskListInput
    search_hint = "list the tasks of the task list"

    async def call(
        self, input: TaskListInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[list[Task]]:
        tasks = await in_store(ctx, lambda store, list_id: store.list(list_id))
        return ToolResult(output=tasks)

    def to_content(self, output: list[Task]) -> str:
        if not output:
            return "The task list is empty."
        return "\n".join(task_line(task) for task in output)
