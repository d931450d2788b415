"""Worktree isolation: a sub-agent works in a fresh git worktree on its own branch.

The worktree is made from the project's current commit under the hands home, so the
user's checkout is never touched. At the end one without changes (no edits, no commits)
is removed with its branch; one with changes is kept for the user to merge.
"""

from __future__ import annotations

import re
import secrets
import subprocess
from dataclasses import dataclass
from pathlib import Path

import anyio

from hands.config.safe_git import git_argv, git_env
from hands.errors import ToolError

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True, kw_only=True, slots=True)
class Worktree:
    """A worktree made for one sub-agent."""

    path: Path
    branch: str
    repo: Path
    base: str
    """The commit it started from."""
    trusted: bool = False
    """Whether the repository's own programs (hooks, filters) may run."""


async def _git(cwd: Path, *args: str, trusted: bool) -> subprocess.CompletedProcess[bytes]:
    """Git for ``cwd``; untrusted, with the repository's programs switched off."""
    argv = git_argv(cwd, *args, trusted=trusted)
    return await anyio.run_process(argv, cwd=cwd, check=False, env=git_env(trusted=trusted))


def _out(proc: subprocess.CompletedProcess[bytes]) -> str:
    return proc.stdout.decode("utf-8", errors="replace").strip()


def _err(proc: subprocess.CompletedProcess[bytes]) -> str:
    return proc.stderr.decode("utf-8", errors="replace").strip()


async def create_worktree(
    project: Path, *, home: Path, label: str, trusted: bool = False
) -> Worktree:
    """A new worktree of ``project``'s repository; ToolError when there is none.

    Unless the workspace is ``trusted``, the repository's hooks (``post-checkout``),
    filters and other programs do not run, now or when the worktree is finished.
    """
    try:
        top = await _git(project, "rev-parse", "--show-toplevel", trusted=trusted)
    except OSError as exc:
        raise ToolError(f"Worktree isolation needs git, which cannot be run: {exc}") from None
    if top.returncode != 0:
        raise ToolError(
            f"Worktree isolation needs a git repository, and {project} is not inside one. "
            "Run the agent without isolation, or initialise a repository first."
        )
    repo = Path(_out(top))
    head = await _git(repo, "rev-parse", "--verify", "HEAD", trusted=trusted)
    if head.returncode != 0:
        raise ToolError(
            f"Worktree isolation needs a commit to start from, and the repository at {repo} "
            "has none yet."
        )
    name = f"{_UNSAFE.sub('-', label).strip('-')[:40] or 'agent'}-{secrets.token_hex(4)}"
    path = home / "worktrees" / (_UNSAFE.sub("-", str(repo)).strip("-") or "root") / name
    path.parent.mkdir(parents=True, exist_ok=True)
    branch = f"hands/{name}"
    made = await _git(repo, "worktree", "add", "-b", branch, str(path), _out(head), trusted=trusted)
    if made.returncode != 0:
        raise ToolError(f"The worktree could not be made: {_err(made)[:500]}")
    return Worktree(path=path, branch=branch, repo=repo, base=_out(head), trusted=trusted)


async def has_changes(tree: Worktree) -> bool:
    """Edits (tracked or new files) or commits since the worktree was made."""
    status = await _git(tree.path, "status", "--porcelain", trusted=tree.trusted)
    if status.returncode != 0 or _out(status):
        return True  # when in doubt, keep it
    ahead = await _git(tree.path, "rev-list", "--count", f"{tree.base}..HEAD", trusted=tree.trusted)
    return ahead.returncode != 0 or _out(ahead) != "0"


async def finish_worktree(tree: Worktree) -> bool:
    """Remove the worktree and its branch unless it has changes; True when it is kept."""
    kept = True
    with anyio.CancelScope(shield=True):
        kept = await has_changes(tree)
        if not kept:
            await _git(
                tree.repo, "worktree", "remove", "--force", str(tree.path), trusted=tree.trusted
            )
            await _git(tree.repo, "branch", "-D", tree.branch, trusted=tree.trusted)
    return kept
