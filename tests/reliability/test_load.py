"""Part 5: many sessions at once in one process, many processes at once, and a leak check.

Each session works on its own temp project for 20 turns of Read, Grep, Edit, Bash and a
no-op tool (whose time from tool_use to result is the pipeline's own overhead). Nothing
may leak from one session to another: each Bash sees its own directory, each read-state
holds only its own files. Times are reported, never asserted (the machine is shared);
memory growth over sequential sessions is asserted.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands import QueryOptions, query, tool
from hands.agent.events import BlockEvent, ResultEvent
from hands.core.session import Session
from hands.orchestration.events import ToolResultEvent
from hands.pipeline.pool import assemble_pool
from hands.testing import ScriptedModel
from hands.tools.file._state import ReadStateCache

from .kit import REPORT, peak_rss_kb, rss_kb, scale


@tool(read_only=True)
def noop(n: int) -> str:
    """Do nothing (measures the pipeline around a call)."""
    return str(n)


def script(project: Path, turns: int) -> list[list[dict[str, Any]]]:
    out: list[list[dict[str, Any]]] = []
    a = str(project / "a.txt")
    for t in range(turns):
        kind = t % 5
        if kind == 0:
            blocks = [
                {"type": "tool_use", "name": "Read", "input": {"file_path": a}},
                {"type": "tool_use", "name": "noop", "input": {"n": t}},
            ]
        elif kind == 1:
            blocks = [
                {
                    "type": "tool_use",
                    "name": "Grep",
                    "input": {"pattern": f"line {t}", "path": str(project)},
                },
                {"type": "tool_use", "name": "noop", "input": {"n": t}},
            ]
        elif kind == 2:
            blocks = [
                {
                    "type": "tool_use",
                    "name": "Edit",
                    "input": {
                        "file_path": a,
                        "old_string": f"line {t}\n",
                        "new_string": f"LINE {t}\n",
                    },
                }
            ]
        elif kind == 3:
            command = "cd sub && pwd" if t == 3 else "pwd"
            blocks = [{"type": "tool_use", "name": "Bash", "input": {"command": command}}]
        else:
            blocks = [{"type": "tool_use", "name": "noop", "input": {"n": t}}]
        out.append(blocks)
    out.append([{"type": "text", "text": "done"}])
    return out


def make_project(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "a.txt").write_text("".join(f"line {i}\n" for i in range(200)))
    (root / "sub").mkdir()
    return root.resolve()


async def one_session(project: Path, turns: int, overhead_ms: list[float]) -> list[str]:
    """Run a session; return what went wrong (leaks, errors)."""
    model = ScriptedModel.from_turns(*script(project, turns))
    session = Session()
    q = query(
        "go",
        QueryOptions(
            model=model,
            tools=assemble_pool(extra=[noop]),
            cwd=project,
            permission_mode="acceptEdits",
            session=session,
            policy=None,
            stream_retry_delay_s=0,
        ),
    )
    problems: list[str] = []
    asked: dict[str, float] = {}
    with anyio.fail_after(600):
        async for event in q:
            if isinstance(event, BlockEvent) and event.block.type == "tool_use":
                asked[event.block.id] = time.perf_counter()  # type: ignore[union-attr]
            elif isinstance(event, ToolResultEvent):
                if event.tool_use.name == "noop":
                    overhead_ms.append((time.perf_counter() - asked[event.tool_use.id]) * 1000)
                text = event.outcome.block.text
                if event.outcome.is_error:
                    problems.append(f"{event.tool_use.name} failed: {text[:160]}")
                elif event.tool_use.name == "Bash" and text.strip() not in (
                    str(project),
                    str(project / "sub"),
                ):
                    problems.append(f"Bash ran in {text.strip()!r}, not in {project}")
            elif isinstance(event, ResultEvent) and event.subtype != "success":
                problems.append(f"ended {event.subtype}: {event.error}")
    for key in json.dumps(session.service(ReadStateCache).snapshot()).split('"'):
        if key.startswith("/") and not key.startswith(str(project)):
            problems.append(f"read-state of another project: {key}")
    return problems


@pytest.mark.timeout(0)
def test_concurrent_sessions_in_one_process(tmp_path: Path) -> None:
    count, turns = scale("concurrent_sessions"), scale("session_turns")
    projects = [make_project(tmp_path / f"p{i}") for i in range(count)]
    overhead: list[float] = []
    problems: list[str] = []
    gc.collect()
    base = rss_kb()
    peak = [base]
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], rss_kb())
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()

    async def main() -> None:
        async def run(p: Path) -> None:
            problems.extend(f"{p.name}: {x}" for x in await one_session(p, turns, overhead))

        async with anyio.create_task_group() as tg:
            for p in projects:
                tg.start_soon(run, p)

    started = time.perf_counter()
    anyio.run(main)
    stop.set()
    sampler.join()
    row = REPORT.row(f"load: {count} sessions at once, one process")
    row.runs = count
    row.timings_ms = overhead
    row.peak_rss_kb = (peak[0] - base) / count
    row.violations += problems
    p50, p99 = row.percentile(50) or 0.0, row.percentile(99) or 0.0
    row.note = (
        f"{count * turns} turns in {time.perf_counter() - started:.0f} s; per-call "
        f"overhead p99/p50 {p99 / max(p50, 1e-9):.1f}; RSS column: per session"
    )
    for p in projects:  # every session's edits landed in its own project only
        text = (p / "a.txt").read_text()
        if "LINE 2\n" not in text:
            problems.append(f"{p.name}: its Edit did not land")
    assert not problems, "\n".join(problems[:10])


@pytest.mark.timeout(0)
def test_processes_at_once(tmp_path: Path) -> None:
    count, turns = scale("processes"), scale("session_turns")
    procs: list[tuple[Path, subprocess.Popen[str]]] = []
    started = time.perf_counter()
    for i in range(count):
        project = make_project(tmp_path / f"p{i}")
        turn_list = [
            [b for b in t if b.get("name") != "noop"]
            or [{"type": "tool_use", "name": "Glob", "input": {"pattern": "*.txt"}}]
            for t in script(project, turns)[:-1]
        ]
        turn_list.append([{"type": "text", "text": "done"}])
        path = tmp_path / f"s{i}.json"
        path.write_text(json.dumps({"turns": [{"blocks": t} for t in turn_list]}))
        home = tmp_path / f"h{i}"
        procs.append(
            (
                project,
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "hands",
                        "-p",
                        "go",
                        "--model",
                        f"scripted:{path}",
                        "--cwd",
                        str(project),
                        "--permission-mode",
                        "acceptEdits",
                        "--output-format",
                        "json",
                    ],
                    env={**os.environ, "HANDS_HOME": str(home)},
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                ),
            )
        )
    peaks: dict[int, int] = {}
    while any(p.poll() is None for _, p in procs):
        for _, p in procs:
            if p.poll() is None:
                try:
                    peaks[p.pid] = max(peaks.get(p.pid, 0), peak_rss_kb(p.pid))
                except (OSError, ValueError):
                    pass
        time.sleep(0.2)
        if time.perf_counter() - started > 900:
            break
    problems: list[str] = []
    for project, p in procs:
        try:
            out, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            problems.append(f"{project.name}: did not finish")
            continue
        if p.returncode != 0:
            problems.append(f"{project.name}: exit {p.returncode}: {err[-300:]}")
            continue
        result = json.loads(out)
        if result.get("subtype") != "success":
            problems.append(f"{project.name}: {result.get('subtype')}")
        if "LINE 2\n" not in (project / "a.txt").read_text():
            problems.append(f"{project.name}: its Edit did not land")
    row = REPORT.row(f"load: {count} hands -p processes at once")
    row.runs = count
    row.peak_rss_kb = max(peaks.values()) if peaks else None
    row.violations += problems
    row.note = f"all done in {time.perf_counter() - started:.0f} s; RSS column: largest process"
    assert not problems, "\n".join(problems[:10])


@pytest.mark.timeout(0)
def test_sequential_sessions_do_not_leak(tmp_path: Path) -> None:
    count = scale("sequential_sessions")
    warmup = min(50, count // 5)
    overhead: list[float] = []
    problems: list[str] = []
    marks: list[int] = []

    async def main() -> None:
        for i in range(count):
            project = make_project(tmp_path / f"p{i}")
            problems.extend(await one_session(project, 10, overhead))
            if i + 1 == warmup or i + 1 == count:
                gc.collect()
                marks.append(rss_kb())

    anyio.run(main)
    growth_kb = (marks[-1] - marks[0]) / max(1, count - warmup)
    row = REPORT.row(f"load: {count} sequential sessions")
    row.runs = count
    row.timings_ms = overhead
    row.peak_rss_kb = peak_rss_kb()
    row.note = f"RSS growth {growth_kb:.1f} KB per session after {warmup} (goal < 1024)"
    row.violations += problems
    if growth_kb >= 1024:
        row.violations.append(f"RSS grew {growth_kb:.0f} KB per session")
    assert not row.violations, "\n".join(row.violations[:10])
