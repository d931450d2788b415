"""Git worktrees made for a sub-agent or for the session: fresh, on a branch of their own.

A worktree is made from the project's current commit under the hands home, so the
user's checkout is never touched. A sub-agent's is removed with its branch at the end
when it has no changes (no edits, no commits), kept for the user to merge otherwise.
"""

from __future__ import annotations

import re
import secrets
import subprocess
from dataclasses import dataclass
from pathlib import Path

import anyio

from hands.errors import ToolError

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True, kw_only=True, slots=True)
class Worktree:
    """A worktree made for a sub-agent or the session."""

    path: Path
    branch: str
    repo: Path
    base: str
    """The commit it started from."""


async def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return await anyio.run_process(["git", *args], cwd=cwd, check=False)


def _out(proc: subprocess.CompletedProcess[bytes]) -> str:
    return proc.stdout.decode("utf-8", errors="replace").strip()


def _err(proc: subprocess.CompletedProcess[bytes]) -> str:
    return proc.stderr.decode("utf-8", errors="replace").strip()


async def create_worktree(
    project: Path, *, home: Path, label: str, name: str | None = None
) -> Worktree:
    """A new worktree of ``project``'s repository; ToolError when there is none.

    ``name``: the worktree's (and its branch's) exact name; default ``label`` and a
    random suffix.
    """
    try:
        top = await _git(project, "rev-parse", "--show-toplevel")
    except OSError as exc:
        raise ToolError(f"Worktree isolation needs git, which cannot be run: {exc}") from None
    if top.returncode != 0:
        raise ToolError(
            f"Worktree isolation needs a git repository, and {project} is not inside one. "
            "Run the agent without isolation, or initialise a repository first."
        )
    repo = Path(_out(top))
    head = await _git(repo, "rev-parse", "--verify", "HEAD")
    if head.returncode != 0:
        raise ToolError(
            f"Worktree isolation needs a commit to start from, and the repository at {repo} "
            "has none yet."
        )
    if name is None:
        name = f"{_UNSAFE.sub('-', label).strip('-')[:40] or 'agent'}-{secrets.token_hex(4)}"
    path = home / "worktrees" / (_UNSAFE.sub("-", str(repo)).strip("-") or "root") / name
    if path.exists():
        raise ToolError(f"A worktree called {name!r} exists already at {path}; pick another name.")
    path.parent.mkdir(parents=True, exist_ok=True)
    branch = f"hands/{name}"
    made = await _git(repo, "worktree", "add", "-b", branch, str(path), _out(head))
    if made.returncode != 0:
        raise ToolError(f"The worktree could not be made: {_err(made)[:500]}")
    return Worktree(path=path, branch=branch, repo=repo, base=_out(head))


async def has_changes(tree: Worktree) -> bool:
    """Edits (tracked or new files) or commits since the worktree was made."""
    status = await _git(tree.path, "status", "--porcelain")
    if status.returncode != 0 or _out(status):
        return True  # when in doubt, keep it
    ahead = await _git(tree.path, "rev-list", "--count", f"{tree.base}..HEAD")
    return ahead.returncode != 0 or _out(ahead) != "0"


async def changes(tree: Worktree) -> list[str]:
    """What would be lost with the worktree: changed files and commits, one line each."""
    out: list[str] = []
    status = await _git(tree.path, "status", "--porcelain")
    if status.returncode != 0:
        return [f"(git status failed: {_err(status)[:200]})"]
    out += [f"changed: {line[3:]}" for line in _out(status).splitlines() if line.strip()]
    log = await _git(tree.path, "log", "--oneline", f"{tree.base}..HEAD")
    if log.returncode != 0:
        return [*out, f"(git log failed: {_err(log)[:200]})"]
    out += [f"commit: {line}" for line in _out(log).splitlines() if line.strip()]
    return out


async def remove_worktree(tree: Worktree, *, branch: bool = True) -> str | None:
    """Remove the worktree (and its branch); what git said when it refused, else None."""
    with anyio.CancelScope(shield=True):
        gone = await _git(tree.repo, "worktree", "remove", "--force", str(tree.path))
        if gone.returncode != 0:
            return _err(gone)[:500] or "git worktree remove failed"
        if branch:
            await _git(tree.repo, "branch", "-D", tree.branch)
    return None


def _real(path: Path) -> Path:
    return path.resolve()


async def existing_worktree(project: Path, path: Path) -> Worktree | None:
    """The worktree at ``path`` if ``git worktree list`` of ``project``'s repository has it."""
    listed = await _git(project, "worktree", "list", "--porcelain")
    if listed.returncode != 0:
        return None
    top = await _git(project, "rev-parse", "--show-toplevel")
    wanted = _real(path)
    entry: dict[str, str] = {}
    for line in [*_out(listed).splitlines(), ""]:
        if line.strip():
            key, _, value = line.partition(" ")
            entry[key] = value
            continue
        if entry.get("worktree") and _real(Path(entry["worktree"])) == wanted:
            branch = entry.get("branch", "").removeprefix("refs/heads/")
            return Worktree(
                path=wanted, branch=branch, repo=Path(_out(top)), base=entry.get("HEAD", "")
            )
        entry = {}
    return None


async def finish_worktree(tree: Worktree) -> bool:
    """Remove the worktree and its branch unless it has changes; True when it is kept."""
    kept = True
    with anyio.CancelScope(shield=True):
        kept = await has_changes(tree)
        if not kept:
            await _git(tree.repo, "worktree", "remove", "--force", str(tree.path))
            await _git(tree.repo, "branch", "-D", tree.branch)
    return kept
