"""Atomic file replacement: the old file or the new one, never a mix.

The bytes go to a temporary file in the same directory, are flushed and fsynced, take
the original's permissions, and are renamed over the target; the directory is fsynced
so the rename itself survives a crash. A symlinked target is written through the link.

On Linux the temporary file is made with ``O_TMPFILE``: it has no name while it is
written, so a process killed meanwhile leaves nothing behind. Once complete it is linked
in as a ``.hands-tmp-*`` file and renamed over the target at once. Where the kernel,
the file system or a missing ``/proc`` refuses that, the temporary file is an ordinary
named one from the start.

Linux cannot put a nameless file in place of an existing one (``linkat`` never replaces
a name), so the temporary file has a name from its link to its rename, and a process
killed in that instant leaves it behind: complete, named for its writer and size, the
target untouched. The next write in that folder removes it once its writer is gone
(:mod:`hands.tools.file._leftovers` says how that is made safe).

A file with other hard links cannot be renamed over without cutting it off from them, so
it is written in place instead: its old bytes are first saved (and fsynced) beside it in
a ``.hands-backup-*`` file, restored if the write fails, and removed once the new bytes
are on disk. After a crash mid-write that backup is left for recovery.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path

import anyio

from hands.tools.file._leftovers import TEMP_PREFIX as TEMP_PREFIX
from hands.tools.file._leftovers import hold, sweep, temp_name
from hands.tools.file._state import FileStamp

BACKUP_PREFIX = ".hands-backup-"
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


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
    if old is not None and old.st_nlink > 1 and stat.S_ISREG(old.st_mode):
        st = _write_in_place(target, data, expect=expect)
    else:
        st = _write_renamed(target, data, old=old, expect=expect)
    sweep(target.parent)  # what writers killed after their link left here
    return st


def _write_renamed(
    target: Path, data: bytes, *, old: os.stat_result | None, expect: FileStamp | None
) -> os.stat_result:
    """Write a temporary file and rename it over ``target``, holding it until then."""
    tmp = target.parent / temp_name(target.name, len(data))
    fd = _write_unnamed(target, tmp, data, old=old, expect=expect)
    if fd is None:
        fd = _write_named(target, tmp, data, old=old, expect=expect)
    try:
        tmp.replace(target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    finally:
        os.close(fd)  # its lock goes with it, once it has no temporary name
    _fsync_dir(target.parent)
    return target.stat()


_REFUSED = frozenset(
    {errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT, errno.EXDEV, errno.ENOSYS}
)
"""How a kernel, file system or missing ``/proc`` refuses an unnamed temporary file."""


def _write_unnamed(
    target: Path, tmp: Path, data: bytes, *, old: os.stat_result | None, expect: FileStamp | None
) -> int | None:
    """Write ``data`` to a nameless file and link it in as ``tmp``; None if refused.

    The file is returned open and locked (see :func:`hold`); the caller closes it.
    """
    flag = getattr(os, "O_TMPFILE", 0)
    if not flag:
        return None
    # O_PATH: a directory one may write but not list is fine
    directory = os.open(tmp.parent, getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY | _CLOEXEC)
    try:
        try:
            fd = os.open(".", flag | os.O_WRONLY | _CLOEXEC, _mode(old), dir_fd=directory)
        except OSError as exc:
            if exc.errno in _REFUSED:
                return None
            raise
        try:
            hold(fd)  # before it has a name
            _fill(fd, data, old)
            _check(target, expect)
            try:
                # linkat(AT_SYMLINK_FOLLOW) through /proc names a file opened O_TMPFILE
                os.link(f"/proc/self/fd/{fd}", tmp.name, dst_dir_fd=directory)
            except OSError as exc:
                if exc.errno not in _REFUSED:
                    raise
                os.close(fd)
                return None
        except BaseException:
            os.close(fd)
            raise
    finally:
        os.close(directory)
    return fd


def _write_named(
    target: Path, tmp: Path, data: bytes, *, old: os.stat_result | None, expect: FileStamp | None
) -> int:
    """Write ``data`` to the new file ``tmp``; return it open and locked.

    The file is removed again if anything fails.
    """
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, _mode(old))
    try:
        hold(fd)
        _fill(fd, data, old)
        _check(target, expect)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return fd


def _mode(old: os.stat_result | None) -> int:
    # New files get 0o666 less the umask, as any editor would create them.
    return 0o600 if old is not None else 0o666


def _fill(fd: int, data: bytes, old: os.stat_result | None) -> None:
    """The new bytes, the old file's mode and owner, on disk."""
    _write_all(fd, data)
    if old is not None:
        os.fchmod(fd, stat.S_IMODE(old.st_mode))
        _keep_owner(fd, old)
    os.fsync(fd)


def _check(target: Path, expect: FileStamp | None) -> None:
    if expect is not None and _stamp_or_none(target) != expect:
        raise ChangedUnderneathError(str(target))


def _write_in_place(target: Path, data: bytes, *, expect: FileStamp | None) -> os.stat_result:
    """Overwrite a hard-linked file in place, keeping its inode, with a backup meanwhile."""
    backup = target.parent / f"{BACKUP_PREFIX}{secrets.token_hex(6)}-{target.name}"
    fd = os.open(target, os.O_RDWR | getattr(os, "O_CLOEXEC", 0))
    try:
        if expect is not None and FileStamp.of(os.fstat(fd)) != expect:
            raise ChangedUnderneathError(str(target))
        old_bytes = _read_fd(fd)
        _write_new(backup, old_bytes)
        _fsync_dir(target.parent)
        try:
            _overwrite(fd, data)
        except BaseException:
            with contextlib.suppress(OSError):
                _overwrite(fd, old_bytes)
                backup.unlink()
            raise
        backup.unlink()
    finally:
        os.close(fd)
    return target.stat()


def _read_fd(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks: list[bytes] = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _overwrite(fd: int, data: bytes) -> None:
    os.lseek(fd, 0, os.SEEK_SET)
    _write_all(fd, data)
    os.ftruncate(fd, len(data))
    os.fsync(fd)


def _write_new(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        _write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


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
