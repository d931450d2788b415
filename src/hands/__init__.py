"""hands: the agent's hands. Tools, permissions, hooks and the loop that runs them."""

from hands.context import ToolContext
from hands.decorator import tool
from hands.errors import HandsError, ToolError
from hands.execution import ToolCallOutcome, run_tool_use
from hands.loop import Query, QueryOptions, query
from hands.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock
from hands.pool import ToolPool, all_base_tools, assemble_pool
from hands.runtime import ToolRuntime
from hands.schema import ToolInput
from hands.session import Session
from hands.tool import Tool, ToolResult, build_tool

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
