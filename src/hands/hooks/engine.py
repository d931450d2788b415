"""``HookEngine``: runs the configured hooks at every tool and loop event.

It implements :class:`~hands.core.hooks.ToolHooks` (PreToolUse, PostToolUse,
PostToolUseFailure), :class:`~hands.core.hooks.PermissionHooks` (PermissionRequest and
the ``permission_prompt`` Notification) and :class:`~hands.core.hooks.LoopHooks`
(SessionStart, UserPromptSubmit, PostToolBatch, Stop, SessionEnd), plus SubagentStart,
SubagentStop and PreCompact for the code that runs sub-agents and compaction.

Every matching handler of an event runs in parallel; their answers combine as
deny > defer > ask > allow; every ``additionalContext`` is delivered. Notices (hook
errors, ``systemMessage``, stderr meant for the user) go to ``on_notice``.

``async: true`` handlers run in the background: the event does not wait for them and
their decisions count for nothing; their ``additionalContext`` and ``systemMessage``
wait in :meth:`HookEngine.take_pending` for the loop's next turn. They are stopped
(with their process groups) when the session closes.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import anyio

from hands.core.hooks import (
    NO_LOOP,
    NO_POST,
    NO_PRE,
    LoopHookOutcome,
    PostToolUseOutcome,
    PreToolUseOutcome,
)
from hands.hooks import events
from hands.hooks.config import (
    TOOL_EVENTS,
    HookConfig,
    HookHandler,
    config_from_settings,
)
from hands.hooks.output import HookResult, HookRun, interpret

if TYPE_CHECKING:
    from hands.config.settings import Settings
    from hands.core.context import ToolContext
    from hands.core.decision import AskHandler, AskRequest, PermissionDecision
    from hands.core.outcome import ToolCallOutcome
    from hands.core.session import Session
    from hands.core.tool import Tool
    from hands.hooks.callbacks import HookCallbacks
    from hands.permissions.engine import PermissionEngine

RunNormally = Callable[[], Awaitable["ToolCallOutcome"]]

log = logging.getLogger("hands.hooks")

SESSION_END_BUDGET_S = 1.5
SESSION_END_MAX_S = 60.0
BACKGROUND_STOP_S = 5.0
"""How long closing the session waits for stopped background hooks to settle."""
PLAIN_IS_CONTEXT = frozenset({"SessionStart", "UserPromptSubmit"})
ENV_FILE_EVENTS = frozenset({"SessionStart"})
"""Events whose command hooks get ``CLAUDE_ENV_FILE``: exports written there reach Bash."""
_RANK = {"deny": 3, "defer": 2, "ask": 1, "allow": 0}


def reminder(event: str, text: str, tool_name: str | None = None) -> str:
    """Hook context as the model reads it: a system reminder naming the hook."""
    where = f"{event}:{tool_name}" if tool_name else event
    return f"<system-reminder>\n{where} hook additional context: {text}\n</system-reminder>"


class HookEngine:
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
        self.config = config.merged(callbacks.config()) if callbacks is not None else config
        self.warnings = self.config.warnings
        self.on_notice = on_notice
        self.allow_defer = allow_defer
        """``defer`` is honoured (print mode); otherwise it counts as no decision."""
        self.env = dict(env) if env else None
        """Extra environment for command hooks."""
        self.notices: list[str] = []
        self.transcript_path: str | None = None
        """The session's transcript file, when one is written (else a path under the
        session directory is given)."""
        self._stop_reason: str | None = None
        self._deferred: list[str] = []
        self._held: dict[str, RunNormally] = {}
        self._replay: dict[str, PreToolUseOutcome] = {}
        self._pending: list[str] = []
        self._background: set[asyncio.Task[None]] = set()
        self._cleanup_for: weakref.WeakSet[Session] = weakref.WeakSet()
        self._if_engines: dict[str, PermissionEngine | None] = {}

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

    # -- state the loop reads -----------------------------------------------------------

    @property
    def stop_reason(self) -> str | None:
        """Set once a hook answered ``continue: false``."""
        return self._stop_reason

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

    def take_pending(self) -> tuple[str, ...]:
        """Return and forget what waits for the model's next turn.

        What background hooks left, and SessionStart context fired between queries.
        """
        if not self._pending:
            return ()
        out = tuple(self._pending)
        self._pending.clear()
        return out

    def add_pending(self, text: str) -> None:
        """Queue ``text`` for the model's next turn."""
        if text:
            self._pending.append(text)

    @property
    def background(self) -> int:
        """How many ``async`` hooks are still running."""
        return len(self._background)

    async def stop_background(self) -> None:
        """Stop every background hook (their process groups are killed) and wait a little."""
        tasks = [t for t in self._background if not t.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            with anyio.CancelScope(shield=True), anyio.move_on_after(BACKGROUND_STOP_S):
                await asyncio.wait(tasks)

    def notice(self, text: str) -> None:
        """Tell the user (never the model) something about a hook."""
        if not text:
            return
        self.notices.append(text)
        if self.on_notice is not None:
            self.on_notice(text)
        else:
            log.warning("%s", text)

    # -- running ------------------------------------------------------------------------

    async def run_event(
        self,
        event: str,
        payload: dict[str, Any],
        ctx: ToolContext,
        *,
        target: str | None = None,
        tool: Tool[Any, Any] | None = None,
        tool_input: Mapping[str, Any] | None = None,
    ) -> list[HookResult]:
        """Run every handler of ``event`` matching ``target`` in parallel; their results.

        Handlers with an ``if`` rule run only on tool events, and only when the rule
        matches the call (they also run when the input cannot be checked: fail open).
        """
        aliases = tool.aliases if tool is not None else ()
        handlers = self.config.handlers_for(event, target, aliases=aliases)
        if not handlers:
            return []
        if event in TOOL_EVENTS and tool is not None and tool_input is not None:
            kept: list[HookHandler] = []
            for handler in handlers:
                if handler.if_rule is None or await self._if_matches(
                    handler.if_rule, tool, tool_input, ctx
                ):
                    kept.append(handler)
            handlers = kept
        else:
            handlers = [h for h in handlers if h.if_rule is None]
        if not handlers:
            return []
        if self.transcript_path is not None:
            payload["transcript_path"] = self.transcript_path
        body = b""
        if any(h.type != "callback" for h in handlers):
            body = json.dumps(payload, ensure_ascii=False, default=str).encode()
        if any(h.run_async for h in handlers):
            for handler in handlers:
                if handler.run_async:
                    await self._launch(handler, event, payload, body, ctx)
            handlers = [h for h in handlers if not h.run_async]
            if not handlers:
                return []
        runs: list[HookRun | None] = [None] * len(handlers)

        async def one(i: int, handler: HookHandler) -> None:
            runs[i] = await self._run_one(handler, event, payload, body, ctx)

        if len(handlers) == 1:
            await one(0, handlers[0])
        else:
            async with anyio.create_task_group() as tg:
                for i, handler in enumerate(handlers):
                    tg.start_soon(one, i, handler)
        results: list[HookResult] = []
        for run in runs:
            if run is None:
                continue
            result = interpret(event, run, session=ctx.session)
            self.notice(result.notice)
            self.notice(result.system_message)
            if not result.continue_ and self._stop_reason is None:
                self._stop_reason = result.stop_reason or f"a {event} hook asked to stop"
                self.notice(f"{event} hook stopped the run: {self._stop_reason}")
            results.append(result)
        return results

    async def _launch(
        self,
        handler: HookHandler,
        event: str,
        payload: dict[str, Any],
        body: bytes,
        ctx: ToolContext,
    ) -> None:
        """Start an ``async`` handler in the background (inline when there is no asyncio)."""
        job = self._in_background(handler, event, payload, body, ctx)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            await job  # another event loop: no background tasks to lean on
            return
        task = loop.create_task(job, name=f"async {event} hook")
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        session = ctx.session
        if session not in self._cleanup_for:
            self._cleanup_for.add(session)
            session.add_cleanup(self.stop_background)

    async def _in_background(
        self,
        handler: HookHandler,
        event: str,
        payload: dict[str, Any],
        body: bytes,
        ctx: ToolContext,
    ) -> None:
        run = await self._run_one(handler, event, payload, body, ctx)
        try:
            result = interpret(event, run, session=ctx.session)
        except Exception as exc:  # never let a background hook crash the session
            self.notice(f"async {event} hook: its answer could not be read ({exc})")
            return
        self.notice(result.notice)
        self.notice(result.system_message)
        texts = [result.additional_context, result.system_message]
        if event in PLAIN_IS_CONTEXT:
            texts.append(result.plain_text)
        for text in texts:
            if text:
                self.add_pending(
                    f"<system-reminder>\nAsync {event} hook ({handler.label}) finished: "
                    f"{text}\n</system-reminder>"
                )

    async def _run_one(
        self,
        handler: HookHandler,
        event: str,
        payload: dict[str, Any],
        body: bytes,
        ctx: ToolContext,
    ) -> HookRun:
        timeout = handler.timeout_for(event)
        try:
            if handler.type == "command":
                from hands.hooks.command import run_command

                env = self.env
                if event in ENV_FILE_EVENTS:
                    from hands.config.env_file import hook_env

                    env = {**(env or {}), **hook_env(ctx.session)}
                return await run_command(
                    handler,
                    body,
                    cwd=ctx.cwd,
                    project_dir=ctx.root,
                    timeout_s=timeout,
                    env=env,
                )
            if handler.type == "http":
                from hands.hooks.http import run_http

                return await run_http(handler, body, timeout_s=timeout)
            from hands.hooks.callbacks import run_callback

            return await run_callback(handler, event, payload, timeout_s=timeout)
        except anyio.get_cancelled_exc_class():
            raise
        except Exception as exc:  # a bug in running the hook must not break the call
            return HookRun(
                handler=handler,
                exit_code=None,
                failure=f"{handler.label} failed to run ({type(exc).__name__}: {exc})",
            )

    async def _if_matches(
        self, rule_text: str, tool: Tool[Any, Any], tool_input: Mapping[str, Any], ctx: ToolContext
    ) -> bool:
        if rule_text in self._if_engines:
            engine = self._if_engines[rule_text]
        else:
            engine = _rule_engine(rule_text, ctx.root)
            if engine is None:
                self.notice(
                    f"hook condition 'if: {rule_text}' is not a valid permission rule; the "
                    "hook runs on every matching call (write one rule such as Bash(git *))"
                )
            self._if_engines[rule_text] = engine
        if engine is None:
            return True
        try:
            parsed = tool.parse_input(tool_input)
            decision = await engine.decide(tool, parsed, ctx)
        except anyio.get_cancelled_exc_class():
            raise
        except Exception:
            return True  # fail open: the hook runs
        return decision.behavior == "deny" and decision.rule != ""

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
        return _loop_outcome(event, results, plain_is_context=plain_is_context, can_block=can_block)

    # -- tool events (ToolHooks) ----------------------------------------------------------

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
        best: str | None = None
        reasons: dict[str, list[str]] = {}
        updated: Mapping[str, Any] | None = None
        context: list[str] = []
        for r in results:
            choice = r.permission
            if choice == "defer" and not self.allow_defer:
                choice = None
            if choice is not None:
                if best is None or _RANK[choice] > _RANK[best]:
                    best = choice
                text = r.reason if r.blocking else r.permission_reason
                if text:
                    reasons.setdefault(choice, []).append(text)
            if r.updated_input is not None and choice != "deny":
                updated = r.updated_input
            if r.additional_context:
                context.append(r.additional_context)
        if self._stop_reason is not None:
            best = "deny"
            reasons.setdefault("deny", []).insert(0, f"the run was stopped: {self._stop_reason}")
        reason = "\n".join(reasons.get(best, [])) if best is not None else ""
        outcome = PreToolUseOutcome(
            decision=cast(Any, best),
            reason=reason,
            updated_input=updated if best != "deny" else None,
            additional_context="\n".join(reminder("PreToolUse", c, tool.name) for c in context),
        )
        if best == "defer":
            # Honoured only if the call turns out to be its turn's only one; otherwise the
            # call runs normally with what the other hooks said.
            others = [r.permission for r in results if r.permission in ("ask", "allow")]
            fallback = max(others, key=_RANK.__getitem__, default=None)
            self._deferred.append(ctx.tool_use_id)
            self._replay[ctx.tool_use_id] = replace(
                outcome,
                decision=cast(Any, fallback),
                reason="\n".join(reasons.get(fallback, [])) if fallback else "",
            )
        return outcome

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
        results = await self._tool_event(
            "PostToolUse",
            lambda: events.post_tool_use(tool, tool_input, response, ctx, duration_ms),
            tool,
            tool_input,
            ctx,
        )
        return _post_outcome("PostToolUse", tool.name, results)

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
        results = await self._tool_event(
            "PostToolUseFailure",
            lambda: events.post_tool_use_failure(tool, tool_input, error, ctx, duration_ms),
            tool,
            tool_input,
            ctx,
        )
        return _post_outcome("PostToolUseFailure", tool.name, results)

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
        from hands.core.decision import PermissionDecision

        results = await self._tool_event(
            "PermissionRequest",
            lambda: events.permission_request(tool, tool_input, ctx),
            tool,
            tool_input,
            ctx,
        )
        allowed: HookResult | None = None
        for r in results:
            if r.request_behavior == "deny":
                if r.request_interrupt and self._stop_reason is None:
                    self._stop_reason = r.request_message or "a PermissionRequest hook interrupted"
                return PermissionDecision(
                    behavior="deny",
                    message=r.request_message
                    or (
                        f"A PermissionRequest hook denied this {tool.name} call; it was not "
                        "run. Do something else or ask the user."
                    ),
                    reason="PermissionRequest hook",
                )
            if r.request_behavior == "allow" and allowed is None:
                allowed = r
        if allowed is None:
            return None
        return PermissionDecision(
            behavior="allow",
            reason="allowed by a PermissionRequest hook",
            updated_input=allowed.updated_input,
        )

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
            ),
            ctx,
            target=agent_type,
        )

    async def pre_compact(
        self, ctx: ToolContext, *, trigger: str, custom_instructions: str = ""
    ) -> LoopHookOutcome:
        """PreCompact (``manual`` or ``auto``): a block cancels the compaction."""
        return await self._loop_event(
            "PreCompact",
            lambda: events.pre_compact(
                ctx, trigger=trigger, custom_instructions=custom_instructions
            ),
            ctx,
            target=trigger,
        )

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


