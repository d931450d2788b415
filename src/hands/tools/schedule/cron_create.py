"""CronCreate: a prompt that comes back as a user turn when a cron expression fires."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import ClassVar

from pydantic import Field

from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.tool import Progress, ToolResult
from hands.tools.schedule._base import ScheduleTool, job_line
from hands.tools.schedule.jobs import CronError, Job, Schedule, next_fire


class CronCreateInput(ToolInput):
    """Input of CronCreate."""

    ignored_fields: ClassVar[Mapping[str, str]] = {
        "durable": "every job is kept with the session (a resumed session has it again); "
        "none outlives it",
    }

    cron: str = Field(
        description="A 5-field cron expression in local time: minute hour day-of-month "
        "month day-of-week ('*/5 * * * *' every 5 minutes, '30 14 28 2 *' Feb 28 at 14:30)"
    )
    prompt: str = Field(description="The prompt to run at each firing")
    recurring: bool = Field(
        default=True,
        description="true: fire at every match until deleted (or 30 days on); false: once",
    )
    durable: bool | None = Field(default=None, exclude=True)


class CronCreateTool(ScheduleTool[CronCreateInput, Job]):
    """Schedule a prompt with a cron expression."""

    name = "CronCreate"
    description = (
        "Schedule a prompt to come back to you as a user turn when a cron expression "
        "matches (local time), while this session runs: recurring (the default) until "
        "CronDelete or 30 days, or once (recurring false) for a reminder at a set time. "
        "CronList shows the jobs."
    )
    input_model = CronCreateInput
    search_hint = "schedule a recurring prompt, cron job, reminder"

    async def validate_input(self, input: CronCreateInput, ctx: ToolContext) -> str | None:
        if not input.prompt.strip():
            return "The prompt is empty: say what should be done when it fires."
        try:
            next_fire(input.cron, time.time())
        except CronError as exc:
            return str(exc)
        return None

    async def call(
        self, input: CronCreateInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[Job]:
        now = time.time()
        job = Job(
            id="",
            prompt=input.prompt,
            at=next_fire(input.cron, now),
            kind="cron",
            cron=" ".join(input.cron.split()),
            recurring=input.recurring,
            made=now,
        )
        return ToolResult(output=Schedule.of(ctx.session).add(job))

    def to_content(self, output: Job) -> str:
        return (
            f"Scheduled: {job_line(output)}\nIt comes as a user turn while this session runs; "
            "CronDelete with its id cancels it."
        )
