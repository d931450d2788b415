"""A per-call time limit that costs a timer, not a cancel scope.

Every call gets a time limit, so its cost is paid on every call. On asyncio this is
``loop.call_later`` plus cancelling the task, undone with ``Task.uncancel`` when the
limit fires (what ``asyncio.timeout`` does, without the context-manager overhead).
Elsewhere an anyio cancel scope does the same job.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

import anyio

T = TypeVar("T")


class DeadlineExceeded(Exception):
    """The awaited call ran past its time limit and was cancelled."""


class _Timer:
    __slots__ = ("fired", "task")

    def __init__(self, task: asyncio.Task[object]) -> None:
        self.task = task
        self.fired = False

    def fire(self) -> None:
        self.fired = True
        self.task.cancel()


async def within(seconds: float, awaitable: Awaitable[T]) -> T:
    """Await ``awaitable``; raise DeadlineExceeded if it takes longer than ``seconds``."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return await _within_scope(seconds, awaitable)
    task = asyncio.current_task()
    if task is None:
        return await _within_scope(seconds, awaitable)
    timer = _Timer(task)  # type: ignore[arg-type]
    handle = loop.call_later(seconds, timer.fire)
    try:
        return await awaitable
    except asyncio.CancelledError:
        if timer.fired and task.uncancel() == 0:
            raise DeadlineExceeded from None
        raise
    finally:
        handle.cancel()


async def _within_scope(seconds: float, awaitable: Awaitable[T]) -> T:
    with anyio.move_on_after(seconds) as scope:
        return await awaitable
    assert scope.cancelled_caught
    raise DeadlineExceeded
