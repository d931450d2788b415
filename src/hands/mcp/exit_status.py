"""A stdio server's exit status, for a server that dies before it finished starting.

The MCP SDK's stdio transport spawns the server and reaps it itself; it hands its caller
only the two message streams. While the transport is open its process is a local of the
transport's suspended generator, so hands reads it from there (:func:`transport_process`)
and, when start-up fails, asks it how it ended. Where that cannot be found (another SDK
version, another platform) the failure is reported as before, without the status.
"""

from __future__ import annotations

import contextlib
import signal
from typing import Protocol, cast

import anyio

from hands.mcp.server_process import running

REAP_WAIT_S = 0.5
"""How long a dead server's status may take to arrive (the event loop reaps it)."""
ALIVE_GRACE_S = 0.1
"""How long a server that closed its output may still be seen running as it exits."""
_POLL_S = 0.005


class ServerProcess(Protocol):
    """What hands reads of the transport's process."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...


def transport_process(transport: object) -> ServerProcess | None:
    """The process an open ``stdio_client(...)`` context spawned; ``None`` if not found."""
    frame = getattr(getattr(transport, "gen", None), "ag_frame", None)
    found: object = getattr(frame, "f_locals", {}).get("process") if frame is not None else None
    if isinstance(getattr(found, "pid", None), int) and hasattr(found, "returncode"):
        return cast(ServerProcess, found)
    return None


async def ended_with(process: ServerProcess | None) -> int | None:
    """How ``process`` ended; ``None`` while it still runs (or when it is unknown).

    A process that has exited but is not reaped yet is waited for, briefly.
    """
    if process is None:
        return None
    alive_until = anyio.current_time() + ALIVE_GRACE_S
    with anyio.move_on_after(REAP_WAIT_S):
        while process.returncode is None:
            if running(process.pid) and anyio.current_time() > alive_until:
                break
            await anyio.sleep(_POLL_S)
    return process.returncode


def describe(status: int) -> str:
    """``exited with status 3``; ``was killed by signal 9 (SIGKILL)``."""
    if status >= 0:
        return f"exited with status {status}"
    name = ""
    with contextlib.suppress(ValueError):
        name = f" ({signal.Signals(-status).name})"
    return f"was killed by signal {-status}{name}"
