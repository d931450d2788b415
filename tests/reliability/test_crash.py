"""Part 3: ``kill -9`` of the whole ``hands -p`` process while it edits large files.

Each tool gets a session that reads a large file, then changes it several times in a
row. The file's every state (before, and after each call) is known from a run without a
kill; after a kill at a random moment the file must be one of them, byte for byte. The
transcript (which also holds the read-state snapshots) must have at most a torn last
line, and a session going on with it must lose nothing else.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands.agent.transcript import TranscriptWriter, load
from hands.core.context import ToolContext
from hands.core.messages import ToolUseBlock, user_text
from hands.core.session import Session
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool, all_base_tools
from hands.pipeline.runtime import ToolRuntime
from hands.tools.file._atomic import BACKUP_PREFIX, TEMP_PREFIX

from .kit import REPORT, base_seed, scale
from .workers import worker_count

STEPS = 8
LINES = 120_000  # about 4 MB


def make_files(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    body = "".join(f"line {i} of a large file\n" for i in range(LINES))
    (root / "a.txt").write_text("MARK0\n" + body + "TAIL0\n")
    cells = [
        {
            "cell_type": "code",
            "id": f"c{i}",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": f"x = {i}\n" * 3,
        }
        for i in range(300)
    ]
    nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (root / "nb.ipynb").write_text(json.dumps(nb, indent=1))


def steps(tool: str, root: Path) -> tuple[str, list[dict[str, Any]]]:
    """The file a session changes and its calls: a read, then STEPS changes."""
    a, nb = str(root / "a.txt"), str(root / "nb.ipynb")
    if tool == "NotebookEdit":
        calls = [{"name": "Read", "input": {"file_path": nb}}] + [
            {
                "name": "NotebookEdit",
                "input": {
                    "notebook_path": nb,
                    "cell_id": "c0",
                    "new_source": f"version {i}\n" * 50,
                },
            }
            for i in range(1, STEPS + 1)
        ]
        return "nb.ipynb", calls
    if tool == "Write":  # a new file, then the model's own: no Read needed
        w = str(root / "w.txt")
        return "w.txt", [
            {
                "name": "Write",
                "input": {
                    "file_path": w,
                    "content": "".join(f"row {j} v{i}\n" for j in range(LINES)),
                },
            }
            for i in range(1, STEPS + 1)
        ]
    calls = [{"name": "Read", "input": {"file_path": a, "limit": 5}}]
    for i in range(1, STEPS + 1):
        if tool == "Edit":
            mark = f"MARK{i - 1}"
            calls.append(
                {
                    "name": "Edit",
                    "input": {"file_path": a, "old_string": mark, "new_string": f"MARK{i}"},
                }
            )
        else:
            calls.append(
                {
                    "name": "MultiEdit",
                    "input": {
                        "file_path": a,
                        "edits": [
                            {"old_string": f"MARK{i - 1}", "new_string": f"MARK{i}"},
                            {"old_string": f"TAIL{i - 1}", "new_string": f"TAIL{i}"},
                        ],
                    },
                }
            )
    return "a.txt", calls


def versions(tool: str, root: Path, home: Path) -> list[bytes | None]:
    """Every state the file goes through, from the same calls run without a kill."""
    make_files(root)
    name, calls = steps(tool, root)
    target = root / name
    ctx = ToolContext(cwd=root, session=Session(home=home), permission_mode="acceptEdits")
    runtime = ToolRuntime(tools=ToolPool(all_base_tools()))
    seen = [contents(target)]

    async def go() -> None:
        for n, call in enumerate(calls):
            block = ToolUseBlock(id=f"toolu_{n}", name=call["name"], input=call["input"])
            outcome = await run_tool_use(block, ctx.for_call(block.id), runtime, lambda _d: None)
            assert not outcome.is_error, outcome.block.text
            if seen[-1] != contents(target):
                seen.append(contents(target))

    anyio.run(go)
    assert len(seen) == STEPS + 1
    return seen


def contents(path: Path) -> bytes | None:
    """The file's bytes; None while it does not exist."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def start(tool: str, root: Path, home: Path) -> subprocess.Popen[bytes]:
    make_files(root)
    _, calls = steps(tool, root)
    script = root.parent / f"{root.name}-script.json"
    turns = [{"blocks": [{"type": "tool_use", **c}]} for c in calls]
    turns.append({"blocks": [{"type": "text", "text": "done"}]})
    script.write_text(json.dumps({"turns": turns}))
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "hands",
            "-p",
            "go",
            "--model",
            f"scripted:{script}",
            "--cwd",
            str(root),
            "--permission-mode",
            "acceptEdits",
        ],
        env={**os.environ, "HANDS_HOME": str(home)},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def transcript_problems(home: Path) -> list[str]:
    found = list((home / "projects").glob("*/*.jsonl"))
    if not found:
        return []  # killed before the first message was written
    path = found[0]
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    problems: list[str] = []
    complete, tail = lines[:-1], lines[-1]
    for n, line in enumerate(complete, 1):
        try:
            json.loads(line)
        except ValueError:
            problems.append(f"transcript line {n} of {len(complete)} is corrupt")
    before = load(path)
    # a session going on with it (--resume) must read back all it appends
    writer = TranscriptWriter(path, session_id=path.stem, cwd=home)
    writer.message(user_text("resumed"))
    after = load(path)
    if after.skipped > (1 if tail else 0):
        problems.append(f"after a resume {after.skipped} transcript lines are unreadable")
    if [m.text for m in after.messages][-1:] != ["resumed"] or len(after.messages) < len(
        before.messages
    ):
        problems.append("the transcript lost messages after a resume")
    return problems


