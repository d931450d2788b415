"""Git worktrees made for a sub-agent or for the session: fresh, on a branch of their own.

A worktree is made from the project's current commit under the hands home, so the
user's checkout is never touched. A sub-agent's is removed with its branch at the end
when it has no changes (no edits, no commits), kept for the user to merge otherwise.

A configured WorktreeCreate hook replaces ``git worktree add`` (another version control
system, or git with a layout of the user's): it is given the name and answers the path.
Such a worktree is removed by the WorktreeRemove hook, or by git when none is
configured, and its branch, if any, is left alone. A sub-agent's is removed only when
git shows it clean at the commit it started from; anything hands cannot check is kept.
"""

from __future__ import annotations

import re
import secrets
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

from hands.config.safe_git import git_argv, git_env
from hands.core.lifecycle import WorktreeHookError, WorktreeHooks, worktree_hooks
from hands.errors import ToolError

if TYPE_CHECKING:
    from hands.core.context import ToolContext

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True, kw_only=True, slots=True)
class Worktree:
    """A worktree made for a sub-agent or the session."""

    path: Path
    branch: str
    repo: Path
    base: str
    """The commit it started from."""
    trusted: bool = False
    """Whether the repository's own programs (hooks, filters) may run."""
    made_by_hook: bool = False
    """A WorktreeCreate hook made it: ``branch`` and ``base`` are what git could tell."""


async def _git(cwd: Path, *args: str, trusted: bool = False) -> subprocess.CompletedProcess[bytes]:
    """Git for ``cwd``; unless ``trusted``, with the repository's programs switched off."""
    argv = git_argv(cwd, *args, trusted=trusted)
    return await anyio.run_process(argv, cwd=cwd, check=False, env=git_env(trusted=trusted))


def _out(proc: subprocess.CompletedProcess[bytes]) -> str:
    return proc.stdout.decode("utf-8", errors="replace").strip()


def _err(proc: subprocess.CompletedProcess[bytes]) -> str:
    return proc.stderr.decode("utf-8", errors="replace").strip()


async def create_worktree(
    project: Path,
    *,
    home: Path,
    label: str,
    name: str | None = None,
    trusted: bool = False,
    ctx: ToolContext | None = None,
) -> Worktree:
    """A new worktree of ``project``'s repository; ToolError when there is none.

    ``name``: the worktree's (and its branch's) exact name; default ``label`` and a
    random suffix. Unless the workspace is ``trusted``, the repository's hooks
    (``post-checkout``), filters and other programs do not run, now or later. With
    ``ctx``, a WorktreeCreate hook of the session makes it instead, when one is configured.
    """
    if name is None:
        name = f"{_UNSAFE.sub('-', label).strip('-')[:40] or 'agent'}-{secrets.token_hex(4)}"
    hooks = worktree_hooks(ctx)
    if ctx is not None and hooks is not None and hooks.makes_worktrees():
        return await _made_by_hook(project, hooks, ctx, name=name, trusted=trusted)
    try:
        top = await _git(project, "rev-parse", "--show-toplevel", trusted=trusted)
    except OSError as exc:
        raise ToolError(f"Worktree isolation needs git, which cannot be run: {exc}") from None
    if top.returncode != 0:
        raise ToolError(
            f"Worktree isolation needs a git repository, and {project} is not inside one. "
            "Run the agent without isolation, or initialise a repository first (for another "
            "version control system, a WorktreeCreate hook in the settings can make worktrees)."
        )
    repo = Path(_out(top))
    head = await _git(repo, "rev-parse", "--verify", "HEAD", trusted=trusted)
    if head.returncode != 0:
        raise ToolError(
            f"Worktree isolation needs a commit to start from, and the repository at {repo} "
            "has none yet."
        )
    path = home / "worktrees" / (_UNSAFE.sub("-", str(repo)).strip("-") or "root") / name
    if path.exists():
        raise ToolError(f"A worktree called {name!r} exists already at {path}; pick another name.")
    path.parent.mkdir(parents=True, exist_ok=True)
    branch = f"hands/{name}"
    made = await _git(repo, "worktree", "add", "-b", branch, str(path), _out(head), trusted=trusted)
    if made.returncode != 0:
        raise ToolError(f"The worktree could not be made: {_err(made)[:500]}")
    return Worktree(path=path, branch=branch, repo=repo, base=_out(head), trusted=trusted)


