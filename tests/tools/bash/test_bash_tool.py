"""The Bash tool through the whole pipeline, with real processes."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import anyio
import pytest

from hands.core.context import ToolContext
from hands.core.inbox import Inbox
from hands.core.messages import ToolUseBlock
from hands.core.outcome import ToolCallOutcome
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool
from hands.pipeline.runtime import ToolRuntime
from hands.tools.bash._settings import BashSettings
from hands.tools.bash._shells import BackgroundShells
from hands.tools.bash.bash import BashInput, BashOutput, BashTool
from support import render_text as render
from tools.bash.kit import alive, text

pytestmark = pytest.mark.anyio

RG = str(Path(sys.executable).parent / "rg")


async def wait_for_file(path: Path, timeout: float = 5.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return path.read_text().strip()
        await anyio.sleep(0.02)
    raise AssertionError(f"{path} never appeared")


# -- basics ----------------------------------------------------------------------------


async def test_merged_output_and_progress(harness):
    h = harness()
    out = await h.bash("echo one; echo two >&2; echo three")
    assert out.status == "ok"
    assert text(out) == "one\ntwo\nthree"
    assert "".join(h.progress) == "one\ntwo\nthree\n"


async def test_progress_streams_before_the_command_ends(harness):
    h = harness()
    seen_at: list[float] = []

    async def run() -> ToolCallOutcome:
        return await run_tool_use(
            ToolUseBlock(
                id="t", name="Bash", input={"command": "echo early; sleep 0.5; echo late"}
            ),
            h.ctx,
            h.runtime,
            progress=lambda chunk: seen_at.append(time.monotonic()),
        )

    start = time.monotonic()
    out = await run()
    end = time.monotonic()
    assert text(out) == "early\nlate"
    assert seen_at and seen_at[0] - start < (end - start) / 2


async def test_non_zero_exit_is_an_error_starting_with_exit_code(harness):
    h = harness()
    out = await h.bash("echo before; exit 3")
    assert out.is_error
    assert text(out).splitlines() == ["Exit code 3", "before"]


@pytest.mark.parametrize(
    ("command", "meaning"),
    [
        ("grep nothing-here {f}", "No matches found"),
        ("{rg} nothing-here {f}", "No matches found"),
        ("diff {f} /dev/null", "Files differ"),
        ("test -d {f}", "Condition is false"),
        ("[ -d {f} ]", "Condition is false"),
        ("cmp {f} /dev/null", "Files differ"),
    ],
)
async def test_exit_one_with_an_interpretation_is_not_an_error(harness, tmp_path, command, meaning):
    f = tmp_path / "file.txt"
    f.write_text("content\n")
    h = harness()
    out = await h.bash(command.format(f=f, rg=RG))
    assert not out.is_error, text(out)
    assert meaning in text(out)


async def test_git_diff_exit_code_one_means_files_differ(harness, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("x\n")
    b.write_text("y\n")
    out = await harness().bash(f"git diff --no-index {a} {b} >/dev/null")
    assert not out.is_error
    assert "Files differ" in text(out)


async def test_exit_two_of_grep_is_an_error(harness):
    out = await harness().bash("grep x /no/such/file")
    assert out.is_error
    assert text(out).startswith("Exit code 2")


async def test_input_coercion_and_timeout_clamp():
    tool = BashTool()
    parsed = tool.parse_input({"command": "ls", "timeout": "900000", "run_in_background": "false"})
    assert parsed.timeout == 600_000
    assert parsed.run_in_background is False


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("", "empty"),
        ("   \n ", "empty"),
        ("echo a\x00b", "NUL"),
        ("echo " + "x" * 1_000_000, "too long"),
    ],
)
async def test_bad_commands_get_a_defined_error(harness, command, message):
    out = await harness().bash(command)
    assert out.is_error
    assert message in text(out)


async def test_stdin_is_empty(harness):
    out = await harness().bash("cat; read -r line; echo status=$?", timeout=5000)
    assert text(out) == "status=1"


# -- cwd ---------------------------------------------------------------------------------


async def test_cwd_carries_over_inside_the_working_directory(harness, tmp_path):
    (tmp_path / "sub").mkdir()
    h = harness()
    await h.bash("cd sub")
    assert h.ctx.cwd == tmp_path / "sub"
    out = await h.bash("pwd")
    assert text(out) == str(tmp_path / "sub")


async def test_cwd_outside_the_working_directories_is_reset_with_a_note(harness, tmp_path):
    (tmp_path / "sub").mkdir()
    h = harness()
    await h.bash("cd sub")
    out = await h.bash("cd / && pwd")
    assert text(out) == (
        "/\nThe command ended outside the project's working directories, so the next "
        f"command starts in {tmp_path} again."
    )
    assert h.ctx.cwd == tmp_path


async def test_exported_variables_do_not_persist(harness):
    h = harness()
    await h.bash("export HANDS_TEST_VAR=1")
    out = await h.bash("echo ${HANDS_TEST_VAR:-unset}")
    assert text(out) == "unset"


async def test_deleted_cwd_falls_back_to_the_project(harness, tmp_path):
    (tmp_path / "gone").mkdir()
    h = harness()
    await h.bash("cd gone")
    (tmp_path / "gone").rmdir()
    out = await h.bash("pwd")
    assert text(out).startswith(str(tmp_path))
    assert f"no longer exists; commands now run in {tmp_path}." in text(out)


# -- timeouts and process groups ------------------------------------------------------


KILL_AT_TIMEOUT = BashSettings(background_on_timeout=False)


async def test_timeout_kills_grandchildren(harness, tmp_path):
    pidfile = tmp_path / "grandchild.pid"
    h = harness(KILL_AT_TIMEOUT)
    command = f"bash -c 'sleep 60 & echo $! > {pidfile}; wait' ; echo never"
    start = time.monotonic()
    out = await h.bash(command, timeout=1000)
    assert time.monotonic() - start < 5
    assert out.is_error
    assert text(out).startswith("Exit code 143\n")
    assert "Killed when its 1s timeout ran out" in text(out)
    pid = int(pidfile.read_text())
    assert not alive(pid)


async def test_timeout_kills_processes_that_left_the_group(harness, tmp_path):
    pidfile = tmp_path / "daemon.pid"
    h = harness(KILL_AT_TIMEOUT)
    out = await h.bash(
        f"setsid sleep 60 > /dev/null 2>&1 < /dev/null & echo $! > {pidfile}; sleep 60",
        timeout=800,
    )
    assert out.is_error
    assert not alive(int(await wait_for_file(pidfile)))


async def test_daemons_do_not_outlive_a_finished_command(harness, tmp_path):
    pidfile = tmp_path / "daemon.pid"
    out = await harness().bash(
        f"(setsid sleep 60 > /dev/null 2>&1 < /dev/null & echo $! > {pidfile}); echo started"
    )
    assert text(out).startswith("started\n")
    # the program is named as it was when stopped (a subshell may not have exec'd yet)
    assert "Stopped 1 process the command left running (" in text(out)
    assert "run_in_background" in text(out)
    assert not alive(int(pidfile.read_text()))


async def test_every_way_of_leaving_something_running_is_reported(harness):
    out = await harness().bash(
        "nohup sleep 61 >/dev/null 2>&1 & setsid sleep 62 >/dev/null 2>&1 & (sleep 63 &); echo go"
    )
    assert not out.is_error
    stopped = re.search(r"Stopped (\d+) processes the command left running", text(out))
    assert stopped is not None and int(stopped.group(1)) >= 3  # transient subshells add


async def test_a_command_that_waits_for_its_jobs_gets_no_note(harness):
    out = await harness().bash("sleep 0.05 & wait; echo done")
    assert text(out) == "done"


async def test_background_job_holding_the_pipe_does_not_hang_the_call(harness, tmp_path):
    pidfile = tmp_path / "job.pid"
    start = time.monotonic()
    out = await harness().bash(f"sleep 60 & echo $! > {pidfile}; echo done")
    assert time.monotonic() - start < 3
    assert text(out).startswith("done\nStopped 1 process")
    assert not alive(int(pidfile.read_text()))


async def test_term_ignoring_process_is_killed(harness, tmp_path):
    pidfile = tmp_path / "stubborn.pid"
    out = await harness(KILL_AT_TIMEOUT).bash(
        f"bash -c 'trap \"\" TERM; echo $$ > {pidfile}; while :; do sleep 0.05; done'",
        timeout=500,
    )
    assert out.is_error
    assert not alive(int(pidfile.read_text()))


async def test_cancelling_a_call_kills_its_process_group(harness, tmp_path):
    pidfile = tmp_path / "child.pid"
    h = harness()
    async with anyio.create_task_group() as tg:
        tg.start_soon(h.bash, f"sleep 60 & echo $! > {pidfile}; wait")
        pid = int(await wait_for_file(pidfile))
        tg.cancel_scope.cancel()
    deadline = time.monotonic() + 3
    while alive(pid) and time.monotonic() < deadline:
        await anyio.sleep(0.02)
    assert not alive(pid)


async def test_a_timed_out_command_goes_on_in_the_background_and_tells_when_it_ends(harness):
    h = harness()
    out = await h.bash("echo first; sleep 0.8; echo second", timeout=300)
    assert not out.is_error
    output = out.output
    assert isinstance(output, BashOutput) and output.background_task_id
    task = output.background_task_id
    assert text(out).startswith(
        f"Not finished after 0.3s, so it goes on in the background as task {task} "
    )
    assert "if it runs 10m it is stopped" in text(out)
    assert text(out).endswith("\nOutput so far:\nfirst")
    inbox = h.session.service(Inbox)
    with anyio.fail_after(10):
        await inbox.wait(None)
    [notice] = inbox.take(None)
    assert f"<task-id>{task}</task-id>" in notice and "(exit code 0)" in notice
    assert Path(output.output_path or "").read_text() == ("first\nsecond\n[hands: exit code 0]\n")
    await h.session.aclose()


@pytest.mark.parametrize("command", ["sleep 30", "sleep 30 && echo y", "sleep 30 | cat"])
async def test_a_command_that_starts_with_sleep_is_killed_at_its_timeout(harness, command):
    h = harness()
    out = await h.bash(command, timeout=300)
    assert out.is_error
    assert text(out) == (
        "Exit code 143\nKilled when its 0.3s timeout ran out, together with every process "
        "it had started. For a longer run give a larger timeout, or start it with "
        "run_in_background."
    )
    assert BackgroundShells.for_session(h.session).tasks() == []


@pytest.mark.parametrize(
    "command",
    [
        "FOO=1 sleep 30",
        "true && sleep 30",
        "(sleep 30)",
        "python3 -c 'import time; time.sleep(30)'",
    ],
)
async def test_other_commands_past_their_timeout_move_to_the_background(harness, command):
    h = harness()
    out = await h.bash(command, timeout=300)
    assert not out.is_error and "goes on in the background" in text(out)
    [task] = BackgroundShells.for_session(h.session).running()
    assert task.limit_ms == 600_000
    await h.session.aclose()


async def test_without_background_tasks_a_timed_out_command_is_killed(harness):
    h = harness(BashSettings(background_tasks=False))
    out = await h.bash("echo a; sleep 30", timeout=300)
    assert out.is_error and text(out).startswith("Exit code 143\na\nKilled when")


# -- output size -------------------------------------------------------------------------


async def test_large_output_spills_to_a_file_with_a_preview(harness):
    h = harness()
    out = await h.bash("seq 1 100000")
    content = text(out)
    assert content.startswith("<persisted-output>")
    path = Path(content.split("all of it is in ")[1].split(". Page")[0])
    assert path.read_text().splitlines()[-1] == "100000"
    assert "1\n2\n3\n" in content


async def test_output_just_under_the_limit_is_inline(harness):
    out = await harness().bash("head -c 29000 /dev/zero | tr '\\0' a")
    assert text(out) == "a" * 29000


async def test_one_gigabyte_of_output_is_stopped(harness):
    start = time.monotonic()
    out = await harness().bash("head -c 1000000000 /dev/zero | tr '\\0' x; echo end", timeout=60000)
    assert time.monotonic() - start < 30
    assert out.is_error
    content = text(out)
    assert "was stopped" in content
    assert len(content) <= 12_000


async def test_a_spilled_output_whose_middle_was_dropped_says_so(harness):
    # more than the kept head and tail together: the middle never reaches the file
    out = await harness().bash("seq 1 900000; echo the-end", timeout=120000)
    content = text(out)
    assert content.startswith("<persisted-output>") and "all of it is in" not in content
    assert "bytes of output from the middle were dropped" in content
    path = Path(content.split("all that was kept of it is in ")[1].split(":")[0])
    saved = path.read_text()
    assert saved.startswith("1\n2\n") and saved.rstrip().endswith("the-end")
    assert "bytes of output left out here" in saved and "\n700000\n" not in saved


async def test_long_failure_output_is_cut_in_the_middle(harness):
    out = await harness().bash("seq 1 20000; exit 1")
    content = text(out)
    assert content.startswith("Exit code 1\n1\n2\n")
    assert content.rstrip().endswith("20000")
    assert "characters left out here" in content


# -- flags, permissions and rendering ------------------------------------------------------


def test_read_only_flags_follow_the_analysis():
    tool = BashTool()
    assert tool.is_read_only(BashInput(command="git status"))
    assert tool.is_concurrency_safe(BashInput(command="ls -la | wc -l"))
    assert not tool.is_read_only(BashInput(command="make"))
    assert not tool.is_concurrency_safe(BashInput(command="echo $(rm x)"))
    assert not tool.is_read_only(BashInput(command="ls", run_in_background=True))
    assert tool.is_destructive(BashInput(command="rm -rf build"))
    assert not tool.is_destructive(BashInput(command="ls"))


async def test_default_policy_runs_read_only_commands_and_asks_for_others(tmp_path):
    runtime = ToolRuntime(tools=ToolPool([BashTool()]))
    ctx = ToolContext(cwd=tmp_path)
    ok = await run_tool_use(
        ToolUseBlock(id="a", name="Bash", input={"command": "echo hi"}), ctx, runtime, print
    )
    assert ok.status == "ok"
    marker = tmp_path / "made"
    refused = await run_tool_use(
        ToolUseBlock(id="b", name="Bash", input={"command": f"touch {marker}"}),
        ctx,
        runtime,
        print,
    )
    assert refused.status == "rejected"
    assert not marker.exists()


async def test_dangerously_disable_sandbox_is_refused_unless_allowed(harness):
    from hands.tools.bash._settings import SandboxSettings

    h = harness(
        BashSettings(sandbox=SandboxSettings(enabled=True, allow_unsandboxed_commands=False))
    )
    out = await h.bash("echo hi", dangerouslyDisableSandbox=True)
    assert out.status == "rejected"
    assert "allowUnsandboxedCommands" in text(out)


def test_render_snapshots():
    tool = BashTool()
    use = render(tool.render_use(BashInput(command="git status\ngit log", run_in_background=True)))
    assert use == "● Bash(git status … (background))\n"
    result = render(tool.render_result(BashOutput(stdout="a\nb", exit_code=0)))
    assert result == "  ⎿ a\n    b\n"
    failed = render(tool.render_result(BashOutput(stdout="boom", exit_code=2)))
    assert failed == "  ⎿ Exit code 2\n    boom\n"
    bg = render(tool.render_result(BashOutput(stdout="", background_task_id="b1")))
    assert bg == "  ⎿ Running in the background (id b1)\n"
    progress = render(tool.render_progress("1\n2\n3\n4\n5\n6\n7\n"))
    assert progress == "  ⎿ 3\n    4\n    5\n    6\n    7\n"


def test_no_heavy_imports_at_module_level():
    import subprocess
    import sys

    code = (
        "import sys, hands.tools.bash.bash, hands.tools.bash.task_output, "
        "hands.tools.bash.task_stop; print('tree_sitter' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


async def test_no_process_left_behind_by_the_suite_commands(harness, tmp_path, run_mark):
    # every command above ran in its own group; nothing carrying our marker may remain
    # (only this test run's processes count: another run may share the machine)
    from hands.shell.processes import MARKER_VAR

    me = os.getpid()
    ours = run_mark.encode()
    leftovers = []
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != me:
            try:
                env = Path(f"/proc/{name}/environ").read_bytes().split(b"\0")
            except OSError:
                continue
            marked = any(entry.startswith(MARKER_VAR.encode() + b"=") for entry in env)
            if marked and ours in env and alive(int(name)):
                leftovers.append(name)
    assert leftovers == []


# -- CLAUDE_ENV_FILE -------------------------------------------------------------------


async def test_the_users_env_file_runs_before_every_command(harness, tmp_path, monkeypatch):
    env_file = tmp_path / "env.sh"
    env_file.write_text("export FROM_ENV_FILE=yes\nalias ll='echo aliased'\n")
    monkeypatch.setenv("CLAUDE_ENV_FILE", str(env_file))
    h = harness()
    assert text(await h.bash('echo "[$FROM_ENV_FILE]"')) == "[yes]"
    env_file.write_text("export FROM_ENV_FILE=changed\n")
    assert text(await h.bash('echo "[$FROM_ENV_FILE]"')) == "[changed]"
    monkeypatch.delenv("CLAUDE_ENV_FILE")
    assert text(await h.bash('echo "[${FROM_ENV_FILE:-}]"')) == "[]"


async def test_an_unreadable_env_file_is_named_not_fatal(harness, tmp_path, monkeypatch):
    env_file = tmp_path / "env.sh"
    env_file.mkdir()  # a directory: cannot be read as a script
    monkeypatch.setenv("CLAUDE_ENV_FILE", str(env_file))
    out = await harness().bash("echo still runs")
    assert not out.is_error
    assert "still runs" in text(out)
    assert f"Environment file {env_file} could not be read" in text(out)
