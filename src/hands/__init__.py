"""hands: the agent's hands. Tools, permissions, hooks and the loop that runs them.

Public names are imported on first use, so ``import hands`` stays cheap and has no side
effects.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from hands.core.decorator import tool

if TYPE_CHECKING:
    from hands.agent.loop import Query, QueryOptions, query
    from hands.core.context import ToolContext
    from hands.core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock
    from hands.core.outcome import ToolCallOutcome
    from hands.core.schema import ToolInput
    from hands.core.session import Session
    from hands.core.tool import Tool, ToolResult, build_tool
    from hands.errors import HandsError, ToolError
    from hands.pipeline.execution import run_tool_use
    from hands.pipeline.pool import ToolPool, all_base_tools, assemble_pool
    from hands.pipeline.runtime import ToolRuntime

_HOMES = {
    "HandsError": "hands.errors",
    "Message": "hands.core.messages",
    "Query": "hands.agent.loop",
    "QueryOptions": "hands.agent.loop",
    "Session": "hands.core.session",
    "TextBlock": "hands.core.messages",
    "Tool": "hands.core.tool",
    "ToolCallOutcome": "hands.core.outcome",
    "ToolContext": "hands.core.context",
    "ToolError": "hands.errors",
    "ToolInput": "hands.core.schema",
    "ToolPool": "hands.pipeline.pool",
    "ToolResult": "hands.core.tool",
    "ToolResultBlock": "hands.core.messages",
    "ToolRuntime": "hands.pipeline.runtime",
    "ToolUseBlock": "hands.core.messages",
    "all_base_tools": "hands.pipeline.pool",
    "assemble_pool": "hands.pipeline.pool",
    "build_tool": "hands.core.tool",
    "query": "hands.agent.loop",
    "run_tool_use": "hands.pipeline.execution",
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
