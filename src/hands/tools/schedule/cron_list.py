"""CronList: the session's scheduled prompts."""

from __future__ import annotations

from pydantic import BaseModel

from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.tool import Progress, ToolResult
from hands.tools.schedule._base import ScheduleTool, job_line
from hands.tools.schedule.jobs import Job, Schedule


class CronListInput(ToolInput):
    """No input."""


class CronListTool(ScheduleTool[CronListInput, list[Job]]):
    """List the scheduled prompts."""

    name = "CronList"
    description = "List this session's scheduled prompts (CronCreate and ScheduleWakeup jobs)."
    input_model = CronListInput
    search_hint = "list scheduled cron jobs and wakeups"

    def is_read_only(self, input: BaseModel) -> bool:
        return True

    def is_concurrency_safe(self, input: BaseModel) -> bool:
        return True

    async def call(
        self, input: CronListInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[list[Job]]:
        return ToolResult(output=Schedule.of(ctx.session).ordered())

    def to_content(self, output: list[Job]) -> str:
        if not output:
            return "Nothing is scheduled."
        return "\n".join(job_line(job) for job in output)
