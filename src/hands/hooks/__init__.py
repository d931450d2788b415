"""Hooks: Claude Code's command and HTTP hooks, and Python callbacks, at every event.

``HookEngine`` (:mod:`hands.hooks.engine`) implements the pipeline's
:class:`ToolHooks` and the loop's :class:`LoopHooks`; build it from loaded settings
with :func:`build_hooks`, and register Python hooks with :class:`HookCallbacks`.
Names other than the seam types are imported on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from hands.hooks.callbacks import HookCallbacks
    from hands.hooks.config import HookConfig, HookHandler, parse_hooks
    from hands.hooks.engine import HookEngine, build_hooks

_HOMES = {
    "HookCallbacks": "callbacks",
    "HookConfig": "config",
    "HookEngine": "engine",
    "HookHandler": "config",
    "build_hooks": "engine",
    "parse_hooks": "config",
}

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


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'hands.hooks' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"hands.hooks.{home}"), name)
    globals()[name] = value
    return value
