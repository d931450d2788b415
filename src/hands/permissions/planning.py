"""Plan mode's part of a decision: only read-only calls, the plan file, and leaving it.

Shared by the rule engine and the simple policy so that both refuse the same calls with
the same words: the model is told it is planning, where its plan goes, and how to leave.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from hands.core.decision import PermissionDecision
from hands.core.plan_file import plan_file

if TYPE_CHECKING:
    from pydantic import BaseModel

    from hands.core.context import ToolContext
    from hands.core.tool import Tool


def plan_mode_decision(
    tool: Tool[Any, Any], input: BaseModel, ctx: ToolContext, *, read_only: bool, label: str
) -> PermissionDecision | None:
    """In plan mode: allow writing the plan file, refuse other changes; None: not decided."""
    if ctx.permission_mode != "plan" or read_only or tool.allowed_in_plan_mode:
        return None
    if writes_plan_file(tool, input, ctx):
        return PermissionDecision(behavior="allow", reason="the plan file, in plan mode")
    return PermissionDecision(
        behavior="deny",
        message=(
            f"{label} was not run: you are planning (plan mode), and while planning only "
            "read-only tools run; nothing may be changed yet. Keep exploring with read-only "
            f"tools, write your plan to {plan_file(ctx.session)}, then call the tool that "
            "leaves plan mode to show it to the user for approval."
        ),
        reason="mode plan",
    )


def writes_plan_file(tool: Tool[Any, Any], input: BaseModel, ctx: ToolContext) -> bool:
    """Whether this call writes the session's plan file (and nothing else)."""
    subject = tool.permission_subject(input, ctx)
    if subject is None or subject.kind != "write" or not subject.value.strip():
        return False
    target = os.path.normpath(ctx.resolve(subject.value.strip()))
    plan = os.path.normpath(plan_file(ctx.session))
    # the path named, and where it really leads: a link to the plan file is not it
    return target == plan and os.path.realpath(target) == os.path.realpath(plan)
