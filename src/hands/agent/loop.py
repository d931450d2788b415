"""``query``: the agent loop. Stream the model, run tools as their blocks complete, repeat.

The loop never changes when a tool is added: tools live in the pool, the pipeline runs
them, the executor schedules them.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from hands.agent import hook_turns
from hands.agent.compaction.compactor import Compactor
from hands.agent.compaction.settings import CompactionSettings
from hands.agent.events import (
    BlockEvent,
    CompactionEvent,
    MessageEvent,
    QueryEvent,
    RequestRetryEvent,
    ResultEvent,
    ResultSubtype,
    StreamRetryEvent,
    build_block_event,
    build_text_delta_event,
)
from hands.agent.interruption import PartialText, interruption_marker
from hands.agent.options import QueryOptions, ReadySource, ToolSource
from hands.core.context import PermissionMode, ToolContext
from hands.core.hooks import LoopHooks
from hands.core.inbox import Inbox
from hands.core.lifecycle import WorktreeHooks
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
from hands.core.state import kinds_of
from hands.core.tool import Tool, ToolSpec
from hands.core.words import plural
from hands.errors import StreamInterruptedError
from hands.models.base import (
    BlockComplete,
    MessageStop,
    ModelRequest,
    RetryWait,
    SessionModel,
    TextDelta,
    Usage,
)
from hands.models.facts import facts_of
from hands.models.ledger import UsageLedger
from hands.models.plan_mode import model_in_mode
from hands.orchestration.events import ToolProgressEvent, ToolResultEvent
from hands.orchestration.outbox import Outbox
from hands.orchestration.streaming import StreamingToolExecutor
from hands.permissions import plan_mode
from hands.permissions.simple import SimplePolicy
from hands.pipeline.pool import ToolPool, pool_for
from hands.pipeline.runtime import ToolRuntime
from hands.tools.planning.ask_user_question import answering


class _ModelFailed:
    def __init__(self, error: BaseException) -> None:
        self.error = error


@dataclass(kw_only=True, slots=True)
class _Run:
    """One query's state across its turns."""

    opts: QueryOptions
    source: ToolSource | None
    runtime: ToolRuntime
    ctx: ToolContext
    hooks: LoopHooks | None
    started: float = field(default_factory=time.perf_counter)
    specs: list[ToolSpec] = field(default_factory=lambda: list[ToolSpec]())
    compactor: Compactor
    retries_left: int = 0
    turns: int = 0
    stop_blocks: int = 0
    final_text: str = ""
    error: str = ""
    subtype: ResultSubtype = "success"

    def __post_init__(self) -> None:
        self.specs = self.runtime.tools.specs()
        self.retries_left = self.opts.stream_retries


