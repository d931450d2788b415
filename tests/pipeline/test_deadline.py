from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands import ToolContext, tool
from hands.core.limits import Limits
from hands.core.messages import ToolUseBlock
from hands.core.session import Session
from hands.pipeline.deadline import DeadlineExceeded, finish_within, with_timer, within
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool
from hands.pipeline.runtime import ToolRuntime

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


def _started(awaitable: Any) -> tuple[Any, Any]:
    """What the pipeline holds after a call's first step: the iterator and what it yielded."""
    inner = awaitable.__await__()
    return inner, inner.send(None)


async def test_a_started_call_that_waits_finishes_under_the_limit() -> None:
    inner, value = _started(_value())
    assert await finish_within(inner, value, 1.0, started=time.perf_counter()) == 42
    inner, value = _started(anyio.sleep(5))
    with anyio.fail_after(3), pytest.raises(DeadlineExceeded):
        await finish_within(inner, value, 0.02, started=time.perf_counter())
    await anyio.sleep(0.001)  # no leftover cancellation
    inner, value = _started(_value())
    timer = RecordingTimer()
    assert await finish_within(inner, value, 5.0, started=time.perf_counter(), timer=timer) == 42
    assert len(timer.armed) == 1 and timer.disarmed == 1


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_every_call_keeps_its_limit_on_every_event_loop(backend: str) -> None:
    """The pipeline takes a call's first step itself on asyncio, and opens the limit's
    scope first elsewhere: a call that waits past the limit stops, on both."""

    @tool(read_only=True)
    async def pause(seconds: float) -> str:
        """Wait a while."""
        await anyio.sleep(seconds)
        return f"waited {seconds}"

    runtime = ToolRuntime(tools=ToolPool([pause]), limits=Limits(tool_timeout_s=0.1))
    ctx = ToolContext(cwd=Path.cwd(), session=Session())

    async def main() -> list[str]:
        texts: list[str] = []
        for seconds in (0, 0.01, 5):
            block = ToolUseBlock(id=f"toolu_{seconds}", name="pause", input={"seconds": seconds})
            with anyio.fail_after(3):
                texts.append((await run_tool_use(block, ctx, runtime, lambda _: None)).block.text)
        return texts

    texts = anyio.run(main, backend=backend)
    assert texts[:2] == ["waited 0.0", "waited 0.01"]
    assert texts[2].startswith("pause timed out after 0.1 s")
