"""Helpers shared by Glob and Grep: input checks, path display, ordering by mtime."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path

from hands.core.words import plural as plural
from hands.tools.search._rg import RecordSink

_NULLISH = frozenset({"", "undefined", "null", "none"})


def optional_path(value: str | None) -> str | None:
    """The path argument, or None when the model sent nothing meaningful."""
    if value is None:
        return None
    stripped = value.strip()
    return None if stripped.lower() in _NULLISH else stripped


def unusable_text_error(**fields: str | None) -> str | None:
    """An error naming the first field no path or argument can hold, if any.

    That is a NUL byte, or text that is not valid Unicode (a lone surrogate), which
    cannot be turned into the bytes of a path or of ripgrep's arguments.
    """
    for name, value in fields.items():
        if value is None:
            continue
        if "\0" in value:
            return f"The {name} contains a NUL byte (\\0), which no path or pattern may hold."
        try:
            os.fsencode(value)
        except UnicodeEncodeError:
            return (
                f"The {name} is not valid Unicode (it holds a lone surrogate), so it cannot "
                "be used as a path or pattern. Send it again as plain text."
            )
    return None


def _mtime_or_zero(path: bytes, dir_fd: int | None) -> int:
    try:
        return os.stat(path, dir_fd=dir_fd).st_mtime_ns
    except OSError:
        return 0


def join_path(base: bytes, path: bytes) -> bytes:
    """``path`` (as ripgrep printed it) made absolute against ``base``, normalised."""
    return os.path.normpath(os.path.join(base, path))  # noqa: PTH118 - bytes paths


def display_path(base: bytes, path: bytes, cwd: bytes) -> str:
    """A found path as the model sees it: relative to ``cwd`` inside it, else absolute.

    Relative paths cost fewer tokens on every search; Read and Edit take them back
    against the same working directory.
    """
    whole = join_path(base, path)
    top = cwd.rstrip(b"/") + b"/"
    shown = whole[len(top) :] if whole.startswith(top) and top != b"/" else whole
    return shown.decode("utf-8", errors="replace")


def mtimes(paths: Sequence[bytes], *, cwd: Path) -> list[int]:
    """Modification times (ns) of ``paths``, relative ones taken from ``cwd``; 0 if gone."""
    if os.stat not in os.supports_dir_fd:
        base = os.fsencode(cwd)
        return [_mtime_or_zero(join_path(base, p), None) for p in paths]
    fd = os.open(cwd, os.O_RDONLY)
    try:
        stat = os.stat
        try:  # the fast path: every file still there
            return [stat(p, dir_fd=fd).st_mtime_ns for p in paths]
        except OSError:
            return [_mtime_or_zero(p, fd) for p in paths]
    finally:
        os.close(fd)


class MtimeSink(RecordSink):
    """Collects NUL-terminated paths from ripgrep and their modification times as they come.

    Taking the times while ripgrep is still walking the tree hides most of their cost.
    """

    def __init__(self, cwd: Path) -> None:
        super().__init__()
        self.paths: list[bytes] = []
        self.times: list[int] = []
        self._fd: int | None = None
        if os.stat in os.supports_dir_fd:
            self._fd = os.open(cwd, os.O_RDONLY)
        self._cwd = cwd

    def records(self, items: list[bytes]) -> None:
        self.paths.extend(items)
        fd = self._fd
        if fd is None:
            base = os.fsencode(self._cwd)
            self.times.extend(_mtime_or_zero(join_path(base, p), None) for p in items)
            return
        stat = os.stat
        try:
            self.times.extend([stat(p, dir_fd=fd).st_mtime_ns for p in items])
        except OSError:
            self.times.extend(_mtime_or_zero(p, fd) for p in items)

    def close(self) -> None:
        """Release the directory handle."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def newest_first(self, keep: Callable[[bytes], bool] | None = None) -> list[bytes]:
        """The paths, newest first, ties by name; only those ``keep`` accepts."""
        pairs = sorted(zip(self.paths, self.times, strict=True))
        if keep is not None:
            pairs = [pair for pair in pairs if keep(pair[0])]
        pairs.sort(key=_second, reverse=True)
        return [p for p, _ in pairs]


def _second(pair: tuple[bytes, int]) -> int:
    return pair[1]


def display_root(target: Path, cwd: Path) -> str:
    """How ``target`` is passed to ripgrep: relative to ``cwd`` when inside it."""
    try:
        relative = target.relative_to(cwd)
    except ValueError:
        return str(target)
    text = relative.as_posix()
    return "." if text in ("", ".") else text


def special_kind(mode: int) -> str:
    """What a path that is neither a file nor a directory is, in words."""
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"
