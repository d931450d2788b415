"""``query``: the agent loop. Stream the model, run tools as their blocks complete, repeat.

The loop never changes when a tool is added: tools live in the pool, the pipeline runs
them, the executor schedules them.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectSendStream

from hands.agent import hook_turns
from hands.agent.events import (
    BlockEvent,
    MessageEvent,
    QueryEvent,
    RequestRetryEvent,
    ResultEvent,
    ResultSubtype,
    StreamRetryEvent,
    TextDeltaEvent,
)
from hands.agent.options import QueryOptions, ToolSource
from hands.core.context import ToolContext
from hands.core.hooks import LoopHooks
from hands.core.limits import Limits
from hands.core.messages import (
    ContentBlock,
    Message,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    user_text,
)
from hands.core.session import Session
from hands.core.spill import fit_message_budget
from hands.core.tool import Tool
from hands.core.words import plural
from hands.errors import StreamInterruptedError
from hands.models.base import (
    BlockComplete,
    MessageStop,
    ModelRequest,
    RetryWait,
    TextDelta,
    Usage,
)
from hands.orchestration.events import ToolProgressEvent, ToolResultEvent
from hands.orchestration.streaming import StreamingToolExecutor
from hands.permissions.simple import SimplePolicy
from hands.pipeline.pool import ToolPool, assemble_pool
from hands.pipeline.runtime import ToolRuntime


class _ModelFailed:
    def __init__(self, error: BaseException) -> None:
        self.error = error


class Query:
    """An async iterator of :data:`QueryEvent`; ``interrupt()`` stops it cleanly.

    Iterate it to the end, or close it with ``aclose()`` (e.g. ``contextlib.aclosing``)
    in the task that iterates it.
    """

    def __init__(self, prompt: str | Message, options: QueryOptions) -> None:
        self.options = options
        self._prompt = prompt
        self._interrupted = False
        self._executor: StreamingToolExecutor | None = None
        self._model_scope: anyio.CancelScope | None = None
        self.messages: list[Message] = list(options.history)
        self.usage = Usage()
        self.session = options.session or Session()
        self._iterator: AsyncIterator[QueryEvent] | None = None
        self.deferred_tool_use: ToolUseBlock | None = None
        """Set when a PreToolUse hook deferred the turn's only call: the run ended there."""

    def __aiter__(self) -> AsyncIterator[QueryEvent]:
        if self._iterator is None:
            self._iterator = self._run()
        return self._iterator

    async def aclose(self) -> None:
        """Close the underlying generator (runs its cleanup)."""
        if self._iterator is not None:
            await self._iterator.aclose()  # type: ignore[attr-defined]

    @property
    def interrupted(self) -> bool:
        """Whether :meth:`interrupt` was called."""
        return self._interrupted

    def interrupt(self) -> None:
        """Stop the model stream and every running tool; the query ends 'interrupted'."""
        self._interrupted = True
        if self._model_scope is not None:
            self._model_scope.cancel()
        if self._executor is not None:
            self._executor.interrupt()

    async def _run(self) -> AsyncIterator[QueryEvent]:
        opts = self.options
        started = time.perf_counter()
        limits = opts.limits or Limits.from_env()
        source = opts.tools if isinstance(opts.tools, ToolSource) else None
        pool = source.current_pool() if source is not None else _pool(opts.tools, limits)
        runtime = ToolRuntime(
            tools=pool,
            policy=opts.policy or SimplePolicy(),
            ask=opts.ask,
            hooks=opts.hooks,
            limits=limits,
        )
        cwd = (opts.cwd or Path.cwd()).resolve()
        ctx = ToolContext(
            cwd=cwd,
            session=self.session,
            project_dir=cwd,
            additional_dirs=tuple(opts.additional_dirs),
            permission_mode=opts.permission_mode,
        )
        prompt = self._prompt if isinstance(self._prompt, Message) else user_text(self._prompt)
        hooks = opts.hooks if isinstance(opts.hooks, LoopHooks) else None
        turns, final_text, error, stop_blocks = 0, "", "", 0
        subtype: ResultSubtype = "success"
        if hooks is not None:
            prompt, error = await hook_turns.open_session(
                hooks, ctx, prompt, resumed=bool(opts.history), source=opts.session_start
            )
            subtype = "error_during_execution" if error else subtype
        self.messages.append(prompt)
        specs = pool.specs()
        retries_left = opts.stream_retries
        while not error:
            if opts.max_turns is not None and turns >= opts.max_turns:
                subtype, error = (
                    "error_max_turns",
                    f"reached the limit of {plural(opts.max_turns, 'turn')}",
                )
                break
            turns += 1
            if source is not None and turns > 1:
                fresh = source.current_pool()
                if fresh is not pool:
                    pool = fresh
                    runtime = dataclasses.replace(runtime, tools=pool)
                    specs = pool.specs()
            note = _deferred_tools_note(opts.tools, self.messages)
            if note is not None:
                self.messages.append(note)
                yield MessageEvent(message=note)
            request = ModelRequest(
                messages=tuple(self.messages), tools=specs, system=opts.system_prompt
            )
            blocks: list[ContentBlock] = []
            results: list[ToolResultEvent] = []
            failure: BaseException | None = None
            executor: StreamingToolExecutor | None = None
            async with anyio.create_task_group() as tg:
                send, receive = anyio.create_memory_object_stream[Any](math.inf)
                executor = StreamingToolExecutor(
                    runtime=runtime, context=ctx, task_group=tg, sink=send.clone()
                )
                self._executor = executor
                if self._interrupted:
                    executor.interrupt()
                tg.start_soon(self._pump_model, request, executor, send.clone(), opts.streaming)
                send.close()
                async with receive:
                    async for event in receive:
                        if isinstance(event, TextDelta):
                            yield TextDeltaEvent(text=event.text)
                        elif isinstance(event, BlockComplete):
                            blocks.append(event.block)
                            yield BlockEvent(block=event.block)
                        elif isinstance(event, MessageStop):
                            self.usage = self.usage + event.usage
                        elif isinstance(event, ToolResultEvent):
                            results.append(event)
                            yield event
                        elif isinstance(event, ToolProgressEvent):
                            yield event
                        elif isinstance(event, RetryWait):
                            yield RequestRetryEvent(
                                error=event.error,
                                attempt=event.attempt,
                                max_attempts=event.max_attempts,
                                delay_s=event.delay_s,
                            )
                        elif isinstance(event, _ModelFailed):
                            failure = event.error
            assert executor is not None
            ctx = executor.context
            self._executor = None
            if _retryable(failure) and retries_left > 0 and not self._interrupted:
                # The broken stream's tools were discarded; its partial message is dropped
                # and the same request goes out again.
                retries_left -= 1
                turns -= 1
                yield StreamRetryEvent(error=str(failure), retries_left=retries_left)
                await anyio.sleep(opts.stream_retry_delay_s * (opts.stream_retries - retries_left))
                continue
            if blocks:
                assistant = Message(role="assistant", content=tuple(blocks))
                self.messages.append(assistant)
                yield MessageEvent(message=assistant)
                final_text = assistant.text or final_text
            batch_extra: tuple[TextBlock, ...] = ()
            if results and hooks is not None and not self._interrupted:
                batch_extra, error = await hook_turns.after_batch(hooks, ctx, results)
            if results:
                user = _results_message(results, runtime, ctx, batch_extra)
                self.messages.append(user)
                yield MessageEvent(message=user)
            if self._interrupted:
                subtype, error = "interrupted", "interrupted by the user"
                break
            if failure is not None:
                subtype, error = "error_during_execution", f"model stream failed: {failure}"
                break
            if hooks is not None:
                ended, self.deferred_tool_use = hook_turns.why_end(hooks, results)
                error = error or ended
                if error or self.deferred_tool_use is not None:
                    subtype = "error_during_execution" if error else subtype
                    break
            if not results:
                nudge = None
                if hooks is not None:
                    nudge = await hook_turns.on_stop(
                        hooks, ctx, blocks_so_far=stop_blocks, last_text=final_text
                    )
                if nudge is None:
                    break
                stop_blocks += 1
                self.messages.append(nudge)
                yield MessageEvent(message=nudge)
        await hook_turns.end_session(hooks, ctx, opts.session_end)
        yield ResultEvent(
            subtype=subtype,
            result=final_text,
            num_turns=turns,
            duration_ms=(time.perf_counter() - started) * 1000,
            session_id=self.session.id,
            usage=self.usage,
            error=error,
            stop_reason="tool_deferred" if self.deferred_tool_use is not None else None,
            deferred_tool_use=self.deferred_tool_use,
        )

    async def _pump_model(
        self,
        request: ModelRequest,
        executor: StreamingToolExecutor,
        send: MemoryObjectSendStream[Any],
        streaming: bool,
    ) -> None:
        held: list[BlockComplete] = []
        async with send:
            try:
                with anyio.CancelScope() as scope:
                    self._model_scope = scope
                    if self._interrupted:
                        scope.cancel()
                    async for event in self.options.model.stream(request):
                        if isinstance(event, BlockComplete):
                            if event.tool_use is not None:
                                if streaming:
                                    executor.add(event.tool_use)
                                else:
                                    held.append(event)
                            send.send_nowait(event)
                        elif isinstance(event, TextDelta | MessageStop | RetryWait):
                            send.send_nowait(event)  # the rest is of no use to the loop
                for event in held:
                    if event.tool_use is not None:
                        executor.add(event.tool_use)
            except Exception as exc:
                executor.discard()
                send.send_nowait(_ModelFailed(exc))
            finally:
                self._model_scope = None
                executor.close()


