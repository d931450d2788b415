"""``StreamingToolExecutor``: runs tool_use blocks while the model is still streaming.

Each block is queued as soon as it finishes streaming. A queued call starts when
nothing runs, or when it and everything running are concurrency-safe (up to the
concurrency cap); a call that cannot start blocks every call queued after it, so a later
Read never overtakes a queued Edit. Progress is emitted at once; results in request
order. Every call gets exactly one result, whatever happens: a failing Bash call cancels
its siblings (switchable off), ``discard()`` abandons what is pending, ``interrupt()``
stops everything.

Calls run in worker tasks. A worker runs the calls ready to start one after another,
each in its own copy of the context; most calls finish without ever waiting, so a batch
of them costs one task, not one each. A call that waits keeps its worker to its end (its
cancel scopes, its timer and its cancellation belong to that task), and the calls ready
meanwhile get a new worker, so they still run side by side. A call is cancelled on its
own through its worker (a native cancel, undone with ``Task.uncancel``), which runs
nothing else meanwhile; a worker whose call was stopped ends with it, so no
cancellation meant for one call reaches the next. A supervisor task in the turn's task
group keeps the structure: the group cannot finish while a call runs, and cancelling
the group interrupts every call and waits for them to settle. It starts with the first
call, after that call's worker, so a batch whose calls never wait has ended when it
first runs, and the group is not woken once more to let it go. Spawning through anyio
costs ~30 µs a task, a plain task ~3 µs. The executor therefore needs the asyncio
backend.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Callable, Coroutine, Generator
from contextvars import Context, copy_context
from enum import Enum
from functools import partial
from typing import Any

import anyio
from anyio.abc import TaskGroup
from anyio.streams.memory import MemoryObjectSendStream
from pydantic import BaseModel

from hands.core.context import ToolContext
from hands.core.messages import ToolUseBlock
from hands.core.outcome import ToolCallOutcome, error_outcome
from hands.core.tool import Tool
from hands.orchestration.events import (
    ExecutorEvent,
    ToolProgressEvent,
    build_result_event,
)
from hands.orchestration.outbox import Outbox
from hands.orchestration.partition import classify_call
from hands.pipeline.execution import run_tool_use, timeout_outcome, unknown_tool_outcome
from hands.pipeline.pool import resolve
from hands.pipeline.runtime import ToolRuntime
from hands.shell.spawn import releasing, wait_released

DISCARDED = (
    "Discarded: the model response that requested this call was abandoned before the call "
    "finished, so it was stopped or never started and its result was dropped. Request it "
    "again if it is still needed."
)
INTERRUPTED = (
    "Interrupted by the user: this call was stopped before it finished, so its result is "
    "missing or incomplete. If it was an edit, check the file before assuming either way. "
    "Stop and wait for the user to say how to go on."
)
SPAWN_RELEASE_S = 5.0
"""How long a turn waits for processes started by cancelled calls to be killed."""
CANCELLED = "Cancelled: this call was stopped before it finished; its result is incomplete."
NOT_STARTED_INTERRUPTED = (
    "Interrupted by the user before this call started: it was not run and nothing was "
    "changed. Stop and wait for the user to say how to go on."
)


class ToolState(Enum):
    """Life of one call inside the executor."""

    QUEUED = "queued"
    EXECUTING = "executing"
    COMPLETED = "completed"
    YIELDED = "yielded"


class _Tracked:
    __slots__ = (
        "block",
        "cancel_text",
        "outcome",
        "parsed",
        "safe",
        "started",
        "state",
        "task",
        "timed_out",
        "timer",
        "tool",
    )

    def __init__(
        self, block: ToolUseBlock, tool: Tool[Any, Any] | None, parsed: BaseModel | None, safe: bool
    ) -> None:
        self.block = block
        self.tool = tool
        self.parsed = parsed
        self.safe = safe
        self.state = ToolState.QUEUED
        self.task: asyncio.Task[None] | None = None
        self.started = False
        self.timer: asyncio.TimerHandle | None = None
        self.timed_out = False
        self.outcome: ToolCallOutcome | None = None
        self.cancel_text = ""

    # the call's time limit (the pipeline arms it around tool.call)

    def arm(self, seconds: float) -> None:
        self.timer = asyncio.get_running_loop().call_later(seconds, self._expire)

    def disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _expire(self) -> None:
        if not self.cancel_text and self.task is not None:
            self.timed_out = True
            self.cancel_text = "timeout"
            self.task.cancel()

    def stop(self, text: str) -> None:
        """Cancel the running call once, with the text its result will carry."""
        if self.cancel_text:
            return
        self.cancel_text = text
        if self.started and self.task is not None:
            self.task.cancel()


class StreamingToolExecutor:
    """Schedules calls as they arrive; see the module docstring for the rules."""

    def __init__(
        self,
        *,
        runtime: ToolRuntime,
        context: ToolContext,
        task_group: TaskGroup,
        cascade_errors: bool | None = None,
        sink: MemoryObjectSendStream[Any] | Outbox[Any] | None = None,
    ) -> None:
        """Schedule calls under ``task_group``.

        ``sink``: send events into this stream or outbox (closed once, when all are
        out) instead of offering them through :meth:`events`.
        """
        self._runtime = runtime
        self._context = context
        self._tg = task_group
        self._cascade = (
            runtime.limits.cascade_bash_errors if cascade_errors is None else cascade_errors
        )
        self._max = max(1, runtime.limits.max_concurrency)
        self._tracked: list[_Tracked] = []
        self._by_id: dict[str, _Tracked] = {}
        self._executing = 0
        self._unsafe_executing = 0
        self._scan = 0
        self._head = 0
        self._modified = 0
        self._closed = False
        self._abort_text = ""
        self._sibling_text = ""
        self._ready: deque[_Tracked] = deque()
        """Started calls no worker has taken yet."""
        self._pickers = 0
        """Workers that will take a ready call before they next wait (see _work)."""
        self._outbox: Outbox[ExecutorEvent] | None = None
        self._send: MemoryObjectSendStream[Any] | Outbox[Any]
        if sink is None:
            self._send = self._outbox = Outbox()
        else:
            self._send = sink
        try:
            self._loop = asyncio.get_running_loop()
        except RuntimeError:
            raise RuntimeError("StreamingToolExecutor runs on the asyncio backend") from None
        # asyncio's events (the executor is asyncio-only): anyio's cost ~10x to make
        self._idle = asyncio.Event()
        self._idle.set()
        self._done = asyncio.Event()
        self._supervised = False
        """Whether the supervisor runs in the task group (from the first call started)."""

    # -- public API ---------------------------------------------------------------------

    @property
    def context(self) -> ToolContext:
        """The context after every modifier applied so far (in request order)."""
        return self._context

    def modify_context(self, modifier: Callable[[ToolContext], ToolContext]) -> None:
        """Change the context of the calls that start from now on (a new permission mode)."""
        self._context = modifier(self._context)

    def state_of(self, tool_use_id: str) -> ToolState:
        """The state of one call."""
        return self._by_id[tool_use_id].state

    def add(
        self, block: ToolUseBlock, *, classified: tuple[bool, BaseModel | None] | None = None
    ) -> None:
        """Queue a finished tool_use block; it may start at once.

        ``classified``: its (safe, parsed input) when the caller already worked them out.
        """
        if self._closed:
            raise RuntimeError("add() after close(): the executor takes no more calls")
        tool, parsed, safe = self._classify(block, classified)
        tracked = _Tracked(block, tool, parsed, safe)
        self._tracked.append(tracked)
        self._by_id[block.id] = tracked
        if self._abort_text:
            text = NOT_STARTED_INTERRUPTED if self._abort_text == INTERRUPTED else self._abort_text
            self._settle(tracked, error_outcome(block, text, status="cancelled", tool=tool))
        elif tool is None:
            self._settle(tracked, unknown_tool_outcome(block, self._runtime))
        elif self._sibling_text:
            self._settle(
                tracked,
                error_outcome(block, self._sibling_text, status="cancelled", tool=tool),
            )
        else:  # it waits its turn, or starts: nothing to send yet
            self._process()
            return
        self._process()
        self._flush()

    def close(self) -> None:
        """No more blocks will come (the model's message ended)."""
        self._closed = True
        self._flush()

    def cancel(self, tool_use_id: str, reason: str = CANCELLED) -> None:
        """Cancel one call (queued or running); no other call is touched."""
        tracked = self._by_id[tool_use_id]
        if tracked.state is ToolState.QUEUED:
            self._settle(
                tracked, error_outcome(tracked.block, reason, status="cancelled", tool=tracked.tool)
            )
            self._process()
            self._flush()
        elif tracked.state is ToolState.EXECUTING:
            tracked.stop(reason)

    def discard(self) -> None:
        """Abandon everything pending: the stream that asked for it failed."""
        self._abort(DISCARDED)

    def interrupt(self) -> None:
        """The user interrupted: stop everything; unfinished calls say so."""
        self._abort(INTERRUPTED)

    def events(self) -> AsyncIterator[ExecutorEvent]:
        """Progress as it happens and results in request order, until all are out."""
        if self._outbox is None:
            raise RuntimeError("this executor sends its events to the sink it was given")
        return self._outbox.receive_all()  # its own iterator: no layer per event

    # -- scheduling -----------------------------------------------------------------------

    def _classify(
        self, block: ToolUseBlock, classified: tuple[bool, BaseModel | None] | None
    ) -> tuple[Tool[Any, Any] | None, BaseModel | None, bool]:
        tool = resolve(block.name, self._runtime.tools)
        if tool is None:
            return None, None, False
        safe, parsed = classified if classified is not None else classify_call(tool, block)
        return tool, parsed, safe

    def _can_start(self, tracked: _Tracked) -> bool:
        if self._executing == 0:
            return True
        return tracked.safe and self._unsafe_executing == 0 and self._executing < self._max

    def _process(self) -> None:
        tracked_list = self._tracked
        while (
            self._scan < len(tracked_list)
            and tracked_list[self._scan].state is not ToolState.QUEUED
        ):
            self._scan += 1
        for index in range(self._scan, len(tracked_list)):
            tracked = tracked_list[index]
            if tracked.state is not ToolState.QUEUED:
                continue
            if not self._can_start(tracked):
                break
            self._start(tracked)
            if index == self._scan:  # everything before the scan has left the queue
                self._scan = index + 1

    def _start(self, tracked: _Tracked) -> None:
        tracked.state = ToolState.EXECUTING
        self._executing += 1
        if not tracked.safe:
            self._unsafe_executing += 1
        if self._idle.is_set():
            self._idle = asyncio.Event()
        self._ready.append(tracked)
        if not self._pickers:
            self._spawn()
        if not self._supervised:
            # after the worker: a batch that ends without waiting has ended when the
            # supervisor first runs, so it leaves the group in that same pass
            self._supervised = True
            self._tg.start_soon(self._supervise, name="tool executor")

    def _spawn(self) -> None:
        # the loop holds the new task until it runs; a call it runs then holds it
        self._pickers += 1
        self._loop.create_task(self._work(), name="tool calls")

    async def _supervise(self) -> None:
        # Lives in the turn's task group: the group waits for every call through it, and
        # cancelling the group interrupts the calls and waits (shielded) until they settle.
        try:
            await self._done.wait()
        except anyio.get_cancelled_exc_class():
            self.interrupt()
            with anyio.CancelScope(shield=True):
                await self._idle.wait()
                await _release_spawns()
            raise
        await _release_spawns()

    async def _work(self) -> None:
        """A worker: takes ready calls in order and runs each to its end.

        While it runs without waiting it counts among the pickers, which take what
        becomes ready; once its call waits it leaves them (a new worker takes the ready
        calls meanwhile) and comes back when the call ends, unless the call was stopped.
        """
        task = asyncio.current_task()
        ready = self._ready
        while ready:
            tracked = ready.popleft()
            tracked.task = task
            tracked.started = True
            outcome: ToolCallOutcome | None = None
            runs = not tracked.cancel_text  # not stopped before it got going
            picking, ended = True, False
            try:
                if runs:
                    context = copy_context()
                    running = run_tool_use(
                        tracked.block,
                        self._context,
                        self._runtime,
                        partial(self._progress, tracked),
                        parsed=tracked.parsed,
                        timer=tracked,
                        tool=tracked.tool,
                    )
                    try:
                        try:
                            waiting = context.run(running.send, None)
                        except StopIteration as done:
                            outcome = done.value
                        else:  # it waits, and keeps this worker until it ends
                            picking = False
                            self._leave()
                            outcome = await _Rest(running, waiting, context)
                    except asyncio.CancelledError:
                        if not tracked.cancel_text or task is None:
                            raise  # not ours: the event loop is shutting down
                        task.uncancel()
                    finally:
                        if tracked.timer is not None:
                            tracked.disarm()
                if outcome is None and tracked.timed_out and tracked.tool is not None:
                    outcome = await timeout_outcome(
                        tracked.block, tracked.tool, tracked.parsed, self._context, self._runtime
                    )
                ended = True
            finally:
                # a call stopped while it ran may have left a cancellation pending on
                # this task: the task ends with it
                going_on = ended and not (runs and tracked.cancel_text)
                if picking and not going_on:
                    self._pickers -= 1
                elif going_on and not picking:
                    self._pickers += 1
                self._finished(tracked, outcome)
            if not going_on:
                return
        self._pickers -= 1

    def _leave(self) -> None:
        """The running worker's call waits: ready calls need another worker meanwhile."""
        self._pickers -= 1
        if self._ready and not self._pickers:
            self._spawn()

    def _finished(self, tracked: _Tracked, outcome: ToolCallOutcome | None) -> None:
        self._executing -= 1
        if not tracked.safe:
            self._unsafe_executing -= 1
        if outcome is None:
            text = INTERRUPTED if tracked.cancel_text in ("", "timeout") else tracked.cancel_text
            outcome = error_outcome(
                tracked.block, text, status="cancelled", tool=tracked.tool, input=tracked.parsed
            )
        self._settle(tracked, outcome)
        if (
            outcome.status == "error"
            and self._cascade
            and tracked.tool is not None
            and tracked.tool.cascades_errors
            and not self._sibling_text
        ):
            self._cancel_siblings(tracked)
        if self._scan < len(self._tracked):  # a queued call may start now
            self._process()
        if self._ready and not self._pickers:
            self._spawn()
        self._flush()
        if self._executing == 0:
            self._idle.set()

    def _progress(self, tracked: _Tracked, data: Any) -> None:
        if tracked.state is ToolState.EXECUTING:
            self._emit(ToolProgressEvent(tool_use=tracked.block, data=data))

    def _settle(self, tracked: _Tracked, outcome: ToolCallOutcome) -> None:
        tracked.outcome = outcome
        tracked.state = ToolState.COMPLETED
        # context modifiers apply in request order, each once every earlier call is done
        tracked_list = self._tracked
        while self._modified < len(tracked_list):
            done = tracked_list[self._modified].outcome
            if done is None:
                return
            if done.context_modifier is not None:
                self._context = done.context_modifier(self._context)
            self._modified += 1

    def _flush(self) -> None:
        while self._head < len(self._tracked):
            tracked = self._tracked[self._head]
            if tracked.state is not ToolState.COMPLETED or tracked.outcome is None:
                break
            tracked.state = ToolState.YIELDED
            self._head += 1
            try:
                self._send.send_nowait(build_result_event(tracked.block, tracked.outcome))
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                pass  # the consumer stopped listening: the calls still running go on
        if self._closed and self._head == len(self._tracked) and not self._done.is_set():
            self._send.close()
            self._done.set()

    def _emit(self, event: ExecutorEvent) -> None:
        # A consumer that stopped listening must not crash the tools still running.
        try:
            self._send.send_nowait(event)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError):
            pass

    def _cancel_siblings(self, failed: _Tracked) -> None:
        label = failed.block.name
        if failed.tool is not None and failed.parsed is not None:
            summary = failed.tool.describe_input(failed.parsed)
            label = f"{failed.block.name}({summary[:40]}{'…' if len(summary) > 40 else ''})"
        self._sibling_text = (
            f"Cancelled: parallel tool call {label} errored, so this call was stopped. "
            "Run it again on its own if it is still needed."
        )
        for tracked in self._tracked:
            if tracked is failed:
                continue
            if tracked.state is ToolState.QUEUED:
                self._settle(
                    tracked,
                    error_outcome(
                        tracked.block, self._sibling_text, status="cancelled", tool=tracked.tool
                    ),
                )
            elif tracked.state is ToolState.EXECUTING:
                tracked.stop(self._sibling_text)

    def _abort(self, text: str) -> None:
        if self._abort_text:
            return
        self._abort_text = text
        # a call that stops the turn from inside itself (the user refused it and
        # interrupted, at its permission question) settles with its own outcome
        current = asyncio.current_task()
        for tracked in self._tracked:
            if tracked.state is ToolState.QUEUED:
                queued_text = NOT_STARTED_INTERRUPTED if text == INTERRUPTED else text
                self._settle(
                    tracked,
                    error_outcome(
                        tracked.block, queued_text, status="cancelled", tool=tracked.tool
                    ),
                )
            elif tracked.state is ToolState.EXECUTING and tracked.task is not current:
                tracked.stop(text)
        self._flush()


class _Rest:
    """The rest of a call that waited, each step in the call's own context."""

    __slots__ = ("_context", "_running", "_waiting")

    def __init__(
        self, running: Coroutine[Any, Any, ToolCallOutcome], waiting: Any, context: Context
    ) -> None:
        self._running = running
        self._waiting = waiting
        self._context = context

    def __await__(self) -> Generator[Any, Any, ToolCallOutcome]:
        running, run, value = self._running, self._context.run, self._waiting
        while True:
            try:
                sent = yield value
            except GeneratorExit:
                running.close()
                raise
            except BaseException as exc:
                try:
                    value = run(running.throw, exc)
                except StopIteration as stop:
                    return stop.value
            else:
                try:
                    value = run(running.send, sent)
                except StopIteration as stop:
                    return stop.value


async def _release_spawns() -> None:
    """Wait until processes started by cancelled calls are killed (a few seconds at most).

    A call cancelled while it started a process leaves that process to be killed after it;
    the turn ends only once that is done, so nothing it started outlives it.
    """
    if releasing():
        with anyio.CancelScope(shield=True):
            await wait_released(SPAWN_RELEASE_S)
