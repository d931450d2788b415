"""Hook points of the per-call pipeline; the hook engine implements :class:`ToolHooks`."""

from hands.hooks.base import PostToolUseOutcome, PreToolUseOutcome, ToolHooks

__all__ = ["PostToolUseOutcome", "PreToolUseOutcome", "ToolHooks"]
