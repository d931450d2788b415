"""A sub-agent's hooks: the caller's tool hooks as they are, its Stop as SubagentStop.

Settings hooks run inside sub-agents with ``agent_id`` and ``agent_type`` in their input
(the sub-agent's context carries them). The session's events (SessionStart and End,
UserPromptSubmit) are the main agent's; a sub-agent's end fires SubagentStop instead of
Stop. Context left by ``async`` hooks stays for the main agent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hands.core.hooks import (
    NO_LOOP,
    LoopHookOutcome,
    PermissionHooks,
    PostToolUseOutcome,
    PreToolUseOutcome,
    ToolHooks,
)
from hands.hooks.engine import HookEngine

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.core.decision import AskHandler, AskRequest, PermissionDecision
    from hands.core.tool import Tool


class SubagentHooks:
    """The caller's hooks, seen from inside a sub-agent."""

    def __init__(self, inner: ToolHooks, *, transcript_path: str | None = None) -> None:
        self.inner = inner
        self.engine = inner if isinstance(inner, HookEngine) else None
        self.transcript_path = transcript_path

    # -- tool events: as for the caller ---------------------------------------------------

    async def pre_tool_use(
        self, *, tool: Tool[Any, Any], tool_input: Mapping[str, Any], ctx: ToolContext
    ) -> PreToolUseOutcome:
        """PreToolUse, as for the caller."""
        return await self.inner.pre_tool_use(tool=tool, tool_input=tool_input, ctx=ctx)

    async def post_tool_use(
        self,
        *,
        tool: Tool[Any, Any],
        tool_input: Mapping[str, Any],
        response: Any,
        ctx: ToolContext,
        duration_ms: float,
    ) -> PostToolUseOutcome:
        """PostToolUse, as for the caller."""
        return await self.inner.post_tool_use(
            tool=tool, tool_input=tool_input, response=response, ctx=ctx, duration_ms=duration_ms
        )

    async def post_tool_use_failure(
        self,
        *,
        tool: Tool[Any, Any],
        tool_input: Mapping[str, Any],
        error: str,
        ctx: ToolContext,
        duration_ms: float,
    ) -> PostToolUseOutcome:
        """PostToolUseFailure, as for the caller."""
        return await self.inner.post_tool_use_failure(
            tool=tool, tool_input=tool_input, error=error, ctx=ctx, duration_ms=duration_ms
        )

    # -- the permission prompt ------------------------------------------------------------

    async def permission_request(
        self,
        *,
        tool: Tool[Any, Any],
        tool_input: Mapping[str, Any],
        ctx: ToolContext,
        message: str,
    ) -> PermissionDecision | None:
        """PermissionRequest, as for the caller."""
        if not isinstance(self.inner, PermissionHooks):
            return None
        return await self.inner.permission_request(
            tool=tool, tool_input=tool_input, ctx=ctx, message=message
        )

    async def ask_user(self, ask: AskHandler, request: AskRequest) -> PermissionDecision:
        """The caller's prompt (and its Notification hook)."""
        if not isinstance(self.inner, PermissionHooks):
            return await ask(request)
        return await self.inner.ask_user(ask, request)

    # -- the loop's events ----------------------------------------------------------------

    @property
    def stop_reason(self) -> str | None:
        """A hook's ``continue: false`` ends the sub-agent too."""
        return self.engine.stop_reason if self.engine is not None else None

    @property
    def deferred(self) -> tuple[str, ...]:
        """Deferring is for the main agent's single call: none here."""
        return ()

    def take_deferred(self) -> tuple[str, ...]:
        """None (see :attr:`deferred`)."""
        return ()

    async def session_start(self, ctx: ToolContext, *, source: str) -> LoopHookOutcome:
        """Not a session: SubagentStart is fired by whoever starts the sub-agent."""
        return NO_LOOP

    async def user_prompt_submit(self, ctx: ToolContext, prompt: str) -> LoopHookOutcome:
        """The caller's prompt is not the user's: not fired."""
        return NO_LOOP

    async def post_tool_batch(
        self, ctx: ToolContext, calls: list[dict[str, Any]]
    ) -> LoopHookOutcome:
        """PostToolBatch, as for the caller."""
        if self.engine is None:
            return NO_LOOP
        return await self.engine.post_tool_batch(ctx, calls)

    async def stop(
        self, ctx: ToolContext, *, stop_hook_active: bool, last_assistant_message: str
    ) -> LoopHookOutcome:
        """SubagentStop (matcher: the agent type); a block makes the sub-agent go on."""
        if self.engine is None:
            return NO_LOOP
        return await self.engine.subagent_stop(
            ctx,
            agent_type=ctx.agent_type or "",
            stop_hook_active=stop_hook_active,
            last_assistant_message=last_assistant_message,
            agent_transcript_path=self.transcript_path,
        )

    async def session_end(self, ctx: ToolContext, *, reason: str) -> None:
        """The session does not end with a sub-agent."""
        return None
