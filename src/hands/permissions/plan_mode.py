"""Plan mode, in one place: where the plan goes, what runs while planning, entering and leaving.

While a session plans it changes nothing: only read-only calls run, and the one file it
may write is its plan file. Whoever switches a session into plan mode (EnterPlanMode,
the REPL's Shift-Tab) records the mode it left with :func:`enter`. Whoever approves a
plan may choose the mode the session goes on in (the approval's
``PermissionDecision.mode_after``, which the call sees as ``ToolContext.approved_mode``);
:func:`leave` takes it, else the mode recorded, else ``default``.

The rule engine, the simple policy, the loop's reminder, compaction's note, sub-agents
(with or without a worktree) and the plan tools all ask this module, so they agree.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hands.core.context import PermissionMode
from hands.core.decision import PermissionDecision
from hands.core.messages import Message, TextBlock

if TYPE_CHECKING:
    from pydantic import BaseModel

    from hands.core.context import ToolContext
    from hands.core.session import Session
    from hands.core.tool import Tool

PLAN_FILE_NAME = "plan.md"


def planning(mode: PermissionMode | str) -> bool:
    """Whether a session in ``mode`` is planning."""
    return mode == "plan"


def plan_file(session: Session) -> Path:
    """The session's plan file: written in plan mode, shown to the user for approval.

    Sub-agents share their caller's session, so they (in a worktree too) share its plan.
    """
    return session.directory / PLAN_FILE_NAME


@dataclass(kw_only=True, slots=True)
class PlanState:
    """What a session remembers about plan mode (a session service)."""

    before: PermissionMode | None = None
    """The mode the session was in before it started planning; None: unknown."""


def plan_state(session: Session) -> PlanState:
    """The session's plan state."""
    return session.service(PlanState)


def enter(session: Session, before: PermissionMode) -> None:
    """The session starts planning, leaving ``before``."""
    if not planning(before):
        plan_state(session).before = before


def leave(session: Session, approved: PermissionMode | None = None) -> PermissionMode:
    """The mode to go on in once the plan is approved; forgets the mode before planning.

    ``approved``: the mode the approval chose, if it chose one.
    """
    state = plan_state(session)
    mode = approved or state.before or "default"
    state.before = None
    return "default" if planning(mode) else mode


def decision(
    tool: Tool[Any, Any], input: BaseModel, ctx: ToolContext, *, read_only: bool, label: str
) -> PermissionDecision | None:
    """In plan mode: allow writing the plan file, refuse other changes; None: not decided."""
    if not planning(ctx.permission_mode) or read_only or tool.allowed_in_plan_mode:
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


def reminder(ctx: ToolContext) -> Message | None:
    """The plan-mode note for the first request of a prompt made in plan mode; else None."""
    if not planning(ctx.permission_mode):
        return None
    path = plan_file(ctx.session)
    have = "It holds your plan so far; update it." if path.is_file() else "It does not exist yet."
    text = (
        "<system-reminder>\nPlan mode is on: you are planning, not changing anything. "
        "Only read-only tools run (reading, searching, read-only commands); every edit, "
        "write and command that changes something is refused. Write your plan to "
        f"{path}, the one file you may write. {have} When the plan is complete, call "
        "ExitPlanMode: the user approves it or tells you what to change.\n</system-reminder>"
    )
    return Message(role="user", content=(TextBlock(text=text),))


def carried(ctx: ToolContext) -> str | None:
    """Compaction's line on plan mode: still planning, or where the last plan is."""
    path = plan_file(ctx.session)
    if planning(ctx.permission_mode):
        return (
            "You are still in plan mode: only read-only tools run; write the plan to "
            f"{path} and ask for approval with ExitPlanMode when it is ready."
        )
    if path.is_file():
        return f"The plan file is {path}; it holds the current plan."
    return None


def worktree_refusal(mode: PermissionMode) -> str | None:
    """Why a worktree cannot be made in ``mode`` (it makes a branch and a checkout); else None."""
    if not planning(mode):
        return None
    return (
        "A worktree cannot be made in plan mode: it creates a branch and a checkout. "
        "Start the agent without isolation to research, or leave plan mode first."
    )