async def _made_by_hook(
    project: Path, hooks: WorktreeHooks, ctx: ToolContext, *, name: str, trusted: bool
) -> Worktree:
    """The worktree the WorktreeCreate hook made, with what git can tell of it."""
    try:
        made = await hooks.worktree_create(ctx, name=name)
    except WorktreeHookError as exc:
        raise ToolError(
            f"No worktree was made: {exc}. Fix the hook or its input, or go on without a "
            "worktree."
        ) from None
    if not made.is_dir():
        raise ToolError(
            f"No worktree was made: the WorktreeCreate hook answered {made}, which is not a "
            "directory. The hook must make the worktree and print its path."
        )
    path = made.resolve()
    repo, base = project, ""
    try:
        top = await _git(project, "rev-parse", "--show-toplevel", trusted=trusted)
        head = await _git(project, "rev-parse", "--verify", "HEAD", trusted=trusted)
        branch = await _git(path, "branch", "--show-current", trusted=trusted)
    except OSError:  # no git: nothing more to know
        return Worktree(path=path, branch="", repo=repo, base=base, trusted=trusted,
                        made_by_hook=True)  # fmt: skip
    if top.returncode == 0:
        repo = Path(_out(top))
    if head.returncode == 0:
        base = _out(head)
    return Worktree(
        path=path,
        branch=_out(branch) if branch.returncode == 0 else "",
        repo=repo,
        base=base,
        trusted=trusted,
        made_by_hook=True,
    )


async def has_changes(tree: Worktree) -> bool:
    """Edits (tracked or new files) or commits since the worktree was made."""
    status = await _git(tree.path, "status", "--porcelain", trusted=tree.trusted)
    if status.returncode != 0 or _out(status):
        return True  # when in doubt, keep it
    ahead = await _git(tree.path, "rev-list", "--count", f"{tree.base}..HEAD", trusted=tree.trusted)
    return ahead.returncode != 0 or _out(ahead) != "0"


async def changes(tree: Worktree) -> list[str]:
    """What would be lost with the worktree: changed files and commits, one line each."""
    out: list[str] = []
    status = await _git(tree.path, "status", "--porcelain", trusted=tree.trusted)
    if status.returncode != 0:
        return [f"(git status failed: {_err(status)[:200]})"]
    out += [f"changed: {line[3:]}" for line in _out(status).splitlines() if line.strip()]
    log = await _git(tree.path, "log", "--oneline", f"{tree.base}..HEAD", trusted=tree.trusted)
    if log.returncode != 0:
        return [*out, f"(git log failed: {_err(log)[:200]})"]
    out += [f"commit: {line}" for line in _out(log).splitlines() if line.strip()]
    return out


async def remove_worktree(
    tree: Worktree, *, branch: bool = True, ctx: ToolContext | None = None
) -> str | None:
    """Remove the worktree (and its branch); what refused, else None.

    A worktree a WorktreeCreate hook made goes through the WorktreeRemove hook (with
    ``ctx``), or ``git worktree remove`` when none is configured; its branch is kept.
    """
    with anyio.CancelScope(shield=True):
        if tree.made_by_hook:
            return await _remove_hook_made(tree, ctx)
        gone = await _git(
            tree.repo, "worktree", "remove", "--force", str(tree.path), trusted=tree.trusted
        )
        if gone.returncode != 0:
            return _err(gone)[:500] or "git worktree remove failed"
        if branch:
            await _git(tree.repo, "branch", "-D", tree.branch, trusted=tree.trusted)
    return None


async def _remove_hook_made(tree: Worktree, ctx: ToolContext | None) -> str | None:
    hooks = worktree_hooks(ctx)
    if ctx is not None and hooks is not None and hooks.removes_worktrees():
        try:
            await hooks.worktree_remove(ctx, worktree_path=tree.path)
        except WorktreeHookError as exc:
            return None if not tree.path.exists() else str(exc)
        return None
    gone = await _git(
        tree.repo, "worktree", "remove", "--force", str(tree.path), trusted=tree.trusted
    )
    if gone.returncode != 0:
        return (
            f"no WorktreeRemove hook is configured and git could not remove it "
            f"({_err(gone)[:300] or 'git worktree remove failed'})"
        )
    return None


async def _clean_at_base(tree: Worktree) -> bool:
    """A hook-made worktree that git shows unchanged at the commit the project was at."""
    if not tree.base:
        return False
    top = await _git(tree.path, "rev-parse", "--show-toplevel", trusted=tree.trusted)
    if top.returncode != 0 or _real(Path(_out(top))) != _real(tree.path):
        return False  # not a checkout of its own: nothing to go by
    head = await _git(tree.path, "rev-parse", "--verify", "HEAD", trusted=tree.trusted)
    if head.returncode != 0 or _out(head) != tree.base:
        return False
    return not await has_changes(tree)


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


async def finish_worktree(tree: Worktree, *, ctx: ToolContext | None = None) -> bool:
    """Remove the worktree and its branch unless it has changes; True when it is kept.

    A hook-made worktree is removed (see :func:`remove_worktree`) only when git shows it
    clean at the commit it started from; otherwise it is kept.
    """
    kept = True
    with anyio.CancelScope(shield=True):
        if tree.made_by_hook:
            if await _clean_at_base(tree):
                kept = await remove_worktree(tree, ctx=ctx) is not None
            return kept
        kept = await has_changes(tree)
        if not kept:
            await _git(
                tree.repo, "worktree", "remove", "--force", str(tree.path), trusted=tree.trusted
            )
            await _git(tree.repo, "branch", "-D", tree.branch, trusted=tree.trusted)
    return kept
