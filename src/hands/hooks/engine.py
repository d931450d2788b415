"""``HookEngine``: runs the configured hooks at every tool and loop event.

It implements :class:`~hands.core.hooks.ToolHooks` (PreToolUse, PostToolUse,
PostToolUseFailure), :class:`~hands.core.hooks.PermissionHooks` (PermissionRequest and
the ``permission_prompt`` Notification) and :class:`~hands.core.hooks.LoopHooks`
(SessionStart, UserPromptSubmit, PostToolBatch, Stop, SessionEnd) and
:class:`~hands.core.lifecycle.WorktreeHooks` (WorktreeCreate, WorktreeRemove), plus
SubagentStart, SubagentStop, PreCompact and PostCompact for the code that runs
sub-agents and compaction.

Each adapter builds its event's payload, runs the matching handlers
(:class:`~hands.hooks.runner.HookRunner`: in parallel, ``async: true`` ones in the
background) and combines their answers (:mod:`hands.hooks.combine`: deny > defer > ask >
allow; every ``additionalContext`` delivered). Notices (hook errors, ``systemMessage``,
stderr meant for the user) go to ``on_notice``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import anyio

from hands.core.hooks import (
    NO_LOOP,
    NO_POST,
    NO_PRE,
    LoopHookOutcome,
    PostToolUseOutcome,
    PreToolUseOutcome,
)
from hands.hooks import combine, events, worktree
from hands.hooks.config import HookConfig, config_from_settings
from hands.hooks.output import ElicitAction, HookResult
from hands.hooks.runner import HookRunner

if TYPE_CHECKING:
    from pathlib import Path

    from hands.config.settings import Settings
    from hands.core.context import ToolContext
    from hands.core.decision import AskHandler, AskRequest, PermissionDecision
    from hands.core.outcome import ToolCallOutcome
    from hands.core.tool import Tool
    from hands.hooks.callbacks import HookCallbacks

RunNormally = Callable[[], Awaitable["ToolCallOutcome"]]

SESSION_END_BUDGET_S = 1.5
SESSION_END_MAX_S = 60.0
reminder = combine.reminder


class HookEngine(HookRunner):
    """Hooks from settings files and Python callbacks, run at their events."""

    def __init__(
        self,
        config: HookConfig,
        *,
        callbacks: HookCallbacks | None = None,
        on_notice: Callable[[str], None] | None = None,
        allow_defer: bool = False,
        env: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(config, callbacks=callbacks, on_notice=on_notice, env=env)
        self.allow_defer = allow_defer
        """``defer`` is honoured (print mode); otherwise it counts as no decision."""
        self._deferred: list[str] = []
        self._held: dict[str, RunNormally] = {}
        self._replay: dict[str, PreToolUseOutcome] = {}

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        *,
        callbacks: HookCallbacks | None = None,
        on_notice: Callable[[str], None] | None = None,
        allow_defer: bool = False,
    ) -> HookEngine | None:
        """The engine for loaded settings, or ``None`` when no hook is configured.

        Configuration warnings go to ``on_notice`` (or the ``hands.hooks`` logger).
        """
        config = config_from_settings(settings)
        engine = cls(config, callbacks=callbacks, on_notice=on_notice, allow_defer=allow_defer)
        for warning in engine.warnings:
            engine.notice(warning)
        return engine if engine.config else None

    def with_hooks(self, extra: HookConfig) -> HookEngine:
        """A copy of the engine with ``extra``'s handlers added (a sub-agent's own hooks).

        The copy shares what running hooks leave behind (notices, background hooks,
        context for the next turn); its stop reason is its own.
        """
        import copy

        scoped = copy.copy(self)
        scoped.config = self.config.merged(extra)
        scoped.warnings = scoped.config.warnings
        scoped._stop_reason = None
        return scoped

    # -- deferred calls -----------------------------------------------------------------

    @property
    def deferred(self) -> tuple[str, ...]:
        """The tool_use ids a PreToolUse hook deferred."""
        return tuple(self._deferred)

    def take_deferred(self) -> tuple[str, ...]:
        """Return and forget the deferred tool_use ids (and their kept runs)."""
        out = tuple(self._deferred)
        self._deferred.clear()
        self._held.clear()
        self._replay.clear()
        return out

    def hold_deferred(self, tool_use_id: str, run_normally: RunNormally) -> None:
        """Keep how to run a deferred call normally (the turn may have had several)."""
        self._held[tool_use_id] = run_normally

    def take_held(self) -> dict[str, RunNormally]:
        """Return and forget the kept deferred calls; they are no longer deferred."""
        held = dict(self._held)
        self._held.clear()
        if held:
            self._deferred = [i for i in self._deferred if i not in held]
        return held

    # -- event adapters -----------------------------------------------------------------

    async def _tool_event(
        self,
        event: str,
        payload: Callable[[], dict[str, Any]],
        tool: Tool[Any, Any],
        tool_input: Mapping[str, Any],
        ctx: ToolContext,
    ) -> list[HookResult]:
        """The results of a tool event (matcher: the tool's name); no payload when unhooked."""
        if not self.config.has(event):
            return []
        return await self.run_event(
            event, payload(), ctx, target=tool.name, tool=tool, tool_input=tool_input
        )

    async def _loop_event(
        self,
        event: str,
        payload: Callable[[], dict[str, Any]],
        ctx: ToolContext,
        *,
        target: str | None = None,
        plain_is_context: bool = False,
        can_block: bool = True,
    ) -> LoopHookOutcome:
        """Run a loop event's handlers and combine their answers."""
        if not self.config.has(event):
            return NO_LOOP
        results = await self.run_event(event, payload(), ctx, target=target)
        return combine.loop_outcome(
            event, results, plain_is_context=plain_is_context, can_block=can_block
        )

    # -- tool events (ToolHooks) ----------------------------------------------------------

    def handles(self, event: str) -> bool:
        """Whether any hook is configured for the tool event ``event``.

        For ``PreToolUse``, ``PostToolUse`` and ``PostToolUseFailure``: when none is,
        calling the event does nothing, and the pipeline leaves it out.
        """
        return bool(self.config.groups.get(event))  # config.has, one call less per tool call

    async def pre_tool_use(
        self, *, tool: Tool[Any, Any], tool_input: Mapping[str, Any], ctx: ToolContext
    ) -> PreToolUseOutcome:
        """PreToolUse: deny > defer > ask > allow; updated input; context."""
        if not self.config.has("PreToolUse"):
            return NO_PRE
        if self._replay:
            replay = self._replay.pop(ctx.tool_use_id, None)
            if replay is not None:  # a deferred call now run normally: same answer, no defer
                return replay
        results = await self._tool_event(
            "PreToolUse",
            lambda: events.pre_tool_use(tool, tool_input, ctx),
            tool,
            tool_input,
            ctx,
        )
        if not results and self._stop_reason is None:
            return NO_PRE
        verdict = combine.pre_tool_use(
            results, tool.name, allow_defer=self.allow_defer, stop_reason=self._stop_reason
        )
        if verdict.fallback is not None:
            self._deferred.append(ctx.tool_use_id)
            self._replay[ctx.tool_use_id] = verdict.fallback
        return verdict.outcome

    async def post_tool_use(
        self,
        *,
        tool: Tool[Any, Any],
        tool_input: Mapping[str, Any],
        response: Any,
        ctx: ToolContext,
        duration_ms: float,
    ) -> PostToolUseOutcome:
        """PostToolUse: feedback, context, or a replacement output."""
        if not self.config.has("PostToolUse"):
            return NO_POST
        results = await self._tool_event(
            "PostToolUse",
            lambda: events.post_tool_use(tool, tool_input, response, ctx, duration_ms),
            tool,
            tool_input,
            ctx,
        )
        return combine.post_outcome("PostToolUse", tool.name, results)

    async def post_tool_use_failure(
        self,
        *,
        tool: Tool[Any, Any],
        tool_input: Mapping[str, Any],
        error: str,
        ctx: ToolContext,
        duration_ms: float,
    ) -> PostToolUseOutcome:
        """PostToolUseFailure: feedback or context about the error."""
        if not self.config.has("PostToolUseFailure"):
            return NO_POST
        results = await self._tool_event(
            "PostToolUseFailure",
            lambda: events.post_tool_use_failure(tool, tool_input, error, ctx, duration_ms),
            tool,
            tool_input,
            ctx,
        )
        return combine.post_outcome("PostToolUseFailure", tool.name, results)

    # -- the permission prompt (PermissionHooks) ----------------------------------------

    async def permission_request(
        self,
        *,
        tool: Tool[Any, Any],
        tool_input: Mapping[str, Any],
        ctx: ToolContext,
        message: str,
    ) -> PermissionDecision | None:
        """PermissionRequest: allow or deny in the user's place (deny wins)."""
        results = await self._tool_event(
            "PermissionRequest",
            lambda: events.permission_request(tool, tool_input, ctx),
            tool,
            tool_input,
            ctx,
        )
        denied = next((r for r in results if r.request_behavior == "deny"), None)
        if denied is not None and denied.request_interrupt and self._stop_reason is None:
            self._stop_reason = denied.request_message or "a PermissionRequest hook interrupted"
        return combine.permission_request(results, tool.name)

    async def ask_user(self, ask: AskHandler, request: AskRequest) -> PermissionDecision:
        """Show the prompt, firing the ``permission_prompt`` Notification alongside it."""
        if not self.config.has("Notification"):
            return await ask(request)
        message = request.message or f"hands needs your permission to use {request.tool.name}"
        answers: list[PermissionDecision] = []
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._notify, request.context, message, "permission_prompt")
            answers.append(await ask(request))
        return answers[0]

    async def _notify(self, ctx: ToolContext, message: str, kind: str) -> None:
        await self.notification(ctx, message=message, notification_type=kind)

    async def notification(self, ctx: ToolContext, *, message: str, notification_type: str) -> None:
        """Notification: matcher is the notification type; the answer is ignored."""
        await self._loop_event(
            "Notification",
            lambda: events.notification(ctx, message=message, notification_type=notification_type),
            ctx,
            target=notification_type,
        )

    # -- MCP elicitation ------------------------------------------------------------------

    async def elicitation(
        self, ctx: ToolContext, fields: Mapping[str, Any]
    ) -> tuple[ElicitAction, dict[str, Any] | None] | None:
        """Elicitation (matcher: the server): a hook may answer for the user.

        ``fields``: ``mcp_server_name``, ``message``, ``mode``, ``requested_schema`` or
        ``url``. Exit 2 (or ``decision: "block"``) declines; None when no hook answered.
        """
        return await self._elicit("Elicitation", ctx, dict(fields))

    async def elicitation_result(
        self,
        ctx: ToolContext,
        fields: Mapping[str, Any],
        answer: tuple[ElicitAction, Mapping[str, Any] | None],
    ) -> tuple[ElicitAction, dict[str, Any] | None] | None:
        """ElicitationResult: the answer about to be sent; a hook may change it."""
        data = {**fields, "action": answer[0], "content": dict(answer[1] or {})}
        return await self._elicit("ElicitationResult", ctx, data)

    async def _elicit(
        self, event: str, ctx: ToolContext, data: dict[str, Any]
    ) -> tuple[ElicitAction, dict[str, Any] | None] | None:
        if not self.config.has(event):
            return None
        payload = events.common(event, ctx, with_mode=False, **data)
        results = await self.run_event(event, payload, ctx, target=str(data["mcp_server_name"]))
        for result in results:
            if result.blocking:
                return ("decline", None)
        for result in results:
            if result.elicitation_action is not None:
                return (result.elicitation_action, result.elicitation_content)
        return None

    # -- loop events (LoopHooks) ----------------------------------------------------------

    async def session_start(self, ctx: ToolContext, *, source: str) -> LoopHookOutcome:
        """SessionStart: ``additionalContext`` and plain stdout become context."""
        return await self._loop_event(
            "SessionStart",
            lambda: events.session_start(ctx, source=source),
            ctx,
            target=source,
            plain_is_context=True,
            can_block=False,
        )

    async def user_prompt_submit(self, ctx: ToolContext, prompt: str) -> LoopHookOutcome:
        """UserPromptSubmit: may block the prompt; context goes next to it."""
        return await self._loop_event(
            "UserPromptSubmit",
            lambda: events.user_prompt_submit(prompt, ctx),
            ctx,
            plain_is_context=True,
        )

    async def post_tool_batch(
        self, ctx: ToolContext, calls: list[dict[str, Any]]
    ) -> LoopHookOutcome:
        """PostToolBatch: may end the run; context goes to the next request."""
        return await self._loop_event(
            "PostToolBatch", lambda: events.post_tool_batch(calls, ctx), ctx
        )

    async def stop(
        self, ctx: ToolContext, *, stop_hook_active: bool, last_assistant_message: str
    ) -> LoopHookOutcome:
        """Stop: ``decision: block`` (or exit 2) makes the loop go on with the reason."""
        return await self._loop_event(
            "Stop",
            lambda: events.stop(
                ctx,
                stop_hook_active=stop_hook_active,
                last_assistant_message=last_assistant_message,
            ),
            ctx,
        )

    async def subagent_start(
        self, ctx: ToolContext, *, agent_id: str, agent_type: str
    ) -> LoopHookOutcome:
        """SubagentStart: context for the sub-agent (it cannot block)."""
        return await self._loop_event(
            "SubagentStart",
            lambda: events.subagent_start(ctx, agent_id=agent_id, agent_type=agent_type),
            ctx,
            target=agent_type,
            can_block=False,
        )

    async def subagent_stop(
        self,
        ctx: ToolContext,
        *,
        agent_type: str,
        stop_hook_active: bool,
        last_assistant_message: str,
        agent_transcript_path: str | None = None,
    ) -> LoopHookOutcome:
        """SubagentStop: like Stop, for a sub-agent (matcher: the agent type)."""
        return await self._loop_event(
            "SubagentStop",
            lambda: events.stop(
                ctx,
                event="SubagentStop",
                agent_type=agent_type,
                stop_hook_active=stop_hook_active,
                last_assistant_message=last_assistant_message,
                agent_transcript_path=agent_transcript_path,
            ),
            ctx,
            target=agent_type,
        )

    async def pre_compact(
        self, ctx: ToolContext, *, trigger: str, custom_instructions: str = ""
    ) -> LoopHookOutcome:
        """PreCompact (``manual``/``auto``): a block cancels it; printed text adds instructions."""
        return await self._loop_event(
            "PreCompact",
            lambda: events.pre_compact(
                ctx, trigger=trigger, custom_instructions=custom_instructions
            ),
            ctx,
            target=trigger,
            plain_is_context=True,
        )

    async def post_compact(
        self, ctx: ToolContext, *, trigger: str, compact_summary: str
    ) -> LoopHookOutcome:
        """PostCompact: told the summary; its answer is not acted on."""
        return await self._loop_event(
            "PostCompact",
            lambda: events.post_compact(ctx, trigger=trigger, compact_summary=compact_summary),
            ctx,
            target=trigger,
            can_block=False,
        )

    # -- worktrees (WorktreeHooks) ----------------------------------------------------------

    def makes_worktrees(self) -> bool:
        """Whether a WorktreeCreate hook is configured (it replaces ``git worktree add``)."""
        return self.config.has("WorktreeCreate")

    def removes_worktrees(self) -> bool:
        """Whether a WorktreeRemove hook is configured."""
        return self.config.has("WorktreeRemove")

    async def worktree_create(self, ctx: ToolContext, *, name: str) -> Path:
        """WorktreeCreate: the path the hook made; WorktreeHookError when it made none."""
        payload = events.common("WorktreeCreate", ctx, with_mode=False, name=name)
        results = await self.run_event("WorktreeCreate", payload, ctx)
        return worktree.created_path(results, cwd=ctx.cwd)

    async def worktree_remove(self, ctx: ToolContext, *, worktree_path: Path) -> None:
        """WorktreeRemove: told the path; WorktreeHookError when a hook failed."""
        payload = events.common(
            "WorktreeRemove", ctx, with_mode=False, worktree_path=str(worktree_path)
        )
        worktree.check_removed(await self.run_event("WorktreeRemove", payload, ctx))

    async def session_end(self, ctx: ToolContext, *, reason: str) -> None:
        """SessionEnd: 1.5 s for all its hooks, raised to the largest hook timeout (≤ 60 s)."""
        if not self.config.has("SessionEnd"):
            return
        handlers = self.config.handlers_for("SessionEnd", reason)
        budget = max(
            [SESSION_END_BUDGET_S]
            + [min(h.timeout_s, SESSION_END_MAX_S) for h in handlers if h.timeout_s is not None]
        )
        payload = events.session_end(ctx, reason=reason)
        with anyio.move_on_after(budget) as scope:
            await self.run_event("SessionEnd", payload, ctx, target=reason)
        if scope.cancelled_caught:
            self.notice(f"SessionEnd hooks ran out of their {budget:g} s budget and were stopped")


def build_hooks(
    settings: Settings,
    *,
    callbacks: HookCallbacks | None = None,
    on_notice: Callable[[str], None] | None = None,
    allow_defer: bool = False,
) -> HookEngine | None:
    """The hooks of loaded settings (and code callbacks), or ``None`` when there are none."""
    return HookEngine.from_settings(
        settings, callbacks=callbacks, on_notice=on_notice, allow_defer=allow_defer
    )
