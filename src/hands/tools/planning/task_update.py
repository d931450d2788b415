"""TaskUpdate: change one task: status, text, owner, metadata, what it waits for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.tool import Progress, ToolResult
from hands.tools.planning._task_tool import TaskTool, in_store

if TYPE_CHECKING:
    from hands.tools.planning._task_store import TaskUpdated


class TaskUpdateInput(ToolInput):
    """Input of TaskUpdate."""

    task_id: str = Field(alias="taskId", description="The task's number")
    status: Literal["pending", "in_progress", "completed", "deleted"] | None = Field(
        default=None, description="The new status; deleted removes the task"
    )
    subject: str | None = Field(default=None, min_length=1, description="A new title")
    description: str | None = Field(default=None, description="A new description")
    active_form: str | None = Field(
        default=None, alias="activeForm", description="A new present-continuous title"
    )
    add_blocks: list[str] | None = Field(
        default=None, alias="addBlocks", description="Tasks that must wait for this one"
    )
    add_blocked_by: list[str] | None = Field(
        default=None, alias="addBlockedBy", description="Tasks this one must wait for"
    )
    owner: str | None = Field(default=None, description="Who works on it (an agent's name)")
    metadata: dict[str, Any] | None = Field(
        default=None, description="Keys to merge into the metadata; a key set to null is removed"
    )


class TaskUpdateTool(TaskTool[TaskUpdateInput, "TaskUpdated"]):
    """Update a task."""

    name = "TaskUpdate"
    description = (
        "Change one task of the task list. Set status in_progress when you start it "
        "(one that waits for an unfinished task cannot start) and completed as soon as "
        "it is done; deleted removes it. addBlocks / addBlockedBy link tasks that must "
        "wait for others (a link that would make a cycle is refused). Only the fields "
        "given change; metadata keys are merged."
    )
    input_model = TaskUpdateInput
    search_hint = "update a task's status in the task list, mark done, block"

    async def call(
        self, input: TaskUpdateInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[TaskUpdated]:
        from hands.tools.planning._task_store import TaskChange  # lazy: start-up

        change = TaskChange(
            status=input.status,
            subject=input.subject,
            description=input.description,
            active_form=input.active_form,
            owner=input.owner,
            metadata=input.metadata,
            add_blocks=tuple(input.add_blocks or ()),
            add_blocked_by=tuple(input.add_blocked_by or ()),
        )
        updated = await in_store(
            ctx,
            lambda store, list_id: store.update(list_id, input.task_id, change),
            changes=True,
        )
        return ToolResult(output=updated)

    def to_content(self, output: TaskUpdated) -> str:
        if output.new_status == "deleted":
            return f"Deleted task #{output.task_id}."
        if not output.fields:
            return f"Task #{output.task_id} already was as asked; nothing changed."
        said = ", ".join(
            f"status ({output.old_status} → {output.new_status})" if f == "status" else f
            for f in output.fields
        )
        text = f"Updated task #{output.task_id}: {said}."
        if output.new_status == "completed":
            text += " TaskList shows what is left."
        return text
