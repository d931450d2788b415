"""Where a session's plan lives while it plans (plan mode), known to every layer."""

from __future__ import annotations

from pathlib import Path

from hands.core.session import Session

PLAN_FILE_NAME = "plan.md"


def plan_file(session: Session) -> Path:
    """The session's plan file: written in plan mode, shown to the user for approval."""
    return session.directory / PLAN_FILE_NAME
