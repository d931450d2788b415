"""``HookRunner``: runs the handlers of one event, in parallel or in the background.

It keeps what running hooks leaves behind for the loop: the stop reason (``continue:
false``), the notices for the user, and what background (``async: true``) handlers
said, which waits in :meth:`HookRunner.take_pending` for the model's next turn. The
background handlers are stopped (with their process groups) when the session closes.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import anyio

from hands.hooks.config import TOOL_EVENTS, HookConfig, HookHandler
from hands.hooks.output import HookResult, HookRun, interpret

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.core.session import Session
    from hands.core.tool import Tool
    from hands.hooks.callbacks import HookCallbacks
    from hands.permissions.rules import PermissionRule

log = logging.getLogger("hands.hooks")

BACKGROUND_STOP_S = 5.0
"""How long closing the session waits for stopped background hooks to settle."""
PLAIN_IS_CONTEXT = frozenset({"SessionStart", "UserPromptSubmit"})
ENV_FILE_EVENTS = frozenset({"SessionStart"})
"""Events whose command hooks get ``CLAUDE_ENV_FILE``: exports written there reach Bash."""


class HookRunner:
    """Runs configured handlers at their events and keeps what they leave for the loop."""

    def __init__(
        self,
        config: HookConfig,
        *,
        callbacks: HookCallbacks | None = None,
        on_notice: Callable[[str], None] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.config = config.merged(callbacks.config()) if callbacks is not None else config
        self.warnings = self.config.warnings
        self.on_notice = on_notice
        self.env = dict(env) if env else None
        """Extra environment for command hooks."""
        self.notices: list[str] = []
        self.on_run: Callable[[str, HookHandler, HookRun | None], None] | None = None
        """Told when a handler starts (``event, handler, None``) and ends (with its run);
        a host that shows hook activity sets it."""
        self.transcript_path: str | None = None
        """The session's transcript file, when one is written (else a path under the
        session directory is given)."""
        self._stop_reason: str | None = None
        self._pending: list[str] = []
        self._background: set[asyncio.Task[None]] = set()
        self._cleanup_for: weakref.WeakSet[Session] = weakref.WeakSet()
        self._if_rules: dict[str, PermissionRule | None] = {}

    @property
    def stop_reason(self) -> str | None:
        """Set once a hook answered ``continue: false``."""
        return self._stop_reason

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
        handlers = await self._applicable(event, target, tool, tool_input, ctx)
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
            if self.on_run is not None:
                self.on_run(event, handler, None)
            runs[i] = await self._run_one(handler, event, payload, body, ctx)
            if self.on_run is not None:
                self.on_run(event, handler, runs[i])

        if len(handlers) == 1:
            await one(0, handlers[0])
        else:
            async with anyio.create_task_group() as tg:
                for i, handler in enumerate(handlers):
                    tg.start_soon(one, i, handler)
        return [self._read(event, run, ctx) for run in runs if run is not None]

    async def _applicable(
        self,
        event: str,
        target: str | None,
        tool: Tool[Any, Any] | None,
        tool_input: Mapping[str, Any] | None,
        ctx: ToolContext,
    ) -> list[HookHandler]:
        """The handlers of ``event`` for ``target`` whose ``if`` rule (if any) matches."""
        aliases = tool.aliases if tool is not None else ()
        handlers = self.config.handlers_for(event, target, aliases=aliases)
        if not handlers:
            return []
        if event not in TOOL_EVENTS or tool is None or tool_input is None:
            return [h for h in handlers if h.if_rule is None]
        kept: list[HookHandler] = []
        for handler in handlers:
            if handler.if_rule is None or await self._if_matches(
                handler.if_rule, tool, tool_input, ctx
            ):
                kept.append(handler)
        return kept

    def _read(self, event: str, run: HookRun, ctx: ToolContext) -> HookResult:
        """One handler's answer; its notices go to the user, a stop is kept."""
        result = interpret(event, run, session=ctx.session)
        self.notice(result.notice)
        self.notice(result.system_message)
        if not result.continue_ and self._stop_reason is None:
            self._stop_reason = result.stop_reason or f"a {event} hook asked to stop"
            self.notice(f"{event} hook stopped the run: {self._stop_reason}")
        return result

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
                from hands.hooks.command import run_command  # lazy: start-up

                env = self.env
                if event in ENV_FILE_EVENTS:
                    from hands.config.env_file import hook_env  # lazy: start-up

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
                from hands.hooks.http import run_http  # lazy: start-up

                return await run_http(handler, body, timeout_s=timeout)
            from hands.hooks.callbacks import run_callback  # lazy: start-up

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
        from hands.permissions.engine import matches  # lazy: start-up
        from hands.permissions.rules import PermissionRule, RuleOrigin, parse_rule  # lazy: start-up

        if rule_text in self._if_rules:
            rule = self._if_rules[rule_text]
        else:
            origin = RuleOrigin(scope="session", label="hook condition", root=ctx.root)
            parsed_rule = parse_rule(rule_text, "deny", origin)
            rule = parsed_rule if isinstance(parsed_rule, PermissionRule) else None
            if rule is None:
                self.notice(
                    f"hook condition 'if: {rule_text}' is not a valid permission rule; the "
                    "hook runs on every matching call (write one rule such as Bash(git *))"
                )
            self._if_rules[rule_text] = rule
        if rule is None:
            return True
        try:
            return matches(rule, tool, tool.parse_input(tool_input), ctx)
        except anyio.get_cancelled_exc_class():
            raise
        except Exception:
            return True  # fail open: the hook runs
