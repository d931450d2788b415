"""Hooks: Claude Code's command and HTTP hooks, and Python callbacks, at every event.

``HookEngine`` (:mod:`hands.hooks.engine`) implements the pipeline's
:class:`ToolHooks` and the loop's :class:`LoopHooks`; build it from loaded settings
with :func:`build_hooks`, and register Python hooks with :class:`HookCallbacks`.
Names other than the seam types are imported on first use.
"""

import typing

from hands import _lazy
from hands.core.hooks import (
    DeferringHooks,
    LoopHookOutcome,
    LoopHooks,
    PendingContext,
    PermissionHooks,
    PostToolUseOutcome,
    PreToolUseOutcome,
    SessionEndReason,
    SessionStartSource,
    ToolHooks,
)

if typing.TYPE_CHECKING:
    from hands.hooks.callbacks import HookCallbacks
    from hands.hooks.config import HookConfig, HookHandler, parse_hooks
    from hands.hooks.engine import HookEngine, build_hooks

_EXPORTS = {
    "HookCallbacks": ".callbacks",
    "HookConfig": ".config",
    "HookEngine": ".engine",
    "HookHandler": ".config",
    "build_hooks": ".engine",
    "parse_hooks": ".config",
}

__getattr__, __dir__ = _lazy.exports(__name__, _EXPORTS)

__all__ = [
    "DeferringHooks",
    "HookCallbacks",
    "HookConfig",
    "HookEngine",
    "HookHandler",
    "LoopHookOutcome",
    "LoopHooks",
    "PendingContext",
    "PermissionHooks",
    "PostToolUseOutcome",
    "PreToolUseOutcome",
    "SessionEndReason",
    "SessionStartSource",
    "ToolHooks",
    "build_hooks",
    "parse_hooks",
]

