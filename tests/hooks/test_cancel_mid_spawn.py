"""A command hook cancelled while its process is being started ends, leaving nothing.

asyncio (before Python 3.12) waits forever for a process whose spawn was cancelled while
its pipes were being connected, when a child of the hook still holds them; the executor
cancels calls that way when a model stream breaks mid-turn.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from hands.hooks.command import run_command
from hands.hooks.config import HookHandler
from hands.shell.spawn import wait_released

pytestmark = pytest.mark.anyio

# stdin read to its end, children that outlive the shell, one of them in a session of its own
COMMAND = "cat >/dev/null; sleep 300 & setsid sleep 301 </dev/null >/dev/null 2>&1 & echo '{}'"


async def test_a_hook_cancelled_at_any_step_of_its_start_ends(tmp_path: Path) -> None:
    loop = asyncio.get_running_loop()
    handler = HookHandler(type="command", command=COMMAND)
    outcomes: list[str] = []
    for steps in range(16):
        task = loop.create_task(
            run_command(handler, b"{}", cwd=tmp_path, project_dir=tmp_path, timeout_s=30)
        )
        for _ in range(steps):
            await asyncio.sleep(0)
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=20)
        if task not in done:
            task.cancel()  # undo the hang so the test can report it
            await asyncio.wait({task})
            pytest.fail(f"a hook cancelled after {steps} steps of its start never ended")
        outcomes.append("cancelled" if task.cancelled() else "ran")
    await wait_released()
    assert "cancelled" in outcomes
