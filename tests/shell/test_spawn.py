"""open_process: a call cancelled at any moment of the spawn ends, and leaves no process."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

import anyio
import pytest

from hands.shell.spawn import open_process, wait_released
from processes import marked

pytestmark = pytest.mark.anyio

# A shell whose child holds the pipes: killing the shell alone leaves ``cat`` reading a
# stdin that only the parent can close, and writing to a stderr the parent waits on.
CHILD = ["sh", "-c", "cat >/dev/null; sleep 60"]


async def test_a_native_cancel_at_every_step_of_the_spawn_ends_the_call() -> None:
    # asyncio's own spawn hangs for good when the cancel lands while it connects the
    # pipes (CPython gh-125502); the steps below walk the cancel across that window.
    loop = asyncio.get_running_loop()
    for steps in range(12):
        task = loop.create_task(
            open_process(
                CHILD,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        )
        for _ in range(steps):
            await asyncio.sleep(0)
        time.sleep(0.05)  # the loop stands still: the shell starts ``cat`` meanwhile
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=10)
        if task not in done:
            task.cancel()  # undo the hang so the test can report it
            await asyncio.wait({task})
            pytest.fail(f"a spawn cancelled after {steps} steps never ended")
        if task.cancelled():
            continue
        process = task.result()
        # the spawn won the race: the caller owns the process
        assert process.stdout is not None
        process.kill()
        await process.aclose()
    await wait_released()


async def test_a_process_spawned_after_its_caller_was_cancelled_is_killed() -> None:
    loop = asyncio.get_running_loop()
    marker = f"hands-spawn-test-{os.getpid()}-{id(loop)}"
    child = [sys.executable, "-c", "import time; time.sleep(60)", marker]
    # the control: a spawn left alone is found by its marker
    process = await open_process(child, stdout=subprocess.PIPE, start_new_session=True)
    assert marked(marker) == [process.pid]
    process.kill()
    await process.aclose()
    for steps in range(6):
        task = loop.create_task(open_process(child, stdout=subprocess.PIPE, start_new_session=True))
        for _ in range(steps + 1):
            await asyncio.sleep(0)  # the spawn has begun
        task.cancel()
        try:
            process = await task
        except asyncio.CancelledError:
            pass
        else:  # it had finished: the caller owns it
            process.kill()
            await process.aclose()
        with anyio.fail_after(10):
            while marked(marker):
                await anyio.sleep(0.02)
    await wait_released()
