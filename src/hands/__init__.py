"""hands: the agent's hands. Tools, permissions, hooks and the loop that runs them.

Public names are imported on first use, so ``import hands`` stays cheap and has no side
effects.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# ``tool`` is both a submodule (hands.tool) and the decorator exported here; importing
# the decorator eagerly, after the submodule, keeps ``hands.tool`` the decorator.
from hands.decorator import tool

if TYPE_CHECKING:
    from hands.context import ToolContext
    from hands.errors import HandsError, ToolError
    from hands.execution import ToolCallOutcome, run_tool_use
    from hands.loop import Query, QueryOptions, query
    from hands.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock
    from hands.pool import ToolPool, all_base_tools, assemble_pool
    from hands.runtime import ToolRuntime
    from hands.schema import ToolInput
    from hands.session import Session
    from hands.tool import Tool, ToolResult, build_tool

_HOMES = {
    "HandsError": "hands.errors",
    "Message": "hands.messages",
    "Query": "hands.loop",
    "QueryOptions": "hands.loop",
    "Session": "hands.session",
    "TextBlock": "hands.messages",
    "Tool": "hands.tool",
    "ToolCallOutcome": "hands.execution",
    "ToolContext": "hands.context",
    "ToolError": "hands.errors",
    "ToolInput": "hands.schema",
    "ToolPool": "hands.pool",
    "ToolResult": "hands.tool",
    "ToolResultBlock": "hands.messages",
    "ToolRuntime": "hands.runtime",
    "ToolUseBlock": "hands.messages",
    "all_base_tools": "hands.pool",
    "assemble_pool": "hands.pool",
    "build_tool": "hands.tool",
    "query": "hands.loop",
    "run_tool_use": "hands.execution",
}

__all__ = [
    "HandsError",
    "Message",
    "Query",
    "QueryOptions",
    "Session",
    "TextBlock",
    "Tool",
    "ToolCallOutcome",
    "ToolContext",
    "ToolError",
    "ToolInput",
    "ToolPool",
    "ToolResult",
    "ToolResultBlock",
    "ToolRuntime",
    "ToolUseBlock",
    "all_base_tools",
    "assemble_pool",
    "build_tool",
    "query",
    "run_tool_use",
    "tool",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'hands' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
