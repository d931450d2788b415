"""hands' ordering rule for calls a framework starts on its own schedule.

Concurrency-safe calls run together; any other call runs alone, after the calls started
before it and before the ones started after it. A framework that runs every tool of a
message at once still gets this order, because each call passes through one gate.
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager

import anyio


class CallGate:
    """A first-come, first-served shared/exclusive gate."""

    def __init__(self) -> None:
        self._sharing = 0
        self._exclusive = False
        self._queue: deque[tuple[bool, anyio.Event]] = deque()

    def _may_enter(self, exclusive: bool) -> bool:
        if self._exclusive:
            return False
        return self._sharing == 0 if exclusive else True

    def _wake(self) -> None:
        # Admit waiters in arrival order: a run of shared calls together, or one exclusive.
        while self._queue:
            exclusive, event = self._queue[0]
            if not self._may_enter(exclusive):
                return
            self._queue.popleft()
            self._enter(exclusive)
            event.set()

    def _enter(self, exclusive: bool) -> None:
        if exclusive:
            self._exclusive = True
        else:
            self._sharing += 1

    def _leave(self, exclusive: bool) -> None:
        if exclusive:
            self._exclusive = False
        else:
            self._sharing -= 1
        self._wake()

    @asynccontextmanager
    async def hold(self, *, exclusive: bool) -> AsyncGenerator[None]:
        """Wait for the call's turn, then hold the gate while the call runs."""
        if not self._queue and self._may_enter(exclusive):
            self._enter(exclusive)
        else:
            event = anyio.Event()
            entry = (exclusive, event)
            self._queue.append(entry)
            try:
                await event.wait()
            except BaseException:
                if entry in self._queue:
                    self._queue.remove(entry)
                else:  # admitted as it was cancelled: give the turn back
                    self._leave(exclusive)
                raise
        try:
            yield
        finally:
            self._leave(exclusive)
