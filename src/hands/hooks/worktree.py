"""What WorktreeCreate and WorktreeRemove hooks answered, as Claude Code reads it.

WorktreeCreate replaces ``git worktree add``: the path comes from the first hook that
succeeded with one, the last non-empty line of a command's stdout or an HTTP or Python
hook's ``hookSpecificOutput.worktreePath``; a relative path is taken from the cwd the
hook ran in. When none gave a path, the creation fails, naming the hooks that failed
and what they said (a ``decision: "block"`` answer counts as a failure). WorktreeRemove
fails when one of its hooks did.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from hands.core.lifecycle import WorktreeHookError
from hands.hooks.output import HookResult, first_line


def _printed_path(result: HookResult) -> str:
    if result.worktree_path:
        return result.worktree_path
    lines = [line.strip() for line in result.plain_text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _failed(result: HookResult) -> bool:
    return result.failed or result.blocking  # a ``decision: block`` answer refuses too


def _failures(results: Sequence[HookResult]) -> list[str]:
    out: list[str] = []
    for result in results:
        if not _failed(result):
            continue
        if result.reason:  # exit 2 (its stderr) or a block's reason
            out.append(f"{result.handler.label}: {first_line(result.reason)}")
        else:  # the notice names the handler, its exit code and first line of stderr
            out.append(first_line(result.notice) or f"{result.handler.label}: no output")
    return out


def created_path(results: Sequence[HookResult], *, cwd: Path) -> Path:
    """The worktree the WorktreeCreate hooks made (absolute), or WorktreeHookError."""
    for result in results:
        if _failed(result):
            continue
        printed = _printed_path(result)
        if printed:
            path = Path(printed).expanduser()
            return path if path.is_absolute() else cwd / path
    if not results:
        raise WorktreeHookError(
            "the WorktreeCreate hook is configured but none of its handlers ran (an async "
            "handler cannot make a worktree)"
        )
    failed = _failures(results)
    if failed:
        raise WorktreeHookError("the WorktreeCreate hook failed: " + "; ".join(failed))
    raise WorktreeHookError(
        "the WorktreeCreate hook succeeded but gave no worktree path (a command prints the "
        "path as the last line of its stdout; an HTTP or Python hook answers "
        "hookSpecificOutput.worktreePath)"
    )


def check_removed(results: Sequence[HookResult]) -> None:
    """WorktreeHookError when a WorktreeRemove hook failed."""
    failed = _failures(results)
    if failed:
        raise WorktreeHookError("the WorktreeRemove hook failed: " + "; ".join(failed))
