"""Which worktree the session moved into, and where it came from."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hands.tools.worktree.trees import Worktree


@dataclass(frozen=True, kw_only=True, slots=True)
class Entered:
    """The session's stay in a worktree."""

    tree: Worktree
    created: bool
    """Made by EnterWorktree (ExitWorktree may remove it), not an existing one entered."""
    cwd: Path
    project_dir: Path | None
    """Where the session was before: it goes back there."""


class SessionWorktree:
    """The worktree the session is in, if EnterWorktree moved it (a session service)."""

    def __init__(self) -> None:
        self.entered: Entered | None = None
