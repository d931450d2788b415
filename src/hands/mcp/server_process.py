"""The processes of a stdio server that never finished starting, found and killed.

The SDK's stdio transport ends a server by closing its stdin and waiting a grace period
for it to exit before it signals it; a server stuck before its ``initialize`` answer
seldom reads stdin, so every such stop would wait the whole grace. Such a server has
no session to close: it is killed at once. Its processes are the ones whose stderr is
the connection's own stderr file (its children inherit it too) and the rest of its
process group, found through ``/proc``; where there is no ``/proc`` nothing is found
and the SDK's stop does it all.
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path
from typing import IO

import anyio

from hands.shell.processes import scan_floor

KILL_WAIT_S = 2.0
"""How long a kill waits for the killed processes to be gone (SIGKILL is not refused)."""
_POLL_S = 0.005


def server_pids(errlog: IO[str]) -> list[int]:
    """The server's processes: those whose stderr is the file ``errlog``.

    With them, the other members of the process groups they lead (the server's own).
    """
    try:
        mine = os.fstat(errlog.fileno())
    except (OSError, ValueError):
        return []
    me = os.getpid()
    floor = scan_floor(me)
    try:
        entries = [p.name for p in Path("/proc").iterdir()]
    except OSError:
        return []
    groups: dict[int, int] = {}
    writers: set[int] = set()
    for entry in entries:
        if not entry.isdigit() or int(entry) <= floor or int(entry) == me:
            continue
        pid = int(entry)
        try:
            groups[pid] = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[2])
            st = Path(f"/proc/{pid}/fd/2").stat()
        except (OSError, IndexError, ValueError):
            continue
        if (st.st_dev, st.st_ino) == (mine.st_dev, mine.st_ino):
            writers.add(pid)
    led = {pid for pid in writers if groups.get(pid) == pid} - {os.getpgrp()}
    return sorted(writers | {pid for pid, group in groups.items() if group in led})


async def kill_server(errlog: IO[str], *, wait_s: float = KILL_WAIT_S) -> list[int]:
    """SIGKILL the :func:`server_pids` of ``errlog`` and wait (a little) until they are gone.

    Runs to its end even in a cancelled scope (it is what a cancel calls).
    """
    pids = server_pids(errlog)
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    with anyio.CancelScope(shield=True):
        for _ in range(int(wait_s / _POLL_S)):
            if not any(running(pid) for pid in pids):
                break
            await anyio.sleep(_POLL_S)
    return pids


def running(pid: int) -> bool:
    """Whether ``pid`` is alive and not a zombie (False where there is no /proc)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")
