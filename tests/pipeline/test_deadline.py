from __future__ import annotations

import time

import anyio
import pytest

from hands.pipeline.deadline import DeadlineExceeded, with_timer, within

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


class RecordingTimer:
    def __init__(self) -> None:
        self.armed: list[float] = []
        self.disarmed = 0

    def arm(self, seconds: float) -> None:
        self.armed.append(seconds)

    def disarm(self) -> None:
        self.disarmed += 1


async def _no_wait() -> int:
    return 7


async def test_a_call_that_never_waits_arms_no_timer() -> None:
    timer = RecordingTimer()
    assert await with_timer(_no_wait(), timer, 5.0, started=time.perf_counter()) == 7
    assert timer.armed == [] and timer.disarmed == 0


async def test_a_call_that_waits_arms_the_timer_once_for_what_is_left() -> None:
    timer = RecordingTimer()
    started = time.perf_counter() - 1.0  # one second of the limit already spent
    assert await with_timer(_value(), timer, 5.0, started=started) == 42
    assert len(timer.armed) == 1 and 3.0 < timer.armed[0] <= 4.0
    assert timer.disarmed == 1


async def _busy_then_wait() -> None:
    time.sleep(0.05)  # the limit runs out before the call first waits
    await anyio.sleep(5)


async def test_the_limit_counts_from_the_start_not_from_the_first_wait() -> None:
    with anyio.fail_after(3):
        with pytest.raises(DeadlineExceeded):
            await within(0.02, _busy_then_wait())


async def test_a_call_that_never_waits_returns_its_value_and_raises_its_error() -> None:
    assert await within(1, _no_wait()) == 7
    with pytest.raises(ValueError, match="bad"):
        await within(1, _raises())


async def _raises() -> None:
    raise ValueError("bad")