@dataclass(kw_only=True, slots=True)
class _Turn:
    """What one model request came to."""

    blocks: list[ContentBlock] = field(default_factory=lambda: list[ContentBlock]())
    results: list[ToolResultEvent] = field(default_factory=lambda: list[ToolResultEvent]())
    failure: BaseException | None = None
    stop: bool = False
    stop_reason: str = ""


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
        self.ledger = UsageLedger()
        """Usage and cost per model, request by request (opusplan uses two)."""
        self._request_model = facts_of(options.model)
        self.session = options.session or Session()
        self._iterator: AsyncIterator[QueryEvent] | None = None
        self._current: _Run | None = None
        self._mode: PermissionMode = options.permission_mode
        self.context_tokens: int | None = None
        """The conversation's size in tokens as the provider last counted it (None: not yet)."""
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
        if isinstance(self.options.tools, ReadySource):
            await self.options.tools.ready()
        run = self._start()
        prompt = self._prompt if isinstance(self._prompt, Message) else user_text(self._prompt)
        if run.hooks is not None:
            prompt, run.error = await hook_turns.open_session(
                run.hooks,
                run.ctx,
                prompt,
                resumed=bool(run.opts.history),
                source=run.opts.session_start,
            )
            run.subtype = "error_during_execution" if run.error else run.subtype
        self.messages.append(prompt)
        while not run.error:
            if run.opts.max_turns is not None and run.turns >= run.opts.max_turns:
                run.subtype = "error_max_turns"
                run.error = f"reached the limit of {plural(run.opts.max_turns, 'turn')}"
                break
            run.turns += 1
            for note in self._before_turn(run):
                yield MessageEvent(message=note)
            compacted = await self._fit_window(run)
            if compacted is not None:
                yield compacted
            turn = _Turn()
            async with aclosing(self._turn(run, turn)) as events:
                async for event in events:
                    yield event
            async with aclosing(self._after_turn(run, turn)) as events:
                async for event in events:
                    yield event
            if turn.stop and not await self._await_background(run):
                break
        await hook_turns.end_session(run.hooks, run.ctx, run.opts.session_end)
        yield ResultEvent(
            subtype=run.subtype,
            result=run.final_text,
            num_turns=run.turns,
            duration_ms=(time.perf_counter() - run.started) * 1000,
            session_id=self.session.id,
            usage=self.usage,
            model_usage=dict(self.ledger.by_model),
            error=run.error,
            stop_reason="tool_deferred" if self.deferred_tool_use is not None else None,
            deferred_tool_use=self.deferred_tool_use,
        )

    def _begin_checkpoint(self) -> None:
        from hands.pipeline.checkpoints import CheckpointStore, store_for

        session = self.session
        store = session.service(CheckpointStore, lambda: store_for(session.directory))
        prompt = self._prompt
        if not isinstance(prompt, str):  # the prompt's own text, not the files attached to it
            prompt = next((b.text for b in prompt.content if isinstance(b, TextBlock)), "")
        store.begin_turn(prompt, message_index=len(self.options.history))

    def _start(self) -> _Run:
        opts = self.options
        if opts.agent_id is None:  # a user turn: the files it writes are checkpointed
            self._begin_checkpoint()
        limits = opts.limits or Limits.from_env()
        source = opts.tools if isinstance(opts.tools, ToolSource) else None
        pool = source.current_pool() if source is not None else _pool(opts.tools, limits)
        self.session.register_states(kinds_of(pool))
        runtime = ToolRuntime(
            tools=pool,
            policy=opts.policy or SimplePolicy(),
            ask=opts.ask
            if opts.answer_questions is None
            else answering(opts.answer_questions, opts.ask),
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
            agent_id=opts.agent_id,
            agent_type=opts.agent_type,
            host=self,
        )
        hooks = opts.hooks if isinstance(opts.hooks, LoopHooks) else None
        in_use = self.session.service(SessionModel)
        in_use.model = in_use.model or opts.model
        compactor = Compactor(
            model=opts.model,
            settings=opts.compaction or CompactionSettings.from_env(),
            hooks=opts.hooks,
        )
        self._current = _Run(
            opts=opts, source=source, runtime=runtime, ctx=ctx, hooks=hooks, compactor=compactor
        )
        return self._current

    @property
    def runtime(self) -> ToolRuntime | None:
        """The pool, policy, ask handler, hooks and limits of the running turn."""
        return self._current.runtime if self._current is not None else None

    @property
    def worktree_hooks(self) -> WorktreeHooks | None:
        """The hooks that make and remove worktrees in git's place (a :class:`LifecycleHost`)."""
        hooks = self.options.hooks
        return hooks if isinstance(hooks, WorktreeHooks) else None

    async def _await_background(self, run: _Run) -> bool:
        """The model is done: wait for background work it started, if any; True to go on."""
        inbox = self.session.service(Inbox)
        if not run.opts.wait_for_background or self._interrupted or run.error:
            return False
        if inbox.peek(run.opts.agent_id):
            return True  # it ended while the model was answering: its notice goes next
        if not inbox.outstanding(run.opts.agent_id):
            return False
        with anyio.CancelScope() as scope:
            self._model_scope = scope
            await inbox.wait(run.opts.agent_id)
        self._model_scope = None
        return not self._interrupted

    async def _fit_window(self, run: _Run) -> CompactionEvent | None:
        """Compact before a request that would pass the context window's threshold.

        An interrupt stops a summary request like any model request: nothing changes.
        """
        outcome = None
        with anyio.CancelScope() as scope:
            self._model_scope = scope
            if self._interrupted:
                scope.cancel()
            outcome = await run.compactor.before_request(
                self.messages, run.ctx, system=run.opts.system_prompt, tools=run.specs
            )
        self._model_scope = None
        self.context_tokens = run.compactor.counter.last_tokens
        if outcome is None or scope.cancelled_caught:
            return None
        self.messages[:] = outcome.messages
        return CompactionEvent(outcome=outcome)

    def set_permission_mode(self, mode: PermissionMode) -> None:
        """Run the calls that start from now on in ``mode`` (the host changed it)."""

        def change(ctx: ToolContext) -> ToolContext:
            return dataclasses.replace(ctx, permission_mode=mode)

        self._mode = mode
        if self._executor is not None:
            self._executor.modify_context(change)
        if self._current is not None:
            self._current.ctx = change(self._current.ctx)

    @property
    def permission_mode(self) -> PermissionMode:
        """The mode in force: the one it started in, as tools (plan mode) changed it."""
        return self._mode

    def _before_turn(self, run: _Run) -> list[Message]:
        """Messages to send first, and the pool refreshed from the source.

        Background work's notices, then the plan-mode reminder with the source's reminder
        (deferred tools).
        """
        notes: list[Message] = []
        notices = self.session.service(Inbox).take(run.opts.agent_id)
        if notices:
            notes.append(user_text("\n\n".join(notices)))
            self.messages.append(notes[-1])
        planning = plan_mode.reminder(run.ctx) if run.turns == 1 else None
        note = None
        if run.source is not None:
            if run.turns > 1:
                fresh = run.source.current_pool()
                self.session.register_states(kinds_of(fresh))
                if fresh is not run.runtime.tools:
                    run.runtime = dataclasses.replace(run.runtime, tools=fresh)
                    run.specs = fresh.specs()
            # Deferred tools are announced in the conversation, not the system prompt, so
            # the cached system prompt stays put.
            note = run.source.reminder_message(self.messages)
        if planning is not None:
            content = (*planning.content, *(note.content if note is not None else ()))
            note = Message(role="user", content=content)
        if run.turns > 1 and run.opts.output_style:
            from hands.config.output_styles import style_reminder

            style = TextBlock(text=style_reminder(run.opts.output_style))
            note = Message(role="user", content=(*(note.content if note else ()), style))
        if note is not None:
            self.messages.append(note)
            notes.append(note)
        return notes

    async def _turn(self, run: _Run, turn: _Turn) -> AsyncGenerator[QueryEvent]:
        """One model request: stream it, run its tools as they complete, keep what came."""
        request = ModelRequest(
            messages=tuple(self.messages),
            tools=run.specs,
            system=run.opts.system_prompt,
            effort=run.opts.effort,
            betas=run.opts.betas,
        )
        executor: StreamingToolExecutor | None = None
        partial = PartialText()
        async with anyio.create_task_group() as tg:
            # the model's pump and the executor write, this turn reads; it ends when both
            # are done
            outbox = Outbox[Any](writers=2)
            executor = StreamingToolExecutor(
                runtime=run.runtime, context=run.ctx, task_group=tg, sink=outbox
            )
            self._executor = executor
            if self._interrupted:
                executor.interrupt()
            tg.start_soon(self._pump_model, request, executor, outbox, run.opts.streaming)
            async for event in outbox.receive_all():
                if isinstance(event, TextDelta):
                    partial.add(event.index, event.text)
                    yield build_text_delta_event(event.text)
                elif isinstance(event, BlockComplete):
                    partial.done(event.index)
                    turn.blocks.append(event.block)
                    yield build_block_event(event.block)
                elif isinstance(event, MessageStop):
                    self.usage = self.usage + event.usage
                    self.ledger.add(self._request_model, event.usage)
                    turn.stop_reason = event.stop_reason
                    run.compactor.observe(event.usage, request.messages)
                    self.context_tokens = run.compactor.counter.last_tokens
                elif isinstance(event, ToolResultEvent):
                    turn.results.append(event)
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
                    turn.failure = event.error
        if self._interrupted:  # the reply cut short is kept as far as it came
            for block in partial.blocks():
                turn.blocks.append(block)
                yield BlockEvent(block=block)
        assert executor is not None
        run.ctx = executor.context
        self._mode = run.ctx.permission_mode
        self._executor = None

    async def _after_turn(self, run: _Run, turn: _Turn) -> AsyncGenerator[QueryEvent]:
        """Retry a broken stream, or keep the turn's messages, then decide whether to stop."""
        if _retryable(turn.failure) and run.retries_left > 0 and not self._interrupted:
            # The broken stream's tools were discarded; its partial message is dropped
            # and the same request goes out again.
            run.retries_left -= 1
            run.turns -= 1
            yield StreamRetryEvent(error=str(turn.failure), retries_left=run.retries_left)
            retried = run.opts.stream_retries - run.retries_left
            await anyio.sleep(run.opts.stream_retry_delay_s * retried)
            return
        hooks, results = run.hooks, turn.results
        if turn.blocks:
            assistant = Message(role="assistant", content=tuple(turn.blocks))
            self.messages.append(assistant)
            yield MessageEvent(message=assistant)
            run.final_text = assistant.text or run.final_text
        batch_extra: tuple[TextBlock, ...] = ()
        if results and hooks is not None and not self._interrupted:
            batch_extra, run.error = await hook_turns.after_batch(hooks, run.ctx, results)
        if results:
            user = _results_message(results, run.runtime, run.ctx, batch_extra)
            self.messages.append(user)
            yield MessageEvent(message=user)
        turn.stop = True
        if self._interrupted:
            marker = interruption_marker(during_calls=bool(results))
            self.messages.append(marker)
            yield MessageEvent(message=marker)
            run.subtype, run.error = "interrupted", "interrupted by the user"
            return
        if turn.failure is not None:
            run.subtype = "error_during_execution"
            run.error = f"model stream failed: {turn.failure}"
            return
        if hooks is not None:
            ended, self.deferred_tool_use = hook_turns.why_end(hooks, results)
            run.error = run.error or ended
            if run.error or self.deferred_tool_use is not None:
                run.subtype = "error_during_execution" if run.error else run.subtype
                return
        if results or turn.stop_reason == "pause_turn":
            # pause_turn: the API paused its own tool loop (web search); sending the
            # conversation again, paused message last, lets it go on.
            turn.stop = False
            return
        nudge = None
        if hooks is not None:
            nudge = await hook_turns.on_stop(
                hooks, run.ctx, blocks_so_far=run.stop_blocks, last_text=run.final_text
            )
        if nudge is not None:
            turn.stop = False
            run.stop_blocks += 1
            self.messages.append(nudge)
            yield MessageEvent(message=nudge)

    async def _pump_model(
        self,
        request: ModelRequest,
        executor: StreamingToolExecutor,
        send: Outbox[Any],
        streaming: bool,
    ) -> None:
        held: list[BlockComplete] = []
        try:
            with anyio.CancelScope() as scope:
                self._model_scope = scope
                if self._interrupted:
                    scope.cancel()
                model = model_in_mode(self.options.model, self._mode)  # opusplan
                self._request_model = facts_of(model)
                async for event in model.stream(request):
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
            send.close()  # this writer is done (the executor closes its own side)


def query(prompt: str | Message, options: QueryOptions) -> Query:
    """Run the agent loop on ``prompt``; iterate the result for events."""
    return Query(prompt, options)


def _retryable(failure: BaseException | None) -> bool:
    return isinstance(failure, StreamInterruptedError) and failure.retryable


def _pool(
    tools: ToolPool | Sequence[Tool[Any, Any]] | ToolSource | None, limits: Limits
) -> ToolPool:
    if tools is None:
        return pool_for(simple=limits.simple)
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
