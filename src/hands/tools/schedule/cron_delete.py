"""CronDelete: cancel a scheduled prompt."""

from __future__ import annotations

from pydantic import Field

from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.tool import Progress, ToolResult
from hands.errors import ToolError
from hands.tools.schedule._base import ScheduleTool, job_line
from hands.tools.schedule.durable import DurableFileError
from hands.tools.schedule.jobs import Job, Schedule


class CronDeleteInput(ToolInput):
    """Input of CronDelete."""

    id: str = Field(description="The job's id, as CronCreate or CronList gave it")


class CronDeleteTool(ScheduleTool[CronDeleteInput, Job]):
    """Cancel a scheduled prompt."""

    name = "CronDelete"
    description = "Cancel a prompt scheduled with CronCreate (or a wakeup), by its id."
    input_model = CronDeleteInput
    search_hint = "cancel a scheduled cron job"

    async def validate_input(self, input: CronDeleteInput, ctx: ToolContext) -> str | None:
        schedule = Schedule.of(ctx.session)
        if input.id.strip() not in schedule.jobs:
            ids = ", ".join(schedule.jobs) or "none"
            return (
                f"No scheduled job has the id {input.id!r} (the ids: {ids}); CronList shows them."
            )
        return None

    async def call(
        self, input: CronDeleteInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[Job]:
        try:
            job = Schedule.of(ctx.session).remove(input.id.strip())
        except (DurableFileError, OSError) as exc:
            raise ToolError(
                f"The job was not cancelled: the project's scheduled tasks file could not be "
                f"changed ({exc}). Repair that file, then call CronDelete again."
            ) from None
        assert job is not None  # checked by validate_input in this same call
        return ToolResult(output=job)

    def to_content(self, output: Job) -> str:
        return f"Cancelled: {job_line(output)}"
