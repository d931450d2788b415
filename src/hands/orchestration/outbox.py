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
    """Items in the order they were sent, for one reader, until every writer closed it.

    ``writers``: how many senders share the box; each calls :meth:`close` once when it
    is done, and the reader ends after the last of them.
    """

    __slots__ = ("_closed", "_gone", "_items", "_waiter", "_writers")

    def __init__(self, *, writers: int = 1) -> None:
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None
        self._writers = writers
        self._closed = writers <= 0
        self._gone = False

    def send_nowait(self, item: T) -> None:
        """Queue ``item``; dropped once the reader has left or the box is closed."""
        if self._gone or self._closed:
            return
        self._items.append(item)
        self._wake()

    def close(self) -> None:
        """One writer is done; after the last, the reader ends once it took what is queued."""
        self._writers -= 1
        if self._writers <= 0:
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
