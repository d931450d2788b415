"""Background tasks: start, read, stop, session end."""

from __future__ import annotations

import time
from pathlib import Path

import anyio
import pytest

from hands.tools.bash.bash import BashOutput
from tools.bash.kit import alive, text

pytestmark = pytest.mark.anyio


async def start(h, command: str) -> tuple[str, Path]:
    out = await h.bash(command, run_in_background=True)
    assert not out.is_error, text(out)
    output = out.output
    assert isinstance(output, BashOutput)
    assert output.background_task_id is not None and output.output_path is not None
    assert text(out) == (
        f"Command running in background with ID: {output.background_task_id}. "
        f"Output is being written to: {output.output_path}"
    )
    return output.background_task_id, Path(output.output_path)


async def test_background_returns_at_once_and_output_is_read_incrementally(harness):
    h = harness()
    began = time.monotonic()
    task_id, path = await start(h, "echo one; sleep 2; echo two")
    assert time.monotonic() - began < 1.5  # did not wait for the 2 s command
    first = await h.call("TaskOutput", task_id=task_id, block=False)
    assert "<status>running</status>" in text(first)
    done = await h.call("TaskOutput", task_id=task_id, block=True, timeout=5000)
    assert "<status>completed</status>" in text(done)
    assert "<exit_code>0</exit_code>" in text(done)
    combined = text(first) + text(done)
    assert combined.count("one") == 1 and combined.count("two") == 1
    again = await h.call("TaskOutput", task_id=task_id)
    assert "(no new output)" in text(again)
    assert path.read_text() == "one\ntwo\n"


async def test_legacy_names_and_parameters(harness):
    h = harness()
    task_id, _ = await start(h, "echo legacy")
    out = await h.call("BashOutput", bash_id=task_id, timeout=5000)
    assert "legacy" in text(out)
    stopped = await h.call("KillShell", shell_id=task_id)
    assert not stopped.is_error
    assert "already finished" in text(stopped)


async def test_block_timeout_returns_while_still_running(harness):
    h = harness()
    task_id, _ = await start(h, "sleep 30")
    began = time.monotonic()
    out = await h.call("TaskOutput", task_id=task_id, block=True, timeout=200)
    assert 0.15 < time.monotonic() - began < 2
    assert "<status>running</status>" in text(out)
    await h.call("TaskStop", task_id=task_id)


async def test_stop_kills_the_whole_process_group(harness, tmp_path):
    h = harness()
    pidfile = tmp_path / "pids"
    task_id, _ = await start(h, f"sleep 60 & echo $! > {pidfile}; sleep 60")
    deadline = time.monotonic() + 5
    while not (pidfile.exists() and pidfile.read_text().strip()) and time.monotonic() < deadline:
        await anyio.sleep(0.02)
    pid = int(pidfile.read_text())
    out = await h.call("TaskStop", task_id=task_id)
    assert text(out).startswith(f"Stopped task {task_id}")
    assert not alive(pid)
    status = await h.call("TaskOutput", task_id=task_id, block=False)
    assert "<status>killed</status>" in text(status)


async def test_failed_task_reports_its_exit_code(harness):
    h = harness()
    task_id, _ = await start(h, "echo oops; exit 4")
    out = await h.call("TaskOutput", task_id=task_id, timeout=5000)
    assert "<status>failed</status>" in text(out)
    assert "<exit_code>4</exit_code>" in text(out)


async def test_unknown_id_lists_running_tasks(harness):
    h = harness()
    task_id, _ = await start(h, "sleep 30")
    out = await h.call("TaskOutput", task_id="nope", block=False)
    assert out.is_error
    assert "No background task with id 'nope'" in text(out)
    assert task_id in text(out)
    stop = await h.call("TaskStop", task_id="nope")
    assert stop.is_error and task_id in text(stop)
    await h.session.aclose()
    empty = await h.call("TaskStop", task_id="nope")
    assert "No background tasks are running" in text(empty)


async def test_session_end_kills_every_task(harness, tmp_path):
    h = harness()
    pids = []
    for i in range(3):
        pidfile = tmp_path / f"p{i}"
        await start(h, f"sleep 60 & echo $! > {pidfile}; wait")
        pids.append(pidfile)
    deadline = time.monotonic() + 5
    while not all(p.exists() and p.read_text().strip() for p in pids):
        assert time.monotonic() < deadline
        await anyio.sleep(0.02)
    numbers = [int(p.read_text()) for p in pids]
    await h.session.aclose()
    assert not any(alive(n) for n in numbers)


async def test_background_output_starts_in_the_carried_cwd(harness, tmp_path):
    (tmp_path / "sub").mkdir()
    h = harness()
    await h.bash("cd sub")
    task_id, _ = await start(h, "pwd")
    out = await h.call("TaskOutput", task_id=task_id, timeout=5000)
    assert str(tmp_path / "sub") in text(out)


def test_task_tools_flags():
    from hands.tools.bash.task_output import TaskOutputInput, TaskOutputTool
    from hands.tools.bash.task_stop import TaskStopInput, TaskStopTool

    assert TaskOutputTool().is_read_only(TaskOutputInput(task_id="x"))
    assert TaskOutputTool().is_concurrency_safe(TaskOutputInput(task_id="x"))
    assert not TaskStopTool().is_read_only(TaskStopInput(task_id="x"))
    assert TaskStopTool().user_facing_name() == "Stop Task"
