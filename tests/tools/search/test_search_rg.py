"""Finding and running ripgrep: lookup order, missing rg, time limit, cancellation."""

from __future__ import annotations

import os
import stat
import sys
import time
from pathlib import Path

import anyio
import pytest

from hands.tools.search import _rg as rg_module
from hands.tools.search._rg import INSTALL_HINT, RgRun, locate_rg, rg_path, run_rg


def fake_rg(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    exe = directory / "rg"
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return exe


def test_rg_beside_python_comes_first(tmp_path: Path) -> None:
    beside = fake_rg(tmp_path / "venv" / "bin")
    on_path = fake_rg(tmp_path / "usr" / "bin")
    python = str(tmp_path / "venv" / "bin" / "python")
    assert locate_rg(python=python, path_env=str(on_path.parent), env={}) == beside
    # USE_BUILTIN_RIPGREP=0 prefers the system's rg.
    env = {"USE_BUILTIN_RIPGREP": "0"}
    assert locate_rg(python=python, path_env=str(on_path.parent), env=env) == on_path


def test_rg_on_path_when_none_beside_python(tmp_path: Path) -> None:
    on_path = fake_rg(tmp_path / "usr" / "bin")
    python = str(tmp_path / "empty" / "python")
    assert locate_rg(python=python, path_env=str(on_path.parent), env={}) == on_path
    assert locate_rg(python=python, path_env=str(tmp_path / "nowhere"), env={}) is None


def test_the_installed_wheel_is_found() -> None:
    found = rg_path()
    assert found == Path(sys.executable).parent / "rg" or found.name == "rg"


def test_missing_rg_is_a_clear_error(search, monkeypatch: pytest.MonkeyPatch) -> None:
    search.write({"a.txt": "x\n"})
    monkeypatch.setattr(rg_module, "_cached_rg", None)
    monkeypatch.setattr(rg_module, "locate_rg", lambda: None)
    for name in ("Grep", "Glob"):
        text = search.err(name, pattern="x")
        assert text == INSTALL_HINT
        assert "pip install ripgrep==14.1.0" in text


def _rg_processes_mentioning(marker: str) -> list[int]:
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in cmdline and b"rg" in cmdline.split(b"\0")[0]:
            found.append(int(entry.name))
    return found


needs_fifo = pytest.mark.skipif(
    not hasattr(os, "mkfifo") or not Path("/proc").is_dir(), reason="needs FIFOs and /proc"
)


@needs_fifo
def test_cancellation_kills_rg(tmp_path: Path) -> None:
    fifo = tmp_path / "blocking-fifo"
    os.mkfifo(fifo)  # rg blocks reading it: nobody ever writes

    async def go() -> None:
        with anyio.move_on_after(0.5):
            await run_rg(["--no-config", "x", str(fifo)], cwd=tmp_path, time_limit=60)
            raise AssertionError("rg returned although it should block")

    started = time.monotonic()
    anyio.run(go)
    assert time.monotonic() - started < 5
    assert _rg_processes_mentioning(str(fifo)) == []


def test_grep_time_limit_stops_the_search_and_says_so(
    search, monkeypatch: pytest.MonkeyPatch
) -> None:
    search.write({f"d{i}/f{j}.txt": "x\n" * 50 for i in range(20) for j in range(20)})
    monkeypatch.setenv("HANDS_GREP_TIMEOUT_SECONDS", "0.000001")  # over before rg is done
    text = search.ok("Grep", pattern="x", output_mode="content")
    assert "stopped after 1e-06 s" in text
    assert "incomplete" in text
    assert _rg_processes_mentioning(str(search.root)) == []


@needs_fifo
def test_grep_refuses_a_fifo_or_device_at_once(search) -> None:
    os.mkfifo(search.root / "pipe")
    started = time.monotonic()
    text = search.err("Grep", pattern="x", path="pipe")
    assert time.monotonic() - started < 5
    assert "named pipe (FIFO)" in text and "not a file or directory" in text
    assert "character device" in search.err("Grep", pattern="x", path="/dev/zero")
    assert _rg_processes_mentioning(str(search.root / "pipe")) == []


def test_files_rg_cannot_read_are_not_a_failed_search(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("needle\n")

    async def go() -> RgRun:
        args = ["--no-config", "nothing-matches-this", ".", "missing.txt"]
        return await run_rg(args, cwd=tmp_path, time_limit=30)

    run = anyio.run(go)
    assert run.returncode == 2
    assert len(run.unreadable) == 1 and "missing.txt" in run.unreadable[0]
    assert not run.failed  # a.txt was searched; the answer is "no match", not an error


def test_a_bad_pattern_still_fails(tmp_path: Path) -> None:
    async def go() -> RgRun:
        return await run_rg(["--no-config", "(", "."], cwd=tmp_path, time_limit=30)

    run = anyio.run(go)
    assert run.failed
    assert run.unreadable == ()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_grep_notes_unreadable_files_beside_the_results(search) -> None:
    search.write({"a.txt": "needle\n", "locked.txt": "needle\n"})
    (search.root / "locked.txt").chmod(0)
    text = search.ok("Grep", pattern="needle", output_mode="content")
    assert "a.txt" in text
    assert "1 file could not be read" in text and "locked.txt" in text


def test_multiline_refuses_a_file_too_large_to_hold(search) -> None:
    big = search.root / "big.log"
    with big.open("wb") as f:
        f.truncate(65 << 20)  # sparse: costs no disk
    text = search.err("Grep", pattern="a\\nb", path="big.log", multiline=True)
    assert "multiline" in text and "64 MB" in text
    assert search.ok("Grep", pattern="a", path="big.log").startswith("No file contains a match.")
