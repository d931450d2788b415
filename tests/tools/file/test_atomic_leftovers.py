"""The temporary files killed writers leave, and which of them a later write removes.

A writer killed between the link of its temporary file and the rename leaves it behind
(Linux has no way to put a nameless file in place of a name). A later write in the same
folder removes it only when it is provably such a leftover: the name's form, a regular
file with one link, the current user's, exactly the size its name gives, its writer's
process gone and its lock free. Everything else stays as it is.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hands.tools.file._atomic import BACKUP_PREFIX, write_atomic
from hands.tools.file._leftovers import TEMP_PREFIX, hold, temp_name

GONE = 2**22 + 1
"""Above the largest process id Linux can give (PID_MAX_LIMIT): no process has it."""

KILLED_AFTER_LINK = """
import os, signal, sys
from pathlib import Path
from hands.tools.file._atomic import write_atomic

if sys.argv[3] == "named":
    del os.O_TMPFILE  # as where the kernel has none
os.replace = lambda *args, **kwargs: os.kill(os.getpid(), signal.SIGKILL)
write_atomic(Path(sys.argv[1]), sys.argv[2].encode())
"""

PAUSED_AFTER_LINK = """
import os, sys
from pathlib import Path
from hands.tools.file._atomic import write_atomic

real = os.replace

def replace(*args, **kwargs):
    print("linked", flush=True)
    sys.stdin.readline()
    real(*args, **kwargs)

os.replace = replace
write_atomic(Path(sys.argv[1]), sys.argv[2].encode())
print("done", flush=True)
"""


def temps(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith(TEMP_PREFIX))


def killed_writer(target: Path, data: str, how: str = "unnamed") -> tuple[int, str]:
    """A real writer of ``target`` killed just after its temp file got a name."""
    proc = subprocess.run(
        [sys.executable, "-c", KILLED_AFTER_LINK, str(target), data, how], check=False
    )
    assert proc.returncode == -signal.SIGKILL
    (name,) = temps(target.parent)
    return int(name.removeprefix(TEMP_PREFIX).split("-")[0]), name


def leftover(directory: Path, data: bytes = b"complete\n", *, pid: int = GONE) -> Path:
    """A file named as a leftover of a writer ``pid`` of ``a.txt``, holding ``data``."""
    path = directory / f"{TEMP_PREFIX}{pid}-{len(data)}-{secrets.token_hex(6)}-a.txt"
    path.write_bytes(data)
    return path


@pytest.fixture
def live_process() -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=-1)
    yield proc
    proc.kill()
    proc.wait()


@pytest.mark.parametrize("how", ["unnamed", "named"])
def test_a_killed_writers_complete_leftover_is_removed_by_the_next_write_in_the_folder(
    tmp_path: Path, how: str
) -> None:
    f = tmp_path / "a.txt"
    f.write_bytes(b"old\n")
    pid, name = killed_writer(f, "new bytes\n", how)
    assert f.read_bytes() == b"old\n"  # the target is whole: the old bytes
    assert name.startswith(f"{TEMP_PREFIX}{pid}-10-") and name.endswith("-a.txt")
    assert (tmp_path / name).read_bytes() == b"new bytes\n"  # and the leftover complete
    write_atomic(tmp_path / "b.txt", b"other\n")  # another file of the same folder
    assert temps(tmp_path) == []
    assert f.read_bytes() == b"old\n" and (tmp_path / "b.txt").read_bytes() == b"other\n"


def test_a_live_writers_temp_file_is_kept(tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    f.write_bytes(b"old\n")
    proc = subprocess.Popen(
        [sys.executable, "-c", PAUSED_AFTER_LINK, str(f), "theirs\n"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        assert proc.stdout.readline() == "linked\n"
        (theirs,) = temps(tmp_path)
        inode = (tmp_path / theirs).stat().st_ino
        write_atomic(f, b"mine\n")  # the same target
        write_atomic(tmp_path / "b.txt", b"other\n")
        assert temps(tmp_path) == [theirs] and (tmp_path / theirs).stat().st_ino == inode
        proc.stdin.write("\n")
        proc.stdin.flush()
        assert proc.stdout.readline() == "done\n"
    finally:
        proc.kill()
        proc.wait()
    assert f.read_bytes() == b"theirs\n" and temps(tmp_path) == []


def test_a_locked_leftover_is_kept_though_its_process_id_is_gone(tmp_path: Path) -> None:
    # as a writer's in another process id namespace: only its lock tells it is at work
    path = leftover(tmp_path)
    fd = os.open(path, os.O_RDONLY)
    try:
        hold(fd)
        write_atomic(tmp_path / "b.txt", b"x")
        assert path.read_bytes() == b"complete\n"
    finally:
        os.close(fd)
    write_atomic(tmp_path / "b.txt", b"y")
    assert not path.exists()


def test_an_unlocked_leftover_of_a_running_process_id_is_kept(
    tmp_path: Path, live_process: subprocess.Popen[bytes]
) -> None:
    path = leftover(tmp_path, pid=live_process.pid)
    write_atomic(tmp_path / "b.txt", b"x")
    assert path.read_bytes() == b"complete\n"
    live_process.kill()
    live_process.wait()
    write_atomic(tmp_path / "b.txt", b"y")
    assert not path.exists()


def not_a_leftover(directory: Path, kind: str) -> Path:
    """Something with the temp files' prefix that is not a complete leftover of ours."""
    token = secrets.token_hex(6)
    if kind == "wrong size":
        path = directory / f"{TEMP_PREFIX}{GONE}-9999-{token}-a.txt"
        path.write_bytes(b"complete\n")
    elif kind == "someone else's":
        path = leftover(directory)
        os.chown(path, 65534, 65534)
    elif kind == "symlink":
        real = directory / "real.txt"
        real.write_bytes(b"complete\n")
        path = directory / f"{TEMP_PREFIX}{GONE}-9-{token}-a.txt"
        path.symlink_to(real)
    elif kind == "two links":
        path = leftover(directory)
        os.link(path, directory / "twin.txt")
    elif kind == "directory":
        path = directory / f"{TEMP_PREFIX}{GONE}-0-{token}-a.txt"
        path.mkdir()
    elif kind == "fifo":
        path = directory / f"{TEMP_PREFIX}{GONE}-0-{token}-a.txt"
        os.mkfifo(path)
    else:  # a name of another form: an older release's, or the user's own
        names = {
            "older name": f"{TEMP_PREFIX}{token}-a.txt",
            "user's name": f"{TEMP_PREFIX}notes.txt",
            "no process id": f"{TEMP_PREFIX}0-9-{token}-a.txt",
        }
        path = directory / names[kind]
        path.write_bytes(b"complete\n")
    return path


