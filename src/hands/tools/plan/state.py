"""A session's plan mode: the mode it left to plan, and the mode an approval chose.

Whoever switches a session into plan mode (EnterPlanMode, the REPL's Shift-Tab) records
the mode it was in with :func:`entered`. Whoever approves a plan may choose the mode the
session goes on in: the approval's ``PermissionDecision.mode_after`` (the REPL's "approve
and auto-accept edits"), which the call sees as ``ToolContext.approved_mode``.
ExitPlanMode takes the approved mode, else the one recorded, else ``default``.
"""

from __future__ import annotations

from dataclasses import dataclass

from hands.core.context import PermissionMode
from hands.core.session import Session


@dataclass(kw_only=True, slots=True)
class PlanState:
    """What a session remembers about plan mode."""

    before: PermissionMode | None = None
    """The mode the session was in before it started planning; None: unknown."""


def plan_state(session: Session) -> PlanState:
    """The session's plan state."""
    return session.service(PlanState)


def entered(session: Session, before: PermissionMode) -> None:
    """The session starts planning, leaving ``before``."""
    state = plan_state(session)
    if before != "plan":
        state.before = before


def mode_after(session: Session, approved: PermissionMode | None = None) -> PermissionMode:
    """The mode to go on in once the plan is approved; forgets the mode before planning.

    ``approved``: the mode the approval chose, if it chose one.
    """
    state = plan_state(session)
    mode = approved or state.before or "default"
    state.before = None
    return "default" if mode == "plan" else mode