def _post_outcome(event: str, tool_name: str, results: list[HookResult]) -> PostToolUseOutcome:
    if not results:
        return NO_POST
    context: list[str] = []
    feedback: list[str] = []
    replaces = False
    new_output: Any = None
    for r in results:
        if r.additional_context:
            context.append(reminder(event, r.additional_context, tool_name))
        if r.blocking and r.reason:
            feedback.append(r.reason)
        if r.has_updated_output:
            replaces, new_output = True, r.updated_output
    return PostToolUseOutcome(
        additional_context="\n".join(context),
        block_reason="\n".join(feedback),
        replaces_output=replaces,
        updated_output=new_output,
    )


def _loop_outcome(
    event: str,
    results: list[HookResult],
    *,
    plain_is_context: bool = False,
    can_block: bool = True,
) -> LoopHookOutcome:
    if not results:
        return NO_LOOP
    block = False
    reasons: list[str] = []
    context: list[str] = []
    stop = False
    stop_reasons: list[str] = []
    for r in results:
        if r.blocking and can_block:
            block = True
            if r.reason:
                reasons.append(r.reason)
        if r.additional_context:
            context.append(r.additional_context)
        if plain_is_context and r.plain_text:
            context.append(r.plain_text)
        if not r.continue_:
            stop = True
            if r.stop_reason:
                stop_reasons.append(r.stop_reason)
    return LoopHookOutcome(
        block=block,
        reason="\n".join(reasons) or (f"blocked by a {event} hook" if block else ""),
        context="\n".join(context),
        stop=stop,
        stop_reason="\n".join(stop_reasons) or (f"a {event} hook asked to stop" if stop else ""),
    )


def _rule_engine(rule_text: str, root: Path) -> PermissionEngine | None:
    from hands.permissions.engine import PermissionEngine
    from hands.permissions.rules import PermissionRule, RuleOrigin, parse_rule

    origin = RuleOrigin(scope="session", label="hook condition", root=root)
    rule = parse_rule(rule_text, "deny", origin)
    if not isinstance(rule, PermissionRule):
        return None
    return PermissionEngine([rule])


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
