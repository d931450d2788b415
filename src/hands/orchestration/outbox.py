"""An executor's own event queue, when nobody gave it a stream to send into.

A deque and at most one waiting reader: putting an event is an append (and waking the
reader if it waits); reading takes what is queued without a scheduling point and waits
only when nothing is. Cheaper to make and to pass through than a memory object stream,
which a batch of calls would otherwise create, and send and receive through, each time.
Asyncio only, as the executor is.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncGenerator
from typing import Generic, TypeVar

T = TypeVar("T")


class Outbox(Generic[T]):
    """Items in the order they were sent, for one reader, until :meth:`close`."""

    __slots__ = ("_closed", "_gone", "_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None
        self._closed = False
        self._gone = False

    def send_nowait(self, item: T) -> None:
        """Queue ``item``; dropped once the reader has left or the box is closed."""
        if self._gone or self._closed:
            return
        self._items.append(item)
        self._wake()

    def close(self) -> None:
        """No more items: the reader ends once it has taken the queued ones."""
        self._closed = True
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def receive_all(self) -> AsyncGenerator[T, None]:
        """Every item, in order, until the box is closed and empty (one reader only)."""
        items = self._items
        try:
            while True:
                if items:
                    yield items.popleft()
                    continue
                if self._closed:
                    return
                waiter = self._waiter = asyncio.get_running_loop().create_future()
                await waiter
        finally:
            self._gone = True
            self._waiter = None
            items.clear()
