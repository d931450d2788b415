"""Atomic writes through a nameless temporary file (``O_TMPFILE``), and the fallbacks.

While the bytes are written and fsynced the temporary file has no name, so a kill then
leaves nothing beside the target. It has one from its link to its rename (Linux cannot
link over a name): a kill there leaves it, complete, for the next write to remove. Where
``O_TMPFILE`` or the ``/proc`` link is refused the write goes through a named temporary
file, as before.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from hands.tools.file import _atomic as atomic
from hands.tools.file._atomic import write_atomic

pytestmark = pytest.mark.skipif(not hasattr(os, "O_TMPFILE"), reason="Linux only")


def temp_files(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith(atomic.TEMP_PREFIX))


def watch_fsync(monkeypatch: pytest.MonkeyPatch, directory: Path) -> list[list[str]]:
    """The temp files in ``directory`` at each fsync of a file (the real fsync runs)."""
    real = os.fsync
    seen: list[list[str]] = []

    def fsync(fd: int) -> None:
        if not Path(f"/proc/self/fd/{fd}").resolve().is_dir():
            seen.append(temp_files(directory))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return seen


def refuse(monkeypatch: pytest.MonkeyPatch, name: str, code: int, when: Any) -> list[int]:
    """Make ``os.<name>`` fail with ``code`` for the calls ``when`` picks; count them."""
    real = getattr(os, name)
    refused: list[int] = []

    def call(*args: Any, **kwargs: Any) -> Any:
        if when(*args):
            refused.append(code)
            raise OSError(code, os.strerror(code))
        return real(*args, **kwargs)

    monkeypatch.setattr(os, name, call)
    return refused


def test_the_temp_file_has_no_name_while_it_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    f = tmp_path / "a.txt"
    f.write_text("old\n")
    seen = watch_fsync(monkeypatch, tmp_path)
    write_atomic(f, b"new\n")
    assert seen == [[]]  # written and flushed before it had a name
    assert f.read_bytes() == b"new\n" and temp_files(tmp_path) == []


@pytest.mark.parametrize("code", [errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL])
def test_a_refused_o_tmpfile_falls_back_to_a_named_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    f = tmp_path / "a.txt"
    f.write_text("old\n")
    f.chmod(0o640)
    refused = refuse(
        monkeypatch, "open", code, lambda path, flags, *_: flags & os.O_TMPFILE == os.O_TMPFILE
    )
    seen = watch_fsync(monkeypatch, tmp_path)
    write_atomic(f, b"new\n")
    assert refused == [code]
    assert len(seen) == 1 and len(seen[0]) == 1  # the named temp file, during its fsync
    assert f.read_bytes() == b"new\n" and temp_files(tmp_path) == []
    assert f.stat().st_mode & 0o777 == 0o640


def test_no_proc_to_link_through_falls_back_to_a_named_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    f = tmp_path / "new.txt"
    refused = refuse(
        monkeypatch, "link", errno.ENOENT, lambda src, *_: str(src).startswith("/proc/")
    )
    seen = watch_fsync(monkeypatch, tmp_path)
    write_atomic(f, b"data\n")
    assert refused == [errno.ENOENT]
    assert seen[0] == [] and len(seen[1]) == 1  # written unnamed, then again named
    assert f.read_bytes() == b"data\n" and temp_files(tmp_path) == []


def test_another_link_error_fails_the_write_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    f = tmp_path / "a.txt"
    f.write_text("old\n")
    refuse(monkeypatch, "link", errno.ENOSPC, lambda src, *_: str(src).startswith("/proc/"))
    with pytest.raises(OSError) as info:
        write_atomic(f, b"new\n")
    assert info.value.errno == errno.ENOSPC
    assert f.read_text() == "old\n" and temp_files(tmp_path) == []


def test_modes_are_kept_or_follow_the_umask(tmp_path: Path) -> None:
    old = tmp_path / "old.sh"
    old.write_text("echo\n")
    old.chmod(0o751)
    write_atomic(old, b"echo hi\n")
    assert old.stat().st_mode & 0o777 == 0o751
    umask = os.umask(0o027)
    try:
        write_atomic(tmp_path / "fresh.txt", b"x")
    finally:
        os.umask(umask)
    assert (tmp_path / "fresh.txt").stat().st_mode & 0o777 == 0o640


def test_a_write_only_directory_can_be_written(tmp_path: Path) -> None:
    d = tmp_path / "drop"
    d.mkdir()
    (d / "a.txt").write_text("old\n")
    d.chmod(0o300)  # write and search, no listing
    try:
        write_atomic(d / "a.txt", b"new\n")
        assert (d / "a.txt").read_bytes() == b"new\n"
    finally:
        d.chmod(0o700)
    assert temp_files(d) == []


WRITER = """
import sys
from pathlib import Path
from hands.tools.file._atomic import write_atomic

path = Path(sys.argv[1])
blobs = [b"A" * 8_000_000, b"B" * 8_000_000]
n = 0
while True:
    write_atomic(path, blobs[n % 2])
    if n == 0:
        print("ready", flush=True)
    n += 1
"""


@pytest.mark.slow
def test_sigkill_mid_write_leaves_a_whole_target_and_at_most_one_complete_leftover(
    tmp_path: Path,
) -> None:
    f = tmp_path / "victim.txt"
    blobs = (b"A" * 8_000_000, b"B" * 8_000_000)
    for delay in (0.0, 0.01, 0.03, 0.07, 0.12):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(f)], stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(delay)  # somewhere in a write: most of it is spent nameless
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert f.read_bytes() in blobs
        left = temp_files(tmp_path)
        assert len(left) <= 1  # one only if the kill fell between the link and the rename
        for name in left:
            assert name.startswith(f"{atomic.TEMP_PREFIX}{proc.pid}-8000000-")
            assert name.endswith("-victim.txt")
            assert (tmp_path / name).read_bytes() in blobs
        write_atomic(f, blobs[0])  # the next write of the target removes it
        assert temp_files(tmp_path) == [] and f.read_bytes() == blobs[0]
