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

    __slots__ = ("_awaitable", "_fired", "_seconds", "_started", "_task")

    def __init__(self, awaitable: Awaitable[T], seconds: float, started: float) -> None:
        self._awaitable = awaitable
        self._seconds = seconds
        self._started = started

    def _fire(self) -> None:
        self._fired = True
        self._task.cancel()

    def __await__(self) -> Generator[Any, Any, T]:
        inner: Any = self._awaitable.__await__()
        try:
            value = inner.send(None)
        except StopIteration as stop:
            return stop.value  # finished without waiting: no timer was needed
        task = asyncio.current_task()
        if task is None:  # not in a task: nothing a timer could cancel
            return (yield from _passthrough(inner, value))
        self._task, self._fired = task, False
        left = self._seconds - (time.perf_counter() - self._started)
        handle = task.get_loop().call_later(left, self._fire)
        try:
            return (yield from _passthrough(inner, value))
        except asyncio.CancelledError:
            if self._fired and task.uncancel() == 0:
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
        timer = self._timer
        timer.arm(self._seconds - (time.perf_counter() - self._started))
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


async def _within_scope(seconds: float, awaitable: Awaitable[T]) -> T:
    with anyio.move_on_after(seconds) as scope:
        return await awaitable
    assert scope.cancelled_caught
    raise DeadlineExceeded
