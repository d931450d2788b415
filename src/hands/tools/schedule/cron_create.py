"""CronCreate: a prompt that comes back as a user turn when a cron expression fires."""

from __future__ import annotations

import time

from pydantic import Field

from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.tool import Progress, ToolResult
from hands.errors import ToolError
from hands.tools.schedule._base import ScheduleTool, job_line
from hands.tools.schedule.durable import DurableFileError
from hands.tools.schedule.jobs import CronError, Job, Schedule, next_fire


class CronCreateInput(ToolInput):
    """Input of CronCreate."""

    cron: str = Field(
        description="A 5-field cron expression in local time: minute hour day-of-month "
        "month day-of-week ('*/5 * * * *' every 5 minutes, '30 14 28 2 *' Feb 28 at 14:30)"
    )
    prompt: str = Field(description="The prompt to run at each firing")
    recurring: bool = Field(
        default=True,
        description="true: fire at every match until deleted (or 30 days on); false: once",
    )
    durable: bool = Field(
        default=False,
        description="true: keep the job in the project's .claude/scheduled_tasks.json, so "
        "later sessions in this project run it too; false: this session only. Use true only "
        "when the user asks for the job to outlive the session",
    )


class CronCreateTool(ScheduleTool[CronCreateInput, Job]):
    """Schedule a prompt with a cron expression."""

    name = "CronCreate"
    description = (
        "Schedule a prompt to come back to you as a user turn when a cron expression "
        "matches (local time), while this session runs (or, durable, in later sessions of "
        "this project too): recurring (the default) until CronDelete or 30 days, or once "
        "(recurring false) for a reminder at a set time. CronList shows the jobs."
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
            durable=input.durable,
        )
        schedule = Schedule.of(ctx.session)
        if input.durable and schedule.project is None:
            schedule.project = ctx.root
        try:
            return ToolResult(output=schedule.add(job))
        except (DurableFileError, OSError) as exc:
            raise ToolError(
                f"Nothing was scheduled: the durable job could not be saved ({exc}). Repair "
                "or remove that file, or schedule the job for this session only (durable "
                "false)."
            ) from None

    def to_content(self, output: Job) -> str:
        where = (
            "It is kept in the project's .claude/scheduled_tasks.json and comes as a user "
            "turn in this session and in later sessions started in the project"
            if output.durable
            else "It comes as a user turn while this session runs"
        )
        return f"Scheduled: {job_line(output)}\n{where}; CronDelete with its id cancels it."