def query(prompt: str | Message, options: QueryOptions) -> Query:
    """Run the agent loop on ``prompt``; iterate the result for events."""
    return Query(prompt, options)


def _deferred_tools_note(tools: object, messages: list[Message]) -> Message | None:
    # Deferred tools are announced in the conversation, not the system prompt, so the
    # cached system prompt stays put; only a deferring source has anything to say.
    if not hasattr(tools, "deferred_tools"):
        return None
    from hands.discovery.deferral import reminder_message

    return reminder_message(tools, messages)


def _retryable(failure: BaseException | None) -> bool:
    return isinstance(failure, StreamInterruptedError) and failure.retryable


def _pool(
    tools: ToolPool | Sequence[Tool[Any, Any]] | ToolSource | None, limits: Limits
) -> ToolPool:
    if tools is None:
        return assemble_pool(simple=limits.simple)
    if isinstance(tools, ToolSource):
        return tools.current_pool()
    return tools if isinstance(tools, ToolPool) else ToolPool(tools)


def _results_message(
    results: list[ToolResultEvent],
    runtime: ToolRuntime,
    ctx: ToolContext,
    batch_extra: tuple[TextBlock, ...] = (),
) -> Message:
    blocks = fit_message_budget(
        [r.outcome.block for r in results],
        budget=runtime.limits.message_budget_chars,
        session=ctx.session,
        spillable=[r.outcome.spillable for r in results],
    )
    extra = [TextBlock(text=text) for r in results for text in r.outcome.extra_context]
    content: tuple[ContentBlock, ...] = (*blocks, *extra, *batch_extra)
    return Message(role="user", content=content)


__all__ = ["Query", "QueryOptions", "ToolResultBlock", "query"]
