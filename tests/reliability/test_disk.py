"""Part 4: a full disk, no permission, a read-only file system, a file turned directory.

Every change must end in an error that names the cause, the file as it was, and no
temporary file beside it.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands.core.context import ToolContext
from hands.core.messages import ToolUseBlock
from hands.core.outcome import ToolCallOutcome
from hands.core.session import Session
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool, all_base_tools
from hands.pipeline.runtime import ToolRuntime

from .kit import REPORT, temp_file_violations

NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "id": "c0",
            "metadata": {},
            "outputs": [],
            "execution_count": None,
            "source": "x = 1\n",
        }
    ],
    "metadata": {},
    "nbformat": 4,
    "nbformat_minor": 5,
}


class Calls:
    """Calls through the whole pipeline in one session rooted at ``root``."""

    def __init__(self, root: Path, home: Path) -> None:
        self.ctx = ToolContext(
            cwd=root, session=Session(home=home), project_dir=root, permission_mode="acceptEdits"
        )
        self.runtime = ToolRuntime(tools=ToolPool(all_base_tools()))
        self.n = 0

    def __call__(self, name: str, **data: Any) -> ToolCallOutcome:
        self.n += 1
        block = ToolUseBlock(id=f"toolu_{self.n}", name=name, input=data)

        async def go() -> ToolCallOutcome:
            return await run_tool_use(
                block, self.ctx.for_call(block.id), self.runtime, lambda _d: None
            )

        return anyio.run(go)


def changes(directory: Path) -> list[tuple[str, dict[str, Any]]]:
    """One call of each editing tool that makes its file larger."""
    a, nb = str(directory / "a.txt"), str(directory / "nb.ipynb")
    big = "z" * 700_000
    return [
        ("Write", {"file_path": a, "content": big}),
        ("Edit", {"file_path": a, "old_string": "alpha", "new_string": big}),
        ("MultiEdit", {"file_path": a, "edits": [{"old_string": "alpha", "new_string": big}]}),
        ("NotebookEdit", {"notebook_path": nb, "cell_id": "c0", "new_source": big}),
        ("Write", {"file_path": str(directory / "new.txt"), "content": big}),
    ]


def fill(directory: Path) -> None:
    (directory / "a.txt").write_text("alpha\n" + ("a" * 130 + "\n") * 300)
    (directory / "nb.ipynb").write_text(json.dumps(NOTEBOOK))


def check_all_refused(directory: Path, calls: Calls, cause: tuple[str, ...], row: str) -> None:
    before = {p.name: p.read_bytes() for p in directory.iterdir() if p.is_file()}
    calls("Read", file_path=str(directory / "a.txt"))
    calls("Read", file_path=str(directory / "nb.ipynb"))
    problems: list[str] = []
    report = REPORT.row(row)
    for name, data in changes(directory):
        outcome = calls(name, **data)
        report.runs += 1
        report.faults += 1
        text = outcome.block.text
        if not outcome.is_error:
            problems.append(f"{name} succeeded")
        elif not any(c.lower() in text.lower() for c in cause):
            problems.append(f"{name}: the error does not name the cause: {text[:200]!r}")
        if "Traceback" in text:
            problems.append(f"{name}: traceback in {text[:200]!r}")
        now = {
            p.name: p.read_bytes()
            for p in directory.iterdir()
            if p.is_file() and not p.name.startswith(".hands-")
        }
        if now != before:
            problems.append(f"{name}: the files changed: {sorted(set(now) ^ set(before))}")
        problems += [f"{name}: {v}" for v in temp_file_violations(directory)]
    report.violations += problems
    assert not problems, "\n".join(problems)


@contextlib.contextmanager
def tmpfs(path: Path, size: str) -> Iterator[bool]:
    path.mkdir()
    mounted = (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True
        ).returncode
        == 0
    )
    try:
        yield mounted
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(path)], check=False)


@contextlib.contextmanager
def file_size_limit(limit: int) -> Iterator[None]:
    old = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of a kill
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, old[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old)
        signal.signal(signal.SIGXFSZ, handler)


def test_a_full_disk(tmp_path: Path, hands_home: Path) -> None:
    with tmpfs(tmp_path / "disk", "600k") as mounted:
        disk = tmp_path / "disk"
        fill(disk)
        calls = Calls(disk, hands_home)
        if mounted:
            check_all_refused(disk, calls, ("No space left",), "disk: ENOSPC (tmpfs)")
        else:  # no mount here: a file-size limit gives EFBIG at the same place
            with file_size_limit(400_000):
                check_all_refused(
                    disk, calls, ("too large", "File too large"), "disk: EFBIG (RLIMIT_FSIZE)"
                )


def test_a_read_only_file_system(tmp_path: Path, hands_home: Path) -> None:
    source, view = tmp_path / "src", tmp_path / "ro"
    source.mkdir()
    view.mkdir()
    fill(source)
    bound = (
        subprocess.run(["mount", "--bind", str(source), str(view)], capture_output=True).returncode
        == 0
    )
    if not bound:
        pytest.skip("bind mounts are not allowed here")
    try:
        assert subprocess.run(["mount", "-o", "remount,bind,ro", str(view)]).returncode == 0
        check_all_refused(
            view,
            Calls(view, hands_home),
            ("Read-only file system",),
            "disk: EROFS (read-only bind mount)",
        )
    finally:
        subprocess.run(["umount", "-l", str(view)], check=False)


WITHOUT_OVERRIDE = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner"]
"""Root without the capabilities that let it write files whose mode says no."""
RESTRICTED = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    sys.path[:0] = [sys.argv[2], str(Path(sys.argv[2]).parent)]
    from reliability.test_disk import Calls, changes
    root = Path(sys.argv[1])
    calls = Calls(root, Path(sys.argv[3]))
    calls("Read", file_path=str(root / "a.txt"))
    calls("Read", file_path=str(root / "nb.ipynb"))
    out = []
    for name, data in changes(root):
        o = calls(name, **data)
        out.append([name, o.is_error, o.block.text[:300]])
    print(json.dumps(out))
    """
)


