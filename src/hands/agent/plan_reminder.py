"""The plan-mode reminder: what plan mode allows, and where the plan goes."""

from __future__ import annotations

from hands.core.context import ToolContext
from hands.core.messages import Message, TextBlock
from hands.core.plan_file import plan_file

MARK = "<system-reminder>\nPlan mode"


def plan_mode_reminder(ctx: ToolContext) -> Message | None:
    """The plan-mode note for the first request of a prompt made in plan mode; else None."""
    if ctx.permission_mode != "plan":
        return None
    path = plan_file(ctx.session)
    have = "It holds your plan so far; update it." if path.is_file() else "It does not exist yet."
    text = (
        f"{MARK} is on: you are planning, not changing anything. Only read-only tools run "
        "(reading, searching, read-only commands); every edit, write and command that "
        f"changes something is refused. Write your plan to {path}, the one file you may "
        f"write. {have} When the plan is complete, call ExitPlanMode: the user approves it "
        "or tells you what to change.\n</system-reminder>"
    )
    return Message(role="user", content=(TextBlock(text=text),))
