"""hands: the agent's hands. Tools, permissions, hooks and the loop that runs them.

Public names are imported on first use, so ``import hands`` stays cheap and has no side
effects.
"""

import typing

from hands import _lazy

if typing.TYPE_CHECKING:
    from hands.agent.events import (
        BlockEvent,
        MessageEvent,
        QueryEvent,
        ResultEvent,
        StreamRetryEvent,
        TextDeltaEvent,
    )
    from hands.agent.loop import Query, QueryOptions, query
    from hands.core.context import ToolContext
    from hands.core.decision import PermissionDecision, allow, ask, deny
    from hands.core.decorator import tool
    from hands.core.limits import Limits
    from hands.core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock
    from hands.core.outcome import ToolCallOutcome
    from hands.core.schema import ToolInput
    from hands.core.session import Session
    from hands.core.tool import (
        Progress,
        ReadOnlyTool,
        Tool,
        ToolOptions,
        ToolResult,
        ToolSpec,
        build_tool,
    )
    from hands.errors import HandsError, ToolError
    from hands.harness.harness import Harness
    from hands.hooks.callbacks import HookCallbacks
    from hands.orchestration.events import ToolProgressEvent, ToolResultEvent
    from hands.pipeline.execution import run_tool_use
    from hands.pipeline.pool import ToolPool, all_base_tools, assemble_pool
    from hands.pipeline.runtime import ToolRuntime

_EXPORTS = {
    "BlockEvent": "hands.agent.events",
    "HandsError": "hands.errors",
    "Harness": "hands.harness.harness",
    "HookCallbacks": "hands.hooks.callbacks",
    "Limits": "hands.core.limits",
    "Message": "hands.core.messages",
    "MessageEvent": "hands.agent.events",
    "PermissionDecision": "hands.core.decision",
    "Progress": "hands.core.tool",
    "Query": "hands.agent.loop",
    "QueryEvent": "hands.agent.events",
    "QueryOptions": "hands.agent.loop",
    "ReadOnlyTool": "hands.core.tool",
    "ResultEvent": "hands.agent.events",
    "Session": "hands.core.session",
    "StreamRetryEvent": "hands.agent.events",
    "TextBlock": "hands.core.messages",
    "TextDeltaEvent": "hands.agent.events",
    "Tool": "hands.core.tool",
    "ToolCallOutcome": "hands.core.outcome",
    "ToolContext": "hands.core.context",
    "ToolError": "hands.errors",
    "ToolInput": "hands.core.schema",
    "ToolOptions": "hands.core.tool",
    "ToolPool": "hands.pipeline.pool",
    "ToolProgressEvent": "hands.orchestration.events",
    "ToolResult": "hands.core.tool",
    "ToolResultBlock": "hands.core.messages",
    "ToolResultEvent": "hands.orchestration.events",
    "ToolRuntime": "hands.pipeline.runtime",
    "ToolSpec": "hands.core.tool",
    "ToolUseBlock": "hands.core.messages",
    "all_base_tools": "hands.pipeline.pool",
    "allow": "hands.core.decision",
    "ask": "hands.core.decision",
    "assemble_pool": "hands.pipeline.pool",
    "build_tool": "hands.core.tool",
    "deny": "hands.core.decision",
    "query": "hands.agent.loop",
    "run_tool_use": "hands.pipeline.execution",
    "tool": "hands.core.decorator",
}

__getattr__, __dir__ = _lazy.exports(__name__, _EXPORTS)

__all__ = [
    "BlockEvent",
    "HandsError",
    "Harness",
    "HookCallbacks",
    "Limits",
    "Message",
    "MessageEvent",
    "PermissionDecision",
    "Progress",
    "Query",
    "QueryEvent",
    "QueryOptions",
    "ReadOnlyTool",
    "ResultEvent",
    "Session",
    "StreamRetryEvent",
    "TextBlock",
    "TextDeltaEvent",
    "Tool",
    "ToolCallOutcome",
    "ToolContext",
    "ToolError",
    "ToolInput",
    "ToolOptions",
    "ToolPool",
    "ToolProgressEvent",
    "ToolResult",
    "ToolResultBlock",
    "ToolResultEvent",
    "ToolRuntime",
    "ToolSpec",
    "ToolUseBlock",
    "all_base_tools",
    "allow",
    "ask",
    "assemble_pool",
    "build_tool",
    "deny",
    "query",
    "run_tool_use",
    "tool",
]
