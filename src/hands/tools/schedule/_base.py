"""What the scheduling tools share: the session's own schedule, changed without asking."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from hands.core.context import ToolContext
from hands.core.decision import PermissionDecision, allow
from hands.core.tool import InputT, OutputT, Tool
from hands.tools.schedule.jobs import Job


class ScheduleTool(Tool[InputT, OutputT]):
    """A tool of the session's schedule: a prompt for later changes no file, so no asking.

    Not read-only (a scheduled prompt will act), so plan mode refuses it.
    """

    should_defer = True

    async def check_permissions(self, input: Any, ctx: ToolContext) -> PermissionDecision:
        return allow("the session's own schedule; the prompt's calls are checked when it runs")


def when(at: float) -> str:
    """``06:15 (in 2 min)`` in local time."""
    left = max(0, round(at - time.time()))
    stamp = datetime.fromtimestamp(at).astimezone().strftime("%Y-%m-%d %H:%M")
    return (
        f"{stamp} (in {left // 60} min {left % 60} s)" if left >= 60 else f"{stamp} (in {left} s)"
    )


def job_line(job: Job) -> str:
    """One job as the model reads it."""
    if job.kind == "wakeup":
        what = f"wakeup ({job.reason})" if job.reason else "wakeup"
    else:
        what = f"{job.cron} {'recurring' if job.recurring else 'once'}"
        if job.durable:
            what += " durable"
    prompt = job.prompt if len(job.prompt) <= 80 else job.prompt[:79] + "…"
    return f"{job.id}  next {when(job.at)}  {what}: {prompt}"
