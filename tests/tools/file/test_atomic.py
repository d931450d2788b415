"""Atomic writes: a cancel, a crash or an I/O error leaves the old file or the new one."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest

from hands.tools.file import _atomic as atomic
from hands.tools.file._atomic import ChangedUnderneathError, write_atomic
from hands.tools.file._state import FileStamp

from .conftest import Harness


def temp_files(directory: Path) -> list[Path]:
    return [p for p in directory.iterdir() if p.name.startswith(atomic.TEMP_PREFIX)]


def test_write_failure_keeps_the_old_file_and_cleans_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    f = tmp_path / "a.txt"
    f.write_text("old\n")

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        write_atomic(f, b"new\n")
    assert f.read_text() == "old\n"
    assert temp_files(tmp_path) == []


def test_write_failure_reaches_the_model_as_an_error(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    f = h.root / "a.txt"
    f.write_text("old\n")
    h.read(f)

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    text = h.err("Edit", file_path=str(f), old_string="old", new_string="new")
    assert "No space left on device" in text and "Nothing was changed" in text
    assert f.read_text() == "old\n"


def test_changed_stamp_just_before_rename_aborts(tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    f.write_text("old\n")
    stale = FileStamp(size=999, mtime_ns=1)
    with pytest.raises(ChangedUnderneathError):
        write_atomic(f, b"new\n", expect=stale)
    assert f.read_text() == "old\n" and temp_files(tmp_path) == []


def test_cancel_during_an_edit_leaves_old_or_new_and_no_temp(h: Harness) -> None:
    from hands.tools.file.edit import EditInput, EditTool

    f = h.root / "big.txt"
    old = "".join(f"line {i}\n" for i in range(400_000))
    f.write_text(old)
    h.read(f, offset=1, limit=10)
    new = old.replace("line 0\n", "LINE ZERO\n", 1)
    tool = EditTool()
    inp = EditInput(file_path=str(f), old_string="line 0\n", new_string="LINE ZERO\n")
    for delay in (0.0, 0.001, 0.005, 0.02, 0.05):
        f.write_text(old)
        h.read(f, offset=1, limit=10)

        async def go(delay: float = delay) -> None:
            with anyio.move_on_after(delay):
                await tool.call(inp, h.ctx, lambda _: None)

        anyio.run(go)
        assert f.read_text() in (old, new)
        assert temp_files(h.root) == []


WRITER = """
import sys, anyio
from pathlib import Path
from hands.core.context import ToolContext
from hands.core.session import Session
from hands.tools.file.write import WriteTool, WriteInput

path, a, b = sys.argv[1], "A" * 8_000_000 + "\\n", "B" * 8_000_000 + "\\n"
ctx = ToolContext(cwd=Path(path).parent, session=Session())
tool = WriteTool()

async def main():
    n = 0
    while True:
        await tool.call(WriteInput(file_path=path, content=a if n % 2 else b), ctx, print)
        if n == 0:
            print("ready", flush=True)
        n += 1

anyio.run(main)
"""


@pytest.mark.slow
def test_sigkill_during_writes_leaves_a_whole_file(tmp_path: Path) -> None:
    f = tmp_path / "victim.txt"
    wholes = {"A" * 8_000_000 + "\n", "B" * 8_000_000 + "\n"}
    rng = random.Random(7)
    for _ in range(6):
        f.unlink(missing_ok=True)  # the writer's first Write creates it: no read needed
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(f)], stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.strip() == "ready"
        time.sleep(rng.uniform(0.0, 0.15))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert f.read_text() in wholes
        # a kill between the link and the rename leaves its temp file, complete; the
        # next writer's first write removes it
        left = temp_files(tmp_path)
        assert len(left) <= 1 and all(p.read_text() in wholes for p in left)
    write_atomic(f, b"last\n")
    assert temp_files(tmp_path) == [] and f.read_bytes() == b"last\n"


def backups(directory: Path) -> list[Path]:
    return [p for p in directory.iterdir() if p.name.startswith(atomic.BACKUP_PREFIX)]


def test_edit_and_write_keep_hard_links(h: Harness) -> None:
    f = h.root / "a.txt"
    f.write_text("one\ntwo\n")
    twin = h.root / "twin.txt"
    os.link(f, twin)
    inode = f.stat().st_ino
    h.read(f)
    h.ok("Edit", file_path=str(f), old_string="two", new_string="three")
    assert twin.read_text() == "one\nthree\n"
    h.ok("Write", file_path=str(f), content="short\n")
    assert twin.read_text() == "short\n"  # truncated, not left with the old tail
    assert f.stat().st_ino == inode and f.stat().st_nlink == 2
    assert temp_files(h.root) == [] and backups(h.root) == []


def test_a_failed_in_place_write_restores_the_old_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    f = tmp_path / "a.txt"
    f.write_bytes(b"old content\n")
    os.link(f, tmp_path / "twin.txt")
    real = os.ftruncate
    calls: list[int] = []

    def failing_once(fd: int, length: int) -> None:
        calls.append(length)
        if len(calls) == 1:
            raise OSError(28, "No space left on device")
        real(fd, length)

    monkeypatch.setattr(os, "ftruncate", failing_once)
    with pytest.raises(OSError):
        write_atomic(f, b"new\n")
    assert (tmp_path / "twin.txt").read_bytes() == b"old content\n"
    assert backups(tmp_path) == [] and calls == [4, 12]


def test_a_stale_hard_linked_file_is_not_written(tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    f.write_text("old\n")
    os.link(f, tmp_path / "twin.txt")
    with pytest.raises(ChangedUnderneathError):
        write_atomic(f, b"new\n", expect=FileStamp(size=999, mtime_ns=1))
    assert f.read_text() == "old\n" and backups(tmp_path) == []
