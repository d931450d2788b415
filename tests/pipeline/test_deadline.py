from __future__ import annotations

import anyio
import pytest

from hands.pipeline.deadline import DeadlineExceeded, within

pytestmark = pytest.mark.anyio


async def test_limit_fires_and_the_task_is_not_left_cancelled() -> None:
    with pytest.raises(DeadlineExceeded):
        await within(0.01, anyio.sleep(5))
    await anyio.sleep(0.001)  # the caller's task carries no leftover cancellation
    assert await within(1, _value()) == 42


async def test_outer_cancellation_is_not_swallowed() -> None:
    with anyio.move_on_after(0.01) as outer:
        await within(5, anyio.sleep(5))
    assert outer.cancelled_caught


async def test_limit_inside_a_cancelled_scope_still_propagates_the_outer_cancel() -> None:
    with anyio.move_on_after(0.02) as outer:
        with pytest.raises(DeadlineExceeded):
            await within(0.005, anyio.sleep(5))
        await anyio.sleep(5)
    assert outer.cancelled_caught


async def _value() -> int:
    await anyio.sleep(0)
    return 42
