"""A per-call time limit that costs nothing for a call that never waits.

Every call gets a time limit, so its cost is paid on every call. A timer can only fire
while the call is suspended (the event loop runs nothing else in between), so the timer
is armed when the call first suspends, for the deadline counted from the start: a call
that finishes without waiting never creates one. On asyncio firing cancels the task,
undone with ``Task.uncancel`` (what ``asyncio.timeout`` does, without the
context-manager overhead). Elsewhere an anyio cancel scope does the same job.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Generator
from typing import Any, Protocol, TypeVar

import anyio

T = TypeVar("T")


class DeadlineExceeded(Exception):
    """The awaited call ran past its time limit and was cancelled."""


class _Deadline(Awaitable[T]):
    """``awaitable`` under a time limit on asyncio; the timer exists once it suspends."""

    __slots__ = ("_awaitable", "_seconds", "_started")

    def __init__(self, awaitable: Awaitable[T], seconds: float, started: float) -> None:
        self._awaitable = awaitable
        self._seconds = seconds
        self._started = started

    def __await__(self) -> Generator[Any, Any, T]:
        inner: Any = self._awaitable.__await__()
        try:
            value = inner.send(None)
        except StopIteration as stop:
            return stop.value  # finished without waiting: no timer was needed
        return (yield from _limited(inner, value, self._seconds, self._started))


class _Fire:
    """The timer's callback: cancels the task and remembers that it did."""

    __slots__ = ("fired", "task")

    def __init__(self, task: asyncio.Task[Any]) -> None:
        self.task = task
        self.fired = False

    def __call__(self) -> None:
        self.fired = True
        self.task.cancel()


def _limited(inner: Any, value: Any, seconds: float, started: float) -> Generator[Any, Any, Any]:
    """Drive ``inner``, which has just suspended with ``value``, under the limit (asyncio)."""
    task = asyncio.current_task()
    if task is None:  # not in a task: nothing a timer could cancel
        return (yield from _passthrough(inner, value))
    fire = _Fire(task)
    handle = task.get_loop().call_later(seconds - (time.perf_counter() - started), fire)
    try:
        return (yield from _passthrough(inner, value))
    except asyncio.CancelledError:
        if fire.fired and task.uncancel() == 0:
            raise DeadlineExceeded from None
        raise
    finally:
        handle.cancel()


class CallTimer(Protocol):
    """A per-call time limit kept by the caller; firing cancels the call."""

    def arm(self, seconds: float) -> None:
        """Start counting."""
        ...

    def disarm(self) -> None:
        """Stop counting."""
        ...


class _Armed(Awaitable[T]):
    """``awaitable`` with the caller's timer armed once it suspends (for what is left)."""

    __slots__ = ("_awaitable", "_seconds", "_started", "_timer")

    def __init__(
        self, awaitable: Awaitable[T], timer: CallTimer, seconds: float, started: float
    ) -> None:
        self._awaitable = awaitable
        self._timer = timer
        self._seconds = seconds
        self._started = started

    def __await__(self) -> Generator[Any, Any, T]:
        inner: Any = self._awaitable.__await__()
        try:
            value = inner.send(None)
        except StopIteration as stop:
            return stop.value  # finished without waiting: the timer was never needed
        return (yield from _timed(inner, value, self._timer, self._seconds, self._started))


def _timed(
    inner: Any, value: Any, timer: CallTimer, seconds: float, started: float
) -> Generator[Any, Any, Any]:
    """Drive ``inner``, which has just suspended with ``value``, with ``timer`` armed."""
    timer.arm(seconds - (time.perf_counter() - started))
    try:
        return (yield from _passthrough(inner, value))
    finally:
        timer.disarm()


def with_timer(
    awaitable: Awaitable[T], timer: CallTimer, seconds: float, *, started: float
) -> Awaitable[T]:
    """Await ``awaitable`` with ``timer`` counting ``seconds`` from ``started``.

    The timer is armed when the awaitable first waits: one that never waits cannot be
    stopped by a timer, so none is armed for it.
    """
    return _Armed(awaitable, timer, seconds, started)


def _passthrough(inner: Any, value: Any) -> Generator[Any, Any, Any]:
    """Drive a started awaitable to its end, as ``yield from`` would have."""
    while True:
        try:
            sent = yield value
        except GeneratorExit:
            inner.close()
            raise
        except BaseException as exc:
            try:
                value = inner.throw(exc)
            except StopIteration as stop:
                return stop.value
        else:
            try:
                value = inner.send(sent)
            except StopIteration as stop:
                return stop.value


def within(
    seconds: float, awaitable: Awaitable[T], *, started: float | None = None
) -> Awaitable[T]:
    """Await ``awaitable``; raise DeadlineExceeded if it takes longer than ``seconds``.

    ``started``: when the limit began (``time.perf_counter()``); default now.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _within_scope(seconds, awaitable)
    return _Deadline(awaitable, seconds, time.perf_counter() if started is None else started)


class _Rest(Awaitable[Any]):
    """The rest of a started awaitable under a limit (asyncio) or a timer."""

    __slots__ = ("_inner", "_seconds", "_started", "_timer", "_value")

    def __init__(
        self, inner: Any, value: Any, seconds: float, started: float, timer: CallTimer | None
    ) -> None:
        self._inner = inner
        self._value = value
        self._seconds = seconds
        self._started = started
        self._timer = timer

    def __await__(self) -> Generator[Any, Any, Any]:
        if self._timer is not None:
            return _timed(self._inner, self._value, self._timer, self._seconds, self._started)
        return _limited(self._inner, self._value, self._seconds, self._started)


def finish_within(
    inner: Any, value: Any, seconds: float, *, started: float, timer: CallTimer | None = None
) -> Awaitable[Any]:
    """Await the rest of a started awaitable under the limit counted from ``started``.

    ``inner`` is ``awaitable.__await__()``, which suspended with ``value`` on its first
    step; with ``timer``, the timer is armed for what is left instead. The pipeline
    takes a call's first step itself on asyncio: a call that finishes without waiting
    (most do) then needs no timer and no wrapper at all. Elsewhere (trio), where a
    limit is a cancel scope that must be open before the call starts, use
    :func:`within` or :func:`with_timer`.
    """
    return _Rest(inner, value, seconds, started, timer)


async def _within_scope(seconds: float, awaitable: Awaitable[T]) -> T:
    with anyio.move_on_after(seconds) as scope:
        return await awaitable
    assert scope.cancelled_caught
    raise DeadlineExceeded