def test_no_permission(tmp_path: Path) -> None:
    work, home = tmp_path / "locked", tmp_path / "home"
    work.mkdir()
    home.mkdir()
    fill(work)
    for p in work.iterdir():
        p.chmod(0o444)
    work.chmod(0o555)  # no file may be created here, and none changed
    before = {p.name: p.read_bytes() for p in work.iterdir()}
    proc = subprocess.run(
        [
            *(WITHOUT_OVERRIDE if os.getuid() == 0 else []),
            sys.executable,
            "-c",
            RESTRICTED,
            str(work),
            str(Path(__file__).parents[1]),
            str(home),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HANDS_HOME": str(home)},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = json.loads(proc.stdout.splitlines()[-1])
    row = REPORT.row("disk: EACCES (read-only modes)")
    problems: list[str] = []
    for name, is_error, text in results:
        row.runs += 1
        row.faults += 1
        if not is_error:
            problems.append(f"{name} succeeded")
        elif "permission denied" not in text.lower():
            problems.append(f"{name}: the error does not name the cause: {text[:200]!r}")
    if {p.name: p.read_bytes() for p in work.iterdir()} != before:
        problems.append("the files changed")
    problems += temp_file_violations(work)
    work.chmod(0o755)
    row.violations += problems
    assert not problems, "\n".join(problems)


def test_a_file_replaced_by_a_directory_after_it_was_read(tmp_path: Path, hands_home: Path) -> None:
    work = tmp_path / "w"
    work.mkdir()
    fill(work)
    calls = Calls(work, hands_home)
    row = REPORT.row("disk: file replaced by a directory")
    problems: list[str] = []
    for name, data in changes(work)[:4]:
        fill(work)
        calls("Read", file_path=str(work / "a.txt"))
        calls("Read", file_path=str(work / "nb.ipynb"))
        target = work / ("nb.ipynb" if name == "NotebookEdit" else "a.txt")
        target.unlink()
        target.mkdir()
        (target / "inside").write_text("kept\n")
        outcome = calls(name, **data)
        row.runs += 1
        row.faults += 1
        text = outcome.block.text
        if not outcome.is_error:
            problems.append(f"{name} succeeded")
        elif "director" not in text.lower():
            problems.append(f"{name}: the error does not say it is a directory: {text[:200]!r}")
        if not target.is_dir() or (target / "inside").read_text() != "kept\n":
            problems.append(f"{name}: the directory was changed")
        problems += [f"{name}: {v}" for v in temp_file_violations(work)]
        (target / "inside").unlink()
        target.rmdir()
    row.violations += problems
    assert not problems, "\n".join(problems)
