"""Atomic file replacement: the old file or the new one, never a mix.

The bytes go to a temporary file in the same directory, are flushed and fsynced, take
the original's permissions, and are renamed over the target; the directory is fsynced
so the rename itself survives a crash. A symlinked target is written through the link.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

import anyio

from hands.tools.file._state import FileStamp

TEMP_PREFIX = ".hands-tmp-"


class ChangedUnderneathError(RuntimeError):
    """The target changed on disk between the check and the rename."""


def write_atomic(path: Path, data: bytes, *, expect: FileStamp | None = None) -> os.stat_result:
    """Replace ``path`` with ``data`` atomically; return the new file's stat.

    ``expect`` is the stamp the file had when its content was read: if the file no
    longer has it just before the rename, nothing is written.
    """
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        old = target.stat()
    except FileNotFoundError:
        old = None
    tmp = target.parent / f"{TEMP_PREFIX}{secrets.token_hex(6)}-{target.name}"
    # New files get 0o666 less the umask, as any editor would create them.
    mode = 0o600 if old is not None else 0o666
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), mode)
    try:
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            if old is not None:
                os.fchmod(fd, stat.S_IMODE(old.st_mode))
                _keep_owner(fd, old)
            os.fsync(fd)
        finally:
            os.close(fd)
        if expect is not None:
            now = _stamp_or_none(target)
            if now != expect:
                raise ChangedUnderneathError(str(target))
        tmp.replace(target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(target.parent)
    return target.stat()


async def write_atomic_async(
    path: Path, data: bytes, *, expect: FileStamp | None = None
) -> os.stat_result:
    """:func:`write_atomic` in a worker thread, shielded so a cancel cannot split it."""
    st: os.stat_result | None = None
    with anyio.CancelScope(shield=True):
        st = await anyio.to_thread.run_sync(lambda: write_atomic(path, data, expect=expect))
    assert st is not None  # a shielded scope cannot be cancelled out of the call
    return st


def _stamp_or_none(path: Path) -> FileStamp | None:
    try:
        return FileStamp.of(path.stat())
    except FileNotFoundError:
        return None


def _keep_owner(fd: int, old: os.stat_result) -> None:
    # Only root can give a file away; for anyone else the owner is already right.
    if hasattr(os, "fchown") and (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
        with contextlib.suppress(OSError):
            os.fchown(fd, old.st_uid, old.st_gid)


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
