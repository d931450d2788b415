from __future__ import annotations

import threading
from pathlib import Path

import anyio
import pytest

from hands import ToolContext, tool
from hands.core.messages import ToolUseBlock
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool
from hands.pipeline.runtime import ToolRuntime

pytestmark = pytest.mark.anyio


async def test_a_blocking_sync_tool_does_not_stall_a_concurrent_call() -> None:
    events: list[str] = []
    started = threading.Event()
    released = threading.Event()

    @tool(read_only=True)
    def wait_for_release() -> bool:
        """Block the calling thread until the other call has run."""
        events.append("blocking call started")
        started.set()
        ok = released.wait(timeout=30)
        events.append("blocking call released")
        return ok

    @tool(read_only=True)
    async def release() -> str:
        """Run while the blocking call still blocks, then release it."""
        await anyio.to_thread.run_sync(started.wait, 30)
        events.append("other call ran")
        released.set()
        return "released"

    runtime = ToolRuntime(tools=ToolPool([wait_for_release, release]))
    ctx = ToolContext(cwd=Path.cwd())
    results: dict[str, str] = {}

    async def run(name: str) -> None:
        block = ToolUseBlock(id=f"toolu_{name}", name=name, input={})
        outcome = await run_tool_use(block, ctx, runtime, lambda data: None)
        results[name] = str(outcome.block.content)

    async with anyio.create_task_group() as tg:
        tg.start_soon(run, "wait_for_release")
        tg.start_soon(run, "release")

    assert events == ["blocking call started", "other call ran", "blocking call released"]
    assert results == {"wait_for_release": "true", "release": "released"}


async def test_sync_tools_run_in_a_worker_thread_unless_told_to_stay_on_the_loop() -> None:
    loop_thread = threading.get_ident()
    seen: list[object] = []

    @tool(read_only=True)
    def in_thread(progress: object) -> int:
        """Report the thread it runs on."""
        assert callable(progress)
        progress("from the worker")
        return threading.get_ident()

    @tool(read_only=True, run_in_thread=False)
    def on_loop() -> int:
        """Report the thread it runs on."""
        return threading.get_ident()

    runtime = ToolRuntime(tools=ToolPool([in_thread, on_loop]))
    ctx = ToolContext(cwd=Path.cwd())

    def on_progress(data: object) -> None:
        seen.append((data, threading.get_ident()))

    worker = await run_tool_use(
        ToolUseBlock(id="toolu_1", name="in_thread", input={}), ctx, runtime, on_progress
    )
    loop = await run_tool_use(
        ToolUseBlock(id="toolu_2", name="on_loop", input={}), ctx, runtime, on_progress
    )
    assert worker.output != loop_thread
    assert loop.output == loop_thread
    assert seen == [("from the worker", loop_thread)]
