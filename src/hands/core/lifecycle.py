"""Lifecycle hooks a tool can reach: WorktreeCreate and WorktreeRemove.

The code that makes and removes worktrees (EnterWorktree, ExitWorktree, a sub-agent's
``isolation: "worktree"``) sits below the hook engine, so it reaches the configured
hooks through :class:`WorktreeHooks`, which the engine implements. The running query
(``ToolContext.host``) offers them as :class:`LifecycleHost`; :func:`worktree_hooks`
finds them from a call's context.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from hands.core.context import ToolContext


class WorktreeHookError(Exception):
    """A WorktreeCreate or WorktreeRemove hook failed; the message says how, for the model."""


@runtime_checkable
class WorktreeHooks(Protocol):
    """The hooks that make and remove worktrees in git's place."""

    def makes_worktrees(self) -> bool:
        """Whether a WorktreeCreate hook is configured: it then replaces ``git worktree add``."""
        ...

    def removes_worktrees(self) -> bool:
        """Whether a WorktreeRemove hook is configured."""
        ...

    async def worktree_create(self, ctx: ToolContext, *, name: str) -> Path:
        """Run the WorktreeCreate hooks; the absolute path of the worktree one made.

        Raises :class:`WorktreeHookError` when every hook failed or none printed a path.
        """
        ...

    async def worktree_remove(self, ctx: ToolContext, *, worktree_path: Path) -> None:
        """Run the WorktreeRemove hooks; :class:`WorktreeHookError` when one failed."""
        ...


@runtime_checkable
class LifecycleHost(Protocol):
    """What runs the calls (the query) and knows the session's lifecycle hooks."""

    @property
    def worktree_hooks(self) -> WorktreeHooks | None:
        """The hooks that make and remove worktrees, if the session has any."""
        ...


def worktree_hooks(ctx: ToolContext | None) -> WorktreeHooks | None:
    """The lifecycle hooks of the query running a call, or None outside one."""
    host = ctx.host if ctx is not None else None
    return host.worktree_hooks if isinstance(host, LifecycleHost) else None