@dataclass(frozen=True, kw_only=True)
class Trial:
    """What one kill found."""

    delay_s: float
    changed: bool
    temps: list[str]
    problems: list[str]


def trial(tool: str, base: Path, n: int, delay_s: float, states: list[bytes | None]) -> Trial:
    """Start a session, kill it ``delay_s`` later, and check what it left."""
    root, home = base / f"t{n}", base / f"t{n}-home"
    name = steps(tool, base)[0]
    proc = start(tool, root, home)
    time.sleep(delay_s)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()
    now = contents(root / name)
    temps = [p.name for p in root.iterdir() if p.name.startswith((TEMP_PREFIX, BACKUP_PREFIX))]
    problems: list[str] = []
    leftovers = [t for t in temps if t.startswith(TEMP_PREFIX)]
    # a temp file has a name only between its link and its rename (Linux cannot put a
    # nameless file in place of a name): a kill there leaves one, holding a whole state
    if len(leftovers) > 1 or any(contents(root / t) not in states for t in leftovers):
        problems.append(f"trial {n}: temp files left by a kill at {delay_s:.2f} s: {temps}")
    if now not in states:
        size = "missing" if now is None else f"{len(now)} bytes"
        problems.append(
            f"trial {n}: {name} is none of its {len(states)} states "
            f"({size}) after a kill at {delay_s:.2f} s"
        )
    problems += [f"trial {n}: {p}" for p in transcript_problems(home)]
    shutil.rmtree(root, ignore_errors=True)
    shutil.rmtree(home, ignore_errors=True)
    # the kill landed once the changes had begun
    return Trial(
        delay_s=delay_s, changed=now != states[0] or bool(temps), temps=temps, problems=problems
    )


def session_length(tool: str, base: Path, at_once: int, final: bytes | None) -> float:
    """Seconds a whole session takes with ``at_once`` of them running, as the trials do."""
    started = time.perf_counter()
    procs = [start(tool, base / f"full{i}", base / f"full{i}-home") for i in range(at_once)]
    name = steps(tool, base)[0]
    for i, proc in enumerate(procs):
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err.decode()[-2000:]
        assert contents(base / f"full{i}" / name) == final
    return time.perf_counter() - started


@pytest.mark.timeout(0)
@pytest.mark.parametrize("tool", ["Write", "Edit", "MultiEdit", "NotebookEdit"])
def test_kill_9_leaves_old_or_new_content(tool: str, tmp_path: Path) -> None:
    states = versions(tool, tmp_path / "calibrate", tmp_path / "calibrate-home")
    trials = scale("crash_trials")
    # the trials run in threads (each kills a process of its own); a session mostly
    # computes, so no more at once than there are cores
    at_once = max(1, min(worker_count(), os.cpu_count() or 1, trials))
    # how long a whole session takes here, to spread the kills over it
    length = session_length(tool, tmp_path, at_once, states[-1])
    rng = random.Random(f"{base_seed()}:{tool}")
    delays = [rng.uniform(0.3, 1.0) * length for _ in range(trials)]
    with ThreadPoolExecutor(max_workers=at_once) as pool:
        done = list(pool.map(lambda n: trial(tool, tmp_path, n, delays[n], states), range(trials)))
    row = REPORT.row(f"crash: kill -9 in {tool}")
    row.runs += len(done)
    row.faults += sum(t.changed for t in done)
    row.timings_ms += [t.delay_s * 1000 for t in done]
    row.violations += [p for t in done for p in t.problems]
    left_temp = sum(len(t.temps) for t in done)
    row.note = (
        f"kills spread over {length:.1f} s, {at_once} at once; {left_temp} temp files left by kills"
    )
    assert not row.violations, "\n".join(row.violations[:10])
