"""A call cancelled while it starts a process: the turn ends only once that process is gone."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from hands.core.context import ToolContext
from hands.core.decorator import tool
from hands.core.messages import ToolUseBlock
from hands.orchestration.events import ToolResultEvent
from hands.orchestration.streaming import StreamingToolExecutor
from hands.pipeline.pool import ToolPool
from hands.pipeline.runtime import ToolRuntime
from hands.shell.spawn import open_process
from processes import marked

pytestmark = pytest.mark.anyio

MARKER = f"hands-spawn-release-{os.getpid()}"
executors: list[StreamingToolExecutor] = []


@tool
async def spawner(label: str) -> str:
    """Start a long-running child process; the call is cancelled while it starts.

    Args:
        label: Ignored.
    """
    asyncio.get_running_loop().call_soon(executors[-1].cancel, "toolu_spawn")
    child = [sys.executable, "-c", "import time; time.sleep(60)", MARKER]
    process = await open_process(child, stdout=subprocess.PIPE, start_new_session=True)
    process.kill()
    await process.aclose()
    return f"started {label}"


async def test_the_process_of_a_call_cancelled_mid_spawn_is_gone_when_the_turn_ends(
    tmp_path: Path,
) -> None:
    runtime = ToolRuntime(tools=ToolPool([spawner]))
    ctx = ToolContext(cwd=tmp_path, permission_mode="bypassPermissions")
    events: list[object] = []
    async with anyio.create_task_group() as tg:
        ex = StreamingToolExecutor(runtime=runtime, context=ctx, task_group=tg)
        executors.append(ex)
        ex.add(ToolUseBlock(id="toolu_spawn", name="spawner", input={"label": "x"}))
        ex.close()
        events = [e async for e in ex.events()]
    results = [e for e in events if isinstance(e, ToolResultEvent)]
    assert len(results) == 1 and results[0].outcome.is_error  # it was cancelled
    assert marked(MARKER) == []  # checked at once: the turn waited for the kill
