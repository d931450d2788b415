"""Command hooks: ``bash -c COMMAND`` with the input JSON on stdin.

The hook runs in its own session (so its own process group, and no controlling TTY),
in the session's cwd, with ``CLAUDE_PROJECT_DIR`` and ``HANDS_PROJECT_DIR`` set and the
``OTEL_*`` variables removed. When it runs out of time, or the call is cancelled, the
whole process group is killed. Whatever it leaves running when it exits (background
jobs, daemons that left the group) is killed too: a hook ends with its process, and
is found by the marker in its environment (:mod:`hands.shell.processes`).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import subprocess
from collections.abc import Mapping
from pathlib import Path

import anyio
from anyio.abc import ByteReceiveStream, ByteSendStream, Process

from hands.hooks.config import HookHandler
from hands.hooks.output import HookRun
from hands.shell.processes import MARKER_VAR, settled_marked
from hands.shell.spawn import open_process, run_to_end

MAX_CAPTURE_BYTES = 4 * 1024 * 1024
PIPE_GRACE_S = 1.0
"""After the hook exits, how long to wait for children that still hold its pipes."""

_shell_path: list[str] = []


def shell() -> str:
    """``bash`` when there is one, else ``/bin/sh``."""
    if not _shell_path:
        _shell_path.append(shutil.which("bash") or "/bin/sh")
    return _shell_path[0]


def hook_environment(project_dir: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a command hook runs with."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    env["CLAUDE_PROJECT_DIR"] = str(project_dir)
    env["HANDS_PROJECT_DIR"] = str(project_dir)
    if extra:
        env.update(extra)
    return env


def kill_group(pid: int) -> None:
    """SIGKILL every process in the group ``pid`` leads (quietly if none is left)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


async def run_command(
    handler: HookHandler,
    payload: bytes,
    *,
    cwd: Path,
    project_dir: Path,
    timeout_s: float,
    env: Mapping[str, str] | None = None,
) -> HookRun:
    """Run one command hook to completion, its time limit, or cancellation."""
    marker = f"hook-{secrets.token_hex(8)}"
    try:
        process = await open_process(
            [shell(), "-c", handler.command],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=hook_environment(project_dir, {**(env or {}), MARKER_VAR: marker}),
            start_new_session=True,
        )
    except OSError as exc:
        return HookRun(
            handler=handler,
            exit_code=None,
            failure=f"{handler.label} could not be started ({exc}); check the command",
        )
    out = bytearray()
    err = bytearray()
    finished = False
    try:
        with anyio.move_on_after(timeout_s):
            async with anyio.create_task_group() as tg:
                drained = [anyio.Event(), anyio.Event()]
                assert process.stdout is not None and process.stderr is not None
                tg.start_soon(_drain, process.stdout, out, drained[0])
                tg.start_soon(_drain, process.stderr, err, drained[1])
                if process.stdin is not None:
                    tg.start_soon(_feed, process.stdin, payload)
                await process.wait()
                finished = True
                with anyio.move_on_after(PIPE_GRACE_S):
                    for event in drained:
                        await event.wait()
                tg.cancel_scope.cancel()
    except BaseException:
        kill_group(process.pid)
        raise
    finally:
        kill_group(process.pid)  # the hook itself, or what it left in its group
        # to its end even when the call is cancelled again meanwhile: a hook's daemons
        # (``setsid``) outlived the session when a second cancel cut this short
        await run_to_end(_release(process, marker))
    stdout = out.decode("utf-8", "replace")
    stderr = err.decode("utf-8", "replace")
    if not finished:
        return HookRun(
            handler=handler,
            exit_code=None,
            stdout=stdout,
            stderr=stderr,
            failure=(
                f"{handler.label} timed out after {timeout_s:g} s and was killed; it gave no "
                "decision (raise its 'timeout' or make it faster)"
            ),
        )
    code = process.returncode
    if code is not None and code < 0:
        code = 128 - code  # killed by a signal: the shell's convention
    return HookRun(handler=handler, exit_code=code, stdout=stdout, stderr=stderr)


async def _release(process: Process, marker: str) -> None:
    """Close the ended hook's pipes and kill the processes it left outside its group."""
    with contextlib.suppress(Exception):
        await process.aclose()
    await _kill_strays(marker, since_pid=process.pid)


async def _kill_strays(marker: str, *, since_pid: int) -> None:
    """SIGKILL the processes the hook started that left its group (``setsid``, daemons)."""
    for pid in await settled_marked(marker, since_pid=since_pid, wait_s=0.2):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


async def _drain(stream: ByteReceiveStream, into: bytearray, done: anyio.Event) -> None:
    try:
        async for chunk in stream:
            if len(into) < MAX_CAPTURE_BYTES:
                into.extend(chunk[: MAX_CAPTURE_BYTES - len(into)])
    except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
        pass
    finally:
        done.set()


async def _feed(stream: ByteSendStream, payload: bytes) -> None:
    try:
        await stream.send(payload)
    except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
        pass  # the hook did not read its input
    finally:
        with contextlib.suppress(Exception):
            await stream.aclose()
