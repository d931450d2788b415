"""A session's plan mode: the mode it left to plan, and the mode an approval chose.

Whoever switches a session into plan mode (EnterPlanMode, the REPL's Shift-Tab) records
the mode it was in with :func:`entered`; whoever approves a plan may choose the mode the
session goes on in with :func:`approve` (the REPL's "approve and auto-accept edits").
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
    approved_mode: PermissionMode | None = None
    """The mode the user chose when approving the plan; None: not chosen."""


def plan_state(session: Session) -> PlanState:
    """The session's plan state."""
    return session.service(PlanState)


def entered(session: Session, before: PermissionMode) -> None:
    """The session starts planning, leaving ``before``."""
    state = plan_state(session)
    if before != "plan":
        state.before = before
    state.approved_mode = None


def approve(session: Session, mode: PermissionMode | None) -> None:
    """The user approved the plan and wants ``mode`` next (None: the mode before)."""
    plan_state(session).approved_mode = mode


def mode_after(session: Session) -> PermissionMode:
    """The mode to go on in once the plan is approved; forgets the choice."""
    state = plan_state(session)
    mode = state.approved_mode or state.before or "default"
    state.approved_mode = None
    state.before = None
    return "default" if mode == "plan" else mode
