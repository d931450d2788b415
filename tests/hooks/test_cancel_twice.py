"""A hook call cancelled twice still kills what the hook left outside its group."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import anyio
import pytest

from hands.hooks.command import run_command
from hands.hooks.config import HookHandler
from hands.shell.spawn import wait_released
from hooks.kit import pid_alive


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_a_second_native_cancel_during_the_clean_up_leaves_no_daemon(
    tmp_path: Path, anyio_backend: str
) -> None:
    # the executor cancels calls natively (task.cancel), which an anyio shield does not
    # hold back: the second cancel used to cut the clean-up short, and the daemon lived on
    del anyio_backend
    pids, shell = tmp_path / "pids", tmp_path / "shell"
    handler = HookHandler(
        type="command",
        command=(
            f"echo $$ > {shell}; cat >/dev/null; "
            f"setsid bash -c 'echo $$ >> {pids}; exec sleep 301' </dev/null >/dev/null 2>&1 & "
            f"while [ ! -s {pids} ]; do sleep 0.01; done; sleep 300"
        ),
    )
    call = asyncio.ensure_future(
        run_command(handler, b"{}", cwd=tmp_path, project_dir=tmp_path, timeout_s=60)
    )
    with anyio.fail_after(30):
        while not (pids.exists() and pids.read_text().strip()):
            await anyio.sleep(0.01)
    daemon, hook = int(pids.read_text()), int(shell.read_text())
    call.cancel()
    with anyio.fail_after(10):
        while pid_alive(hook):  # until the hook itself is killed: its clean-up has begun
            await asyncio.sleep(0)
    call.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await call
    await wait_released(10)
    with anyio.fail_after(5):
        while pid_alive(daemon):
            await anyio.sleep(0.05)
