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
from hands.tools.search._rg import INSTALL_HINT, locate_rg, rg_path, run_rg


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


@needs_fifo
def test_grep_time_limit_stops_a_blocked_search(search, monkeypatch: pytest.MonkeyPatch) -> None:
    search.write({"a.txt": "x\n"})
    os.mkfifo(search.root / "pipe")
    monkeypatch.setenv("HANDS_GREP_TIMEOUT_SECONDS", "0.5")
    started = time.monotonic()
    text = search.ok("Grep", pattern="x", path="pipe", output_mode="content")
    assert time.monotonic() - started < 5
    assert text.startswith("No matches found")
    assert "stopped after 0.5 s" in text
    assert _rg_processes_mentioning(str(search.root / "pipe")) == []
