"""TaskCreate: add a pending task to the session's task list."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field

from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.tool import Progress, ToolResult
from hands.tools.planning._task_tool import TaskTool, in_store

if TYPE_CHECKING:
    from hands.tools.planning._task_store import Task


class TaskCreateInput(ToolInput):
    """Input of TaskCreate."""

    subject: str = Field(min_length=1, description="A short title, in the imperative")
    description: str = Field(description="What needs to be done, and how to tell it is done")
    active_form: str | None = Field(
        default=None,
        alias="activeForm",
        description="The title in the present continuous, shown while it runs",
    )
    metadata: dict[str, Any] | None = Field(
        default=None, description="Any data to keep with the task"
    )


class TaskCreateTool(TaskTool[TaskCreateInput, "Task"]):
    """Create a task."""

    name = "TaskCreate"
    description = (
        "Add a task to the task list. Use it to plan work of three or more steps, or "
        "when the user gives several things to do; the list is kept between sessions of "
        "this project and shared with sub-agents. New tasks are pending; set them "
        "in_progress with TaskUpdate when you start one and completed when it is done. "
        "Link tasks that must wait for others with TaskUpdate addBlockedBy."
    )
    input_model = TaskCreateInput
    search_hint = "create a task in the task list, plan work"

    async def call(
        self, input: TaskCreateInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[Task]:
        task = await in_store(
            ctx,
            lambda store, list_id: store.create(
                list_id,
                subject=input.subject,
                description=input.description,
                active_form=input.active_form,
                metadata=input.metadata,
            ),
            changes=True,
        )
        return ToolResult(output=task)

    def to_content(self, output: Task) -> str:
        return f"Created task #{output.id}: {output.subject}"
