"""The session's background shells as the user sees them: list, read, stop.

A front end (the REPL's ``/tasks``) uses these, not the registry's own module.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from hands.core.session import Session
from hands.tools.bash._shells import BackgroundShells


@dataclass(frozen=True, kw_only=True, slots=True)
class ShellInfo:
    """One background shell, as it stands."""

    id: str
    command: str
    description: str | None
    status: str
    """``running``, ``completed``, ``failed`` or ``killed``."""
    exit_code: int | None
    seconds: float
    """How long it has run (so far, while it runs)."""
    output_path: Path


def shells(session: Session) -> list[ShellInfo]:
    """Every background shell of ``session``, oldest first."""
    now = time.monotonic()
    return [
        ShellInfo(
            id=task.id,
            command=task.command,
            description=task.description,
            status=task.status,
            exit_code=task.exit_code,
            seconds=now - task.started_at,
            output_path=task.output_path,
        )
        for task in session.service(BackgroundShells).tasks()
    ]


async def stop_shell(session: Session, shell_id: str) -> ShellInfo | None:
    """Stop the shell ``shell_id`` (its whole process tree); None when there is none."""
    registry = session.service(BackgroundShells)
    task = registry.get(shell_id)
    if task is None:
        return None
    await registry.stop(task)
    return next(s for s in shells(session) if s.id == shell_id)