@pytest.mark.parametrize(
    "kind",
    [
        "wrong size",
        pytest.param(
            "someone else's",
            marks=pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file away"),
        ),
        "symlink",
        "two links",
        "directory",
        "fifo",
        "older name",
        "user's name",
        "no process id",
    ],
)
def test_what_is_not_a_complete_leftover_of_ours_is_left_alone(tmp_path: Path, kind: str) -> None:
    path = not_a_leftover(tmp_path, kind)
    before = os.lstat(path)
    ours = leftover(tmp_path)  # beside it, a true one: it goes
    write_atomic(tmp_path / "b.txt", b"x")
    assert not ours.exists()
    after = os.lstat(path)
    assert (after.st_ino, after.st_mode, after.st_size) == (
        before.st_ino,
        before.st_mode,
        before.st_size,
    )
    if kind == "symlink":
        assert (tmp_path / "real.txt").read_bytes() == b"complete\n"


def test_only_the_written_files_folder_is_swept(tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    path = leftover(sub)
    write_atomic(tmp_path / "b.txt", b"x")
    assert path.exists()
    write_atomic(sub / "c.txt", b"x")
    assert not path.exists()


def test_a_backup_left_by_a_crash_is_kept_for_recovery(tmp_path: Path) -> None:
    backup = tmp_path / f"{BACKUP_PREFIX}{secrets.token_hex(6)}-a.txt"
    backup.write_bytes(b"the old bytes\n")
    write_atomic(tmp_path / "a.txt", b"x")
    assert backup.read_bytes() == b"the old bytes\n"


@pytest.mark.parametrize("name", ["n" * 250 + ".txt", "é" * 125 + ".md"])
def test_a_long_name_can_be_written_and_its_temp_name_fits(tmp_path: Path, name: str) -> None:
    assert len(os.fsencode(temp_name(name, 10**9))) == 255
    write_atomic(tmp_path / name, b"data\n")
    write_atomic(tmp_path / name, b"more\n")
    assert (tmp_path / name).read_bytes() == b"more\n" and temps(tmp_path) == []
