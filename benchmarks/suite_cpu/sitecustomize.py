"""Accounting for one measured test run: put on ``PYTHONPATH`` by ``run.py`` only.

Every Python process of the run writes one line when it ends (its ``argv``, its own CPU,
the CPU of the children it waited for, and the CPU it had spent when this module was
imported: the interpreter's start before ``site``), and one line for every child it
waits for (``os.waitpid`` is answered by ``os.wait4``, whose resource usage is the child's
CPU and that of the descendants it waited for). Never imported in an ordinary run.
"""

from __future__ import annotations

import atexit
import json
import os

_LOG = os.environ.get("SUITE_CPU_LOG")
_START = os.times()
_waitpid = os.waitpid


def _write(entry: dict[str, object]) -> None:
    if not _LOG:
        return
    try:
        path = os.path.join(_LOG, f"{os.getpid()}.jsonl")
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    except OSError:
        return
    try:
        os.write(fd, (json.dumps(entry) + "\n").encode())
    finally:
        os.close(fd)


def _started(pid: int | str) -> int:
    """The process's start, in clock ticks after boot: with its id, who it is (ids are
    used again in a long run)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return -1


_SELF = _started("self")


def _name(pid: int) -> tuple[str, str]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmdline = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        cmdline = ""
    try:
        with open(f"/proc/{pid}/comm") as f:
            comm = f.read().strip()
    except OSError:
        comm = ""
    return cmdline[:300], comm


def _wait4(pid: int, options: int) -> tuple[int, int]:
    cmdline, comm = _name(pid) if pid > 0 else ("", "")
    started = _started(pid) if pid > 0 else -1
    child, status, usage = os.wait4(pid, options)
    if child > 0:
        if not comm:
            cmdline, comm = _name(child)
        _write(
            {
                "k": "reap",
                "parent": [os.getpid(), _SELF],
                "pid": [child, started],
                "cmdline": cmdline,
                "comm": comm,
                "cpu": usage.ru_utime + usage.ru_stime,
            }
        )
    return child, status


def _exit() -> None:
    end = os.times()
    _write(
        {
            "k": "py",
            "pid": [os.getpid(), _SELF],
            "ppid": [os.getppid(), _started(os.getppid())],
            "argv": __import__("sys").argv[:3],
            "worker": os.environ.get("PYTEST_XDIST_WORKER"),
            "start": _START.user + _START.system,
            "self": end.user + end.system,
            "children": end.children_user + end.children_system,
        }
    )


if _LOG:
    os.waitpid = _wait4  # type: ignore[assignment]
    atexit.register(_exit)
