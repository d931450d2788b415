"""The REPL's plan approval: approve (asking, or auto-accepting edits), or keep planning."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hands.core.decision import PermissionDecision
from hands.tools.plan.exit_plan_mode import ExitPlanModeTool

if TYPE_CHECKING:
    from hands.core.decision import AskRequest
    from hands.permissions.asking import Prompt

CHOICES = (
    "  1. Yes, and keep asking before edits and commands",
    "  2. Yes, and auto-accept file edits",
    "  3. No, keep planning (tell the model what to change)",
)


def is_plan_approval(request: AskRequest) -> bool:
    """Whether ``request`` asks the user to approve a plan."""
    return isinstance(request.tool, ExitPlanModeTool)


async def ask_plan_approval(request: AskRequest, prompt: Prompt) -> PermissionDecision:
    """Show the plan and ask; the approval chooses the mode the session goes on in."""
    from hands.permissions.asking import visible

    preview = await request.tool.preview(request.input, request.context) or ""
    lines = ["The model has a plan for your approval:", "", *_indented(preview), ""]
    question = "\n".join([*lines, "Go ahead with this plan?", *CHOICES])
    answer = (await prompt(visible(question) + "\n> ")).strip().lower()
    if answer in ("1", "y", "yes"):
        return PermissionDecision(
            behavior="allow", reason="plan approved by the user", mode_after="default"
        )
    if answer in ("2", "a", "auto"):
        return PermissionDecision(
            behavior="allow", reason="plan approved, edits auto-accepted", mode_after="acceptEdits"
        )
    feedback = "" if answer in ("", "3", "n", "no") else answer
    if not feedback:
        feedback = (await prompt("What should change in the plan? (optional): ")).strip()
    message = "The user did not approve the plan; you are still in plan mode. Keep planning"
    message += f". The user says: {feedback}" if feedback else " and ask the user what to change."
    return PermissionDecision(behavior="deny", message=message, reason="plan not approved")


def _indented(text: str) -> list[str]:
    return [f"    {line}" for line in text.splitlines()]
