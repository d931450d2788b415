"""The seam between the per-call pipeline and hooks (command, HTTP or Python)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from hands.context import ToolContext
    from hands.tool import Tool


@dataclass(frozen=True, kw_only=True, slots=True)
class PreToolUseOutcome:
    """What the PreToolUse hooks decided about one call.

    ``decision``: ``deny`` blocks the call (``reason`` goes to the model); ``ask`` forces
    a permission prompt; ``allow`` skips the prompt but never overrides a deny or ask
    rule; ``None`` means no opinion. ``updated_input`` replaces the input (re-validated).
    """

    decision: Literal["allow", "deny", "ask"] | None = None
    reason: str = ""
    updated_input: Mapping[str, Any] | None = None
    additional_context: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class PostToolUseOutcome:
    """Feedback from PostToolUse / PostToolUseFailure hooks, added for the model to read."""

    additional_context: str = ""
    block_reason: str = ""


NO_PRE = PreToolUseOutcome()
NO_POST = PostToolUseOutcome()


class ToolHooks(Protocol):
    """Hook points around one tool call."""

    async def pre_tool_use(
        self, *, tool: Tool[Any, Any], tool_input: Mapping[str, Any], ctx: ToolContext
    ) -> PreToolUseOutcome:
        """Before the permission decision."""
        ...

    async def post_tool_use(
        self,
        *,
        tool: Tool[Any, Any],
        tool_input: Mapping[str, Any],
        response: Any,
        ctx: ToolContext,
        duration_ms: float,
    ) -> PostToolUseOutcome:
        """After a successful call."""
        ...

    async def post_tool_use_failure(
        self,
        *,
        tool: Tool[Any, Any],
        tool_input: Mapping[str, Any],
        error: str,
        ctx: ToolContext,
        duration_ms: float,
    ) -> PostToolUseOutcome:
        """After a call that raised or returned an error."""
        ...
