"""Reading a memory stream without a scheduling point per item.

anyio's ``receive`` checkpoints (one event-loop round trip) before every item, even when
items are waiting; a consumer of a burst of events (a model's stream, a batch's results)
pays one round trip per event. ``drain`` takes what is queued at once and waits (with
anyio's own receive) only when the stream is empty.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TypeVar

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream

T = TypeVar("T")


class drain(AsyncIterator[T]):
    """Every item of ``receive`` in order, until the stream ends (closes nothing).

    An iterator object rather than an async generator: leaving the loop early leaves
    nothing to finalize.
    """

    __slots__ = ("_receive",)

    def __init__(self, receive: MemoryObjectReceiveStream[T]) -> None:
        self._receive = receive

    def __aiter__(self) -> drain[T]:
        return self

    async def __anext__(self) -> T:
        try:
            return self._receive.receive_nowait()
        except anyio.WouldBlock:
            pass
        except anyio.EndOfStream:
            raise StopAsyncIteration from None
        try:
            return await self._receive.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None
