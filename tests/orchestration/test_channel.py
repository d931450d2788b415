from __future__ import annotations

import math

import anyio
import pytest

from hands.orchestration.channel import drain

pytestmark = pytest.mark.anyio


async def test_queued_items_come_in_order_and_the_stream_end_stops_the_loop() -> None:
    send, receive = anyio.create_memory_object_stream[int](math.inf)
    for i in range(5):
        send.send_nowait(i)
    send.close()
    assert [i async for i in drain(receive)] == [0, 1, 2, 3, 4]


async def test_an_empty_stream_is_waited_on_until_items_arrive() -> None:
    send, receive = anyio.create_memory_object_stream[str](math.inf)
    got: list[str] = []

    async def produce() -> None:
        await anyio.sleep(0.01)
        send.send_nowait("late")
        await anyio.sleep(0.01)
        send.send_nowait("later")
        send.close()

    async with anyio.create_task_group() as tg:
        tg.start_soon(produce)
        async for item in drain(receive):
            got.append(item)
    assert got == ["late", "later"]


async def test_leaving_early_keeps_the_rest_in_the_stream() -> None:
    send, receive = anyio.create_memory_object_stream[int](math.inf)
    for i in range(3):
        send.send_nowait(i)
    async for item in drain(receive):
        assert item == 0
        break
    assert receive.receive_nowait() == 1
