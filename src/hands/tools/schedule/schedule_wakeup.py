"""ScheduleWakeup: come back to a prompt after a delay (a self-paced loop), or stop."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from pydantic import Field

from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.tool import Progress, ToolResult
from hands.tools.schedule._base import ScheduleTool, when
from hands.tools.schedule.jobs import MAX_DELAY_S, Job, Schedule, min_delay_s


class ScheduleWakeupInput(ToolInput):
    """Input of ScheduleWakeup."""

    ignored_fields: ClassVar[Mapping[str, str]] = {
        "noop": "ticks are not collapsed in hands' screen; say what changed in your reply",
    }

    delaySeconds: float | None = Field(
        default=None,
        allow_inf_nan=False,
        description=f"Seconds from now (taken within {60}-{MAX_DELAY_S}); needed unless stop",
    )
    reason: str | None = Field(
        default=None, description="One short sentence: why this delay (needed unless stop)"
    )
    prompt: str | None = Field(
        default=None,
        description="The prompt to come back to (the same each time, to keep a loop going)",
    )
    stop: bool = Field(default=False, description="true: cancel the pending wakeups instead")
    noop: bool | None = Field(default=None, exclude=True)


@dataclass(frozen=True, kw_only=True, slots=True)
class WakeupResult:
    """The wakeup scheduled, or how many were cancelled."""

    job: Job | None = None
    cancelled: int = 0


class ScheduleWakeupTool(ScheduleTool[ScheduleWakeupInput, WakeupResult]):
    """Schedule the next turn of a self-paced loop."""

    name = "ScheduleWakeup"
    description = (
        "Come back to a prompt after a delay, as a user turn, while this session runs: for "
        "a loop that paces itself (check CI again in 5 minutes). Give delaySeconds, a reason "
        "and the prompt; then end your turn. stop: true cancels the pending wakeups."
    )
    input_model = ScheduleWakeupInput
    search_hint = "wake up later, loop, check again after a delay"

    async def validate_input(self, input: ScheduleWakeupInput, ctx: ToolContext) -> str | None:
        if input.stop:
            return None
        missing = [
            name
            for name, value in (
                ("delaySeconds", input.delaySeconds),
                ("reason", input.reason),
                ("prompt", input.prompt),
            )
            if value is None or (isinstance(value, str) and not value.strip())
        ]
        if missing:
            verb = "is" if len(missing) == 1 else "are"
            return f"{', '.join(missing)} {verb} needed unless stop is true."
        return None

    async def call(
        self, input: ScheduleWakeupInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[WakeupResult]:
        schedule = Schedule.of(ctx.session)
        if input.stop:
            pending = [j for j in schedule.ordered() if j.kind == "wakeup"]
            for job in pending:
                schedule.remove(job.id)
            return ToolResult(output=WakeupResult(cancelled=len(pending)))
        delay = min(max(input.delaySeconds or 0.0, min_delay_s()), MAX_DELAY_S)
        now = time.time()
        job = Job(
            id="",
            prompt=input.prompt or "",
            at=now + delay,
            kind="wakeup",
            made=now,
            reason=input.reason or "",
        )
        return ToolResult(output=WakeupResult(job=schedule.add(job)))

    def to_content(self, output: WakeupResult) -> str:
        if output.job is None:
            return (
                f"Stopped: {output.cancelled} pending wakeup(s) cancelled; none will come. "
                "Tell the user how the loop ended."
            )
        return (
            f"The prompt comes back {when(output.job.at)} (wakeup {output.job.id}). End your "
            "turn now; say what changed first if the user should know."
        )
