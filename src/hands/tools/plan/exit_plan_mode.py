"""ExitPlanMode: show the plan to the user; on approval the session leaves plan mode.

The plan is what the model wrote to the session's plan file (or, from a hook's
``updatedInput``, the ``plan`` it gave). The call always needs an answer: the REPL's
plan question, the library's ask handler, or in print mode a PreToolUse hook's ``allow``
with ``updatedInput``; a session that planned from ``bypassPermissions`` goes back to it
without asking. Approved, the session returns to the mode it was in before planning (or
the one the user chose); refused, it keeps planning with the user's feedback.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import ConfigDict, Field
from pydantic.json_schema import SkipJsonSchema

from hands.core.context import PermissionMode, ToolContext
from hands.core.decision import PermissionDecision, allow
from hands.core.schema import ToolInput
from hands.core.tool import Progress, Tool, ToolResult
from hands.permissions.plan_mode import leave as leave_plan_mode
from hands.permissions.plan_mode import plan_file, plan_state, planning

if TYPE_CHECKING:
    from rich.console import RenderableType

MAX_PLAN_CHARS = 100_000


class ExitPlanModeInput(ToolInput):
    """No input from the model; hooks see (and may replace) the plan and its file.

    Other keys are accepted and dropped, as Claude Code's schema takes any.
    """

    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)
    ignored_fields: ClassVar[Mapping[str, str]] = {
        "allowed_prompts": "an approved plan grants no command permissions in hands; each "
        "command is checked against the permission rules when it runs",
    }

    allowed_prompts: SkipJsonSchema[list[dict[str, Any]] | None] = Field(
        default=None, alias="allowedPrompts", exclude=True
    )
    plan: SkipJsonSchema[str | None] = Field(default=None, exclude=True)
    plan_file_path: SkipJsonSchema[str | None] = Field(
        default=None, alias="planFilePath", exclude=True
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class ExitPlanModeResult:
    """The approved plan and the mode the session goes on in."""

    plan: str
    plan_file: str
    mode: PermissionMode


def read_plan(input: ExitPlanModeInput, ctx: ToolContext) -> str:
    """The plan: the one a hook gave, else the plan file's text ("" when there is none)."""
    if input.plan is not None and input.plan.strip():
        return input.plan
    try:
        return plan_file(ctx.session).read_text(encoding="utf-8", errors="replace")[:MAX_PLAN_CHARS]
    except OSError:
        return ""


class ExitPlanModeTool(Tool[ExitPlanModeInput, ExitPlanModeResult]):
    """Ask the user to approve the plan and leave plan mode."""

    name = "ExitPlanMode"
    aliases = ("exit_plan_mode",)
    description = (
        "Use in plan mode once your plan is written to the plan file: the user is shown the "
        "plan and approves it (the session leaves plan mode and you carry it out) or asks "
        "you to keep planning with their feedback. Write the plan to the file first; this "
        "tool takes no input. Only for plans of changes to make, not for research answers."
    )
    input_model = ExitPlanModeInput
    allowed_in_plan_mode = True
    hook_allow_needs_input = True
    subagent_use = "in_plan_mode"

    def user_facing_name(self, input: ExitPlanModeInput | None = None) -> str:
        return "Plan ready"

    def describe_input(self, input: ExitPlanModeInput) -> str:
        return "the plan"

    def render_use(self, input: ExitPlanModeInput) -> RenderableType:
        from hands.core.render import use_line

        return use_line("Plan ready for your review", "")

    def observable_input(self, input: ExitPlanModeInput, ctx: ToolContext) -> Mapping[str, Any]:
        return {"plan": read_plan(input, ctx), "planFilePath": str(plan_file(ctx.session))}

    async def validate_input(self, input: ExitPlanModeInput, ctx: ToolContext) -> str | None:
        if not planning(ctx.permission_mode):
            return (
                "You are not in plan mode, so there is no plan to approve. Go on with the "
                "task; call EnterPlanMode first if it needs a plan."
            )
        if not read_plan(input, ctx).strip():
            return (
                f"There is no plan yet: write it to {plan_file(ctx.session)} first, then "
                "call ExitPlanMode again."
            )
        return None

    async def check_permissions(
        self, input: ExitPlanModeInput, ctx: ToolContext
    ) -> PermissionDecision:
        if plan_state(ctx.session).before == "bypassPermissions":
            return allow("planned from bypassPermissions")
        return PermissionDecision(
            behavior="ask",
            message=(
                f"The plan in {plan_file(ctx.session)} needs the user's approval before plan "
                "mode can end; until then the session stays in plan mode."
            ),
            reason="a plan needs the user's approval",
            hook_can_approve=True,
            hook_needs_input=True,
        )

    async def preview(self, input: ExitPlanModeInput, ctx: ToolContext) -> str | None:
        return f"{read_plan(input, ctx).rstrip()}\n\n(saved in {plan_file(ctx.session)})"

    async def call(
        self, input: ExitPlanModeInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[ExitPlanModeResult]:
        plan = read_plan(input, ctx)
        mode = leave_plan_mode(ctx.session, ctx.approved_mode)

        def leave(context: ToolContext) -> ToolContext:
            return context.with_changes(permission_mode=mode)

        result = ExitPlanModeResult(plan=plan, plan_file=str(plan_file(ctx.session)), mode=mode)
        return ToolResult(output=result, context_modifier=leave)

    def to_content(self, output: ExitPlanModeResult) -> str:
        edits = (
            "file edits go ahead without asking"
            if output.mode == "acceptEdits"
            else "calls are checked as usual"
        )
        return (
            f"The user approved your plan. Plan mode is off (mode {output.mode}: {edits}); "
            "carry out the plan now, starting with its first step, and keep the plan file "
            f"({output.plan_file}) up to date if it changes.\n\nThe approved plan:\n"
            f"{output.plan}"
        )
