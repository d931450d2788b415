"""EnterPlanMode: the session switches to plan mode (read-only) to plan before changing."""

from __future__ import annotations

from dataclasses import dataclass

from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.tool import Progress, Tool, ToolResult
from hands.permissions.plan_mode import enter, plan_file, planning


class EnterPlanModeInput(ToolInput):
    """EnterPlanMode takes no input."""


@dataclass(frozen=True, kw_only=True, slots=True)
class EnterPlanModeResult:
    """Where the plan goes, and whether the session was planning already."""

    plan_file: str
    already: bool = False


class EnterPlanModeTool(Tool[EnterPlanModeInput, EnterPlanModeResult]):
    """Switch to plan mode: explore read-only, write a plan, have it approved."""

    name = "EnterPlanMode"
    description = (
        "Switch this session to plan mode before a change that needs thought: a new "
        "feature, a change across several files, a choice between approaches. In plan mode "
        "only read-only tools run. Explore the code, write your plan to the plan file named "
        "in the result, then call ExitPlanMode so the user can approve it. Not for small, "
        "clear changes or plain questions."
    )
    input_model = EnterPlanModeInput
    should_defer = True
    subagent_use = "in_plan_mode"

    def is_read_only(self, input: EnterPlanModeInput) -> bool:
        # it changes no file, and only makes the session stricter
        return True

    def user_facing_name(self, input: EnterPlanModeInput | None = None) -> str:
        return "Plan mode"

    async def call(
        self, input: EnterPlanModeInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[EnterPlanModeResult]:
        path = str(plan_file(ctx.session))
        if planning(ctx.permission_mode):
            return ToolResult(output=EnterPlanModeResult(plan_file=path, already=True))
        enter(ctx.session, ctx.permission_mode)

        def to_plan(context: ToolContext) -> ToolContext:
            return context.with_changes(permission_mode="plan")

        return ToolResult(output=EnterPlanModeResult(plan_file=path), context_modifier=to_plan)

    def to_content(self, output: EnterPlanModeResult) -> str:
        start = (
            "You are already in plan mode."
            if output.already
            else "Plan mode is on: you are planning now."
        )
        return (
            f"{start} Only read-only tools run until the user approves a plan; do not "
            "change files or run commands that change anything. Explore what you need, "
            f"then write the plan to {output.plan_file} (the one file you may write) and "
            "call ExitPlanMode to ask the user to approve it."
        )
