"""The temporary files of atomic writes: their names, and the leftovers of killed writers.

A temporary file is named ``.hands-tmp-<pid>-<size>-<token>-<target>``: the writer's
process id, the number of bytes it will hold, a random token and the target's name. Its
writer holds an ``flock`` on it from before it has a name until it has been renamed over
the target. A writer killed in between leaves it behind (nothing can close that window
on Linux, see :mod:`hands.tools.file._atomic`); a later write in the same folder removes
it, but only when all of these hold: the name is one of these, it is a regular file (not
a symlink) with one link, owned by the current user and exactly ``<size>`` bytes long, no
process ``<pid>`` is running, and no one holds its lock. Anything else is left alone; a
process id used again by another process only keeps a leftover for later.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import secrets
import stat
from pathlib import Path

TEMP_PREFIX = ".hands-tmp-"
_NAME_MAX = 255
"""Bytes in one file name (Linux, macOS)."""
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NAME = re.compile(
    re.escape(TEMP_PREFIX) + r"(?P<pid>[1-9][0-9]{0,9})-(?P<size>0|[1-9][0-9]*)-[0-9a-f]{12}-",
)


def temp_name(target: str, size: int) -> str:
    """A fresh temporary file name for ``size`` bytes meant for the file ``target``."""
    head = f"{TEMP_PREFIX}{os.getpid()}-{size}-{secrets.token_hex(6)}-"
    # the target's name only tells whose it is: cut to fit, never too long to be made
    room = _NAME_MAX - len(os.fsencode(head))
    return head + os.fsdecode(os.fsencode(target)[:room])


def hold(fd: int) -> None:
    """Mark the temporary file open as ``fd`` as being written, until it is closed."""
    # where locks are refused, a sweep cannot take the lock either and removes nothing
    with contextlib.suppress(OSError):
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def sweep(directory: Path) -> list[str]:
    """Remove the leftovers in ``directory`` whose writers are gone; return their names."""
    try:
        dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)
    except OSError:
        return []  # e.g. a folder one may write but not list
    try:
        with os.scandir(dir_fd) as entries:
            names = [e.name for e in entries if e.name.startswith(TEMP_PREFIX)]
        return [name for name in names if _remove_abandoned(dir_fd, name)]
    except OSError:
        return []
    finally:
        os.close(dir_fd)


def _remove_abandoned(dir_fd: int, name: str) -> bool:
    """Remove the temporary file ``name`` if it is complete and its writer is gone."""
    found = _NAME.match(name)
    if found is None or _running(int(found["pid"])):
        return False
    size = int(found["size"])
    try:
        seen = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        if not _complete_and_mine(seen, size):
            return False  # checked before it is opened: no FIFO or device is ever opened
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | _CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return False
    try:
        opened = os.fstat(fd)
        if not _complete_and_mine(opened, size) or not _same(opened, seen):
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False  # its writer is still at work
        # the lock is ours: no writer has it; the name must still be this file
        if not _same(os.stat(name, dir_fd=dir_fd, follow_symlinks=False), opened):
            return False
        os.unlink(name, dir_fd=dir_fd)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def _complete_and_mine(st: os.stat_result, size: int) -> bool:
    return (
        stat.S_ISREG(st.st_mode)
        and st.st_nlink == 1
        and st.st_uid == os.geteuid()
        and st.st_size == size
    )


def _same(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _running(pid: int) -> bool:
    """Whether a process ``pid`` exists (a zombie not yet waited for counts)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True  # another user's process; or no process id at all: keep it
    return True
