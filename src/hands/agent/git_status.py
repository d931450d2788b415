"""The ``git status`` summary of the system prompt, and starting it early.

Started by the command line before it loads anything else, git runs in a thread while
the session is set up; the first prompt for that directory takes its answer.
"""

from __future__ import annotations

import threading
from pathlib import Path

GIT_TIMEOUT_S = 2.0


def git_summary(cwd: Path, *, trusted: bool | None = None) -> str:
    """``git status --short --branch`` (first 30 lines), or "" outside a repository.

    ``trusted``: whether the workspace is trusted (``None``: the trusted-workspaces
    file); untrusted, git runs none of the programs the repository names
    (:mod:`hands.config.safe_git`: ``core.fsmonitor``, hooks, filters...).
    """
    from hands.config.safe_git import git_argv, run_git

    if trusted is None:
        from hands.config.trust import is_trusted

        trusted = is_trusted(cwd)
    argv = git_argv(cwd, "status", "--short", "--branch", trusted=trusted)
    out = run_git(argv, cwd=cwd, trusted=trusted, timeout=GIT_TIMEOUT_S)
    if out is None:
        return ""
    lines = out.decode("utf-8", errors="replace").splitlines()
    more = f"\n… {len(lines) - 30} more" if len(lines) > 30 else ""
    return "\n".join(lines[:30]) + more


class _Early:
    """A ``git status`` started ahead of the prompt that needs it."""

    def __init__(self, cwd: Path) -> None:
        self.done = threading.Event()
        self.summary = ""
        self._thread = threading.Thread(target=self._run, args=(cwd,), daemon=True)
        self._thread.start()

    def _run(self, cwd: Path) -> None:
        try:
            self.summary = git_summary(cwd)
        finally:
            self.done.set()


_early: dict[Path, _Early] = {}


def start_git_summary(cwd: Path) -> None:
    """Run :func:`git_summary` for ``cwd`` in a thread now, while the session starts.

    The first system prompt built for ``cwd`` takes its answer instead of
    running git itself (the command line calls this before it loads anything else).
    """
    if cwd not in _early:
        _early[cwd] = _Early(cwd)


def git_summary_for_prompt(cwd: Path) -> str:
    """The early answer for ``cwd`` if one was started (used once), else git's now."""
    early = _early.pop(cwd, None)
    if early is not None and early.done.wait(GIT_TIMEOUT_S + 1.0):
        return early.summary
    return git_summary(cwd)
