from __future__ import annotations

import anyio
import pytest

from hands.orchestration.outbox import Outbox

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_queued_items_come_in_order_and_close_ends_the_reader() -> None:
    box = Outbox[int]()
    for i in range(5):
        box.send_nowait(i)
    box.close()
    assert [i async for i in box.receive_all()] == [0, 1, 2, 3, 4]


async def test_an_empty_box_is_waited_on_until_items_arrive_or_it_closes() -> None:
    box = Outbox[str]()

    async def produce() -> None:
        for word in ("late", "later"):
            await anyio.sleep(0.01)
            box.send_nowait(word)
        await anyio.sleep(0.01)
        box.close()

    async with anyio.create_task_group() as tg:
        tg.start_soon(produce)
        got = [item async for item in box.receive_all()]
    assert got == ["late", "later"]


async def test_items_sent_after_close_are_dropped() -> None:
    box = Outbox[int]()
    box.send_nowait(1)
    box.close()
    box.send_nowait(2)
    assert [i async for i in box.receive_all()] == [1]


async def test_a_reader_that_left_early_leaves_nothing_queued_and_sending_goes_on() -> None:
    box = Outbox[int]()
    box.send_nowait(1)
    box.send_nowait(2)
    reader = box.receive_all()
    assert await reader.__anext__() == 1
    await reader.aclose()
    box.send_nowait(3)  # the executor's calls keep finishing: no error
    box.close()
    assert [i async for i in box.receive_all()] == []


async def test_a_waiting_reader_is_cancellable_and_wakes_for_nothing_after() -> None:
    box = Outbox[int]()
    got: list[int] = []
    with anyio.move_on_after(0.01) as scope:
        async for item in box.receive_all():
            got.append(item)
    assert scope.cancelled_caught
    assert got == []
    box.send_nowait(1)
    box.close()


async def test_a_shared_box_ends_only_after_every_writer_closed_it() -> None:
    box = Outbox[str](writers=2)
    box.send_nowait("model")
    box.close()  # the first writer is done; the second still sends
    box.send_nowait("tool")
    box.close()
    box.send_nowait("late")
    assert [i async for i in box.receive_all()] == ["model", "tool"]
