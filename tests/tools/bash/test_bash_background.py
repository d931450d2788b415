"""Background tasks: start, read, stop, session end."""

from __future__ import annotations

import re
import time
from pathlib import Path

import anyio
import pytest

from hands.core.inbox import Inbox
from hands.tools.bash.bash import BashOutput
from tools.bash.kit import alive, text

pytestmark = pytest.mark.anyio


async def start(h, command: str) -> tuple[str, Path]:
    out = await h.bash(command, run_in_background=True)
    assert not out.is_error, text(out)
    output = out.output
    assert isinstance(output, BashOutput)
    assert output.background_task_id is not None and output.output_path is not None
    assert text(out).startswith(
        f"Started in the background as task {output.background_task_id}; its output goes "
        f"to {output.output_path}. A notice comes into this conversation when it ends"
    )
    return output.background_task_id, Path(output.output_path)


async def notices(h, count: int = 1) -> list[str]:
    """The notices the main agent got, once ``count`` are waiting."""
    inbox = h.session.service(Inbox)
    with anyio.fail_after(10):
        while len(inbox.peek(None)) < count:
            await inbox.wait(None)
            if len(inbox.peek(None)) < count:
                await anyio.sleep(0.01)
    return inbox.take(None)


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
    assert path.read_text() == "one\ntwo\n[hands: exit code 0]\n"


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


# -- how a task ends: the notice and the output file's last line ----------------------


async def test_an_ended_task_leaves_a_notice_with_its_exit_status(harness):
    h = harness()
    task_id, path = await start(h, "sleep 0.3; echo oops; exit 4")
    assert h.session.service(Inbox).outstanding(None)  # a print-mode run waits for it
    [notice] = await notices(h)
    assert notice.startswith("<task-notification>\n") and notice.endswith("</task-notification>")
    assert f"<task-id>{task_id}</task-id>" in notice
    assert "<tool-use-id>toolu_1</tool-use-id>" in notice
    assert "<status>failed</status>" in notice and "(exit code 4)" in notice
    assert f"<output-file>{path}</output-file>" in notice
    assert not h.session.service(Inbox).outstanding(None)
    assert path.read_text() == "oops\n[hands: exit code 4]\n"


async def test_a_background_timeout_stops_the_task_at_that_time(harness, tmp_path):
    h = harness()
    pidfile = tmp_path / "child"
    began = time.monotonic()
    out = await h.bash(
        f"sleep 30 & echo $! > {pidfile}; printf partial; wait", run_in_background=True, timeout=400
    )
    assert "if it runs 0.4s it is stopped" in text(out)
    [notice] = await notices(h)
    assert time.monotonic() - began < 5
    assert "<status>killed</status>" in notice and "0.4s time limit" in notice
    assert "larger timeout" in notice  # what to do about it
    path = Path(notice.split("<output-file>")[1].split("</output-file>")[0])
    assert path.read_text() == (
        "partial\n[hands: stopped: it was still running at its 0.4s time limit]\n"
    )
    assert not alive(int(pidfile.read_text()))


async def test_a_task_stopped_with_task_stop_says_so_in_its_file_but_sends_no_notice(harness):
    h = harness()
    task_id, path = await start(h, "echo started; sleep 30")
    with anyio.fail_after(5):
        while "started" not in path.read_text():
            await anyio.sleep(0.02)
    await h.call("TaskStop", task_id=task_id)
    inbox = h.session.service(Inbox)
    with anyio.fail_after(5):
        while inbox.outstanding(None):
            await anyio.sleep(0.02)
    assert inbox.take(None) == []
    assert path.read_text() == "started\n[hands: stopped with TaskStop]\n"


async def test_session_end_writes_each_tasks_last_line(harness):
    h = harness()
    _, path = await start(h, "sleep 30")
    await h.session.aclose()
    assert path.read_text() == "[hands: stopped: the session ended]\n"
    assert h.session.service(Inbox).take(None) == []


async def test_bash_output_with_a_filter_shows_only_matching_lines(harness) -> None:
    h = harness()
    started = await h.bash("printf 'ok 1\\nbad 2\\nok 3\\n'", run_in_background=True)
    task_id = started.output.background_task_id
    out = await h.call("BashOutput", bash_id=task_id, filter="^ok", timeout=5000)
    assert not out.is_error, text(out)
    body = text(out).split("<output>\n", 1)[1]
    assert body.startswith("ok 1\nok 3\n[") and "bad 2" not in body
    # the task's other lines (its own and any notes the shell prints) are counted
    count = re.search(r"\[(\d+) of (\d+) new lines did not match the filter\]", body)
    assert count is not None and int(count[2]) - int(count[1]) == 2
    again = await h.call("BashOutput", bash_id=task_id, filter="bad")
    assert "(no new output)" in text(again)  # the filtered-out lines were read too
    wrong = await h.call("BashOutput", bash_id=task_id, filter="(unclosed")
    assert wrong.is_error and "not a valid regular expression" in text(wrong)
