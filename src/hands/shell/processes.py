"""Finding a command's processes through ``/proc`` by the marker in their environment.

The Bash tool's shells and command hooks carry a marker of their own; what they leave
behind is found and stopped by it.

A process that left the command's process group (``setsid``, a daemon) is found by the
marker variable it inherited. One caught in the middle of ``execve`` has a new memory
map whose environment is not set up yet: ``/proc/PID/environ`` reads empty and the
``env_end`` field of ``/proc/PID/stat`` is 0 for a few moments (longer on a loaded
machine). Such a process is *undecided*, not "not ours": :func:`settled_marked` reads
it again until the exec is done.

Reading ``/proc`` takes file descriptors. When this process has none to spare (EMFILE,
ENFILE: a tool that holds them all), a process that could not be read is undecided too,
and a ``/proc`` that could not be listed makes the scan *starved*; either way it is read
again, for longer, since a look that cannot see would leave the command's strays alive.
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import anyio

MARKER_VAR = "HANDS_SHELL_TASK"
SETTLE_S = 1.0
"""How long :func:`settled_marked` waits for processes caught mid-exec."""
STARVED_WAIT_S = 5.0
"""How long :func:`settled_marked` waits for file descriptors to read ``/proc`` with."""
_NO_DESCRIPTOR = (errno.EMFILE, errno.ENFILE)
_PF_KTHREAD = 0x00200000
"""``/proc/PID/stat`` flag of a kernel thread (whose environment is always empty)."""
_FLAGS, _ENV_END = 6, 48
"""Indexes of ``flags`` and ``env_end`` among the stat fields after the command name."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Scan:
    """What one look at ``/proc`` found."""

    marked: tuple[int, ...] = ()
    """Processes whose environment carries the marker."""
    undecided: tuple[int, ...] = ()
    """Processes caught mid-exec, or not readable for want of a file descriptor."""
    starved: bool = False
    """Some of ``/proc`` could not be read for want of a file descriptor (all of it, with
    no process undecided, when ``/proc`` itself could not be listed)."""


def scan_floor(pid: int) -> int:
    """The lowest pid a process started after ``pid`` can have.

    Pids grow until they wrap around at ``pid_max`` (32,768 on many machines, reached
    quickly by busy test suites); once the newest pid is below ``pid``, a descendant
    may have any pid, so everything must be scanned.
    """
    try:
        newest = int(Path("/proc/loadavg").read_text().rsplit("/", 1)[-1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return pid if newest >= pid else 0


def scan_marked(marker: str, *, since_pid: int = 0) -> Scan:
    """The live processes (pids above ``since_pid`` only) that carry ``marker``.

    Only pids above ``since_pid`` are read (pids grow between wrap-arounds), which keeps
    the scan cheap on busy machines.
    """
    floor = scan_floor(since_pid)
    me = os.getpid()
    try:
        entries = os.listdir("/proc")  # noqa: PTH208  (cheaper than Path objects)
    except OSError as exc:
        return Scan(starved=exc.errno in _NO_DESCRIPTOR)
    pids = (int(n) for n in entries if n.isdigit())
    return classify((p for p in pids if p >= floor and p != me), marker)


def classify(pids: Iterable[int], marker: str) -> Scan:
    """Which of ``pids`` carry ``marker``, and which cannot tell yet."""
    needle = f"{MARKER_VAR}={marker}".encode()
    marked: list[int] = []
    undecided: list[int] = []
    starved = False
    for pid in pids:
        try:
            data = _environ(pid)
            if data is None:
                continue
            if not data:
                # the stat first: an env_end of 0 seen before an empty read means mid-exec
                pending = _env_unset(pid)
                data = _environ(pid)
                if data is None:
                    continue
                if not data:
                    if pending or _env_unset(pid):
                        undecided.append(pid)
                    continue
        except _NoDescriptor:
            undecided.append(pid)
            starved = True
            continue
        if needle in data:
            marked.append(pid)
    return Scan(marked=tuple(marked), undecided=tuple(undecided), starved=starved)


async def settled_marked(marker: str, *, since_pid: int, wait_s: float = SETTLE_S) -> list[int]:
    """:func:`scan_marked`'s marked processes, once the undecided ones are decided.

    Processes still mid-exec after ``wait_s`` are left out; a scan short of file
    descriptors is tried again for up to :data:`STARVED_WAIT_S`.
    """
    start = time.monotonic()
    delay = 0.001
    scan = scan_marked(marker, since_pid=since_pid)
    marked = list(scan.marked)
    while scan.starved or scan.undecided:
        bound = STARVED_WAIT_S if scan.starved else wait_s
        if time.monotonic() - start >= bound:
            break
        await anyio.sleep(delay)
        delay = min(delay * 2, 0.02)
        if scan.undecided:
            scan = classify(scan.undecided, marker)
        else:  # /proc itself could not be listed
            scan = scan_marked(marker, since_pid=since_pid)
        marked.extend(scan.marked)
    return marked


class _NoDescriptor(Exception):
    """``/proc`` could not be read: this process has no file descriptor to spare."""


def _environ(pid: int) -> bytes | None:
    """The process's environment block; None when it is gone or not readable."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:  # noqa: PTH123
            return f.read()
    except OSError as exc:
        if exc.errno in _NO_DESCRIPTOR:
            raise _NoDescriptor from None
        return None


def _env_unset(pid: int) -> bool:
    """Whether ``pid`` is a live user process whose environment is not set up yet."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()
        if fields[0] in ("Z", "X") or int(fields[_FLAGS]) & _PF_KTHREAD:
            return False
        return len(fields) <= _ENV_END or int(fields[_ENV_END]) == 0
    except OSError as exc:
        if exc.errno in _NO_DESCRIPTOR:
            raise _NoDescriptor from None
        return False
    except (ValueError, IndexError):
        return False
