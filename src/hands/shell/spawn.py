"""Starting a child process from async code without a cancellation hazard.

On asyncio before Python 3.12, a cancellation that reaches a task while asyncio is still
connecting a new process's pipes leaves that task waiting forever: the transport is
closed and waited for, but its pipes were never connected, so it never reports itself
closed (CPython gh-125502, gh-133536). Whoever cancelled then waits for that task too,
and the session hangs. hands cancels calls with native task cancels (the executor), which
an anyio shield does not hold back, so :func:`open_process` runs the spawn in a task of
its own behind :func:`asyncio.shield`: the caller can still be cancelled at once, and a
process whose spawn finishes after that is killed (its whole group when it leads one) and
released, since nobody else will.

The same hazard holds for what must run after a process ends (killing what it left
behind): an anyio shield does not hold back a native cancel either, so
:func:`run_to_end` runs such a clean-up in a task of its own that a cancelled caller
leaves running; both kinds are waited for by :func:`wait_released`.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import signal
from collections.abc import Awaitable, Sequence
from os import PathLike
from typing import Any

import anyio
from anyio.abc import Process

_orphans: set[asyncio.Future[Any]] = set()
"""Spawns whose caller was cancelled, and their releases (kept until they finish)."""


async def open_process(command: Sequence[str | PathLike[str]], **options: Any) -> Process:
    """:func:`anyio.open_process`, safe to cancel while the process is being started."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # another event loop (trio): nothing to work around
        return await anyio.open_process(command, **options)
    spawn = asyncio.ensure_future(anyio.open_process(command, **options))
    try:
        return await asyncio.shield(spawn)
    except asyncio.CancelledError:
        own_group = bool(options.get("start_new_session"))
        _keep(spawn)
        spawn.add_done_callback(lambda done: _release(done, own_group=own_group))
        raise


def _release(spawn: asyncio.Future[Process], *, own_group: bool) -> None:
    if spawn.cancelled() or spawn.exception() is not None:
        return
    process = spawn.result()
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if own_group:
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    _keep(asyncio.get_running_loop().create_task(_close(process)))


def _keep(future: asyncio.Future[Any]) -> asyncio.Future[Any]:
    """Track ``future`` until it is done, for :func:`releasing` and :func:`wait_released`."""
    _orphans.add(future)
    future.add_done_callback(_orphans.discard)
    return future


async def _close(process: Process) -> None:
    with contextlib.suppress(Exception):
        await process.aclose()


async def run_to_end(cleanup: Awaitable[None]) -> None:
    """Await ``cleanup``; a caller cancelled meanwhile (even natively) leaves it running."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # another event loop (trio): its cancel scopes shield natively
        with anyio.CancelScope(shield=True):
            await cleanup
        return
    await asyncio.shield(_keep(asyncio.ensure_future(cleanup)))


def releasing() -> bool:
    """Whether an orphaned spawn or a :func:`run_to_end` clean-up is still running."""
    return bool(_orphans)


async def wait_released(limit: float = math.inf) -> None:
    """Wait (up to ``limit`` s) until every such process has been killed and released."""
    with anyio.move_on_after(limit):
        while _orphans:
            await asyncio.wait(set(_orphans))
