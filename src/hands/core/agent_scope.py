"""Which Agent call the running code works for, seen from anywhere below it.

A sub-agent's loop runs inside the Agent tool's call; while it runs,
:data:`PARENT_TOOL_USE` holds that call's ``tool_use_id`` (nested sub-agents set their
own). Code that sees the model's stream without seeing the loop (the Agent SDK front
end's partial messages) reads it to put a sub-agent's events under their Agent call.
"""

from __future__ import annotations

from contextvars import ContextVar

PARENT_TOOL_USE: ContextVar[str | None] = ContextVar("hands_parent_tool_use", default=None)
"""The ``tool_use_id`` of the Agent call whose sub-agent is running (None: the main one)."""
