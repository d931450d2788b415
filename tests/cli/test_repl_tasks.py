"""``/tasks`` (``/bashes``) and ``/todos``: background work and the plan, from the REPL."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from hands.cli.repl_tasks import Follower, follow, rows, tail
from hands.core.background import BackgroundAgent, BackgroundAgents
from hands.core.session import Session
from terminal import Terminal, script, start

tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_rows_list_background_agents_with_their_output(tmp_path: Path) -> None:
    session = Session(home=tmp_path)
    out = tmp_path / "agent.out"
    agent = BackgroundAgent(
        id="a1", agent_type="Explore", description="map the code", output_path=out
    )
    BackgroundAgents.for_session(session).add(agent)
    for n in range(50):
        agent.log(f"step {n}")
    (row,) = rows(session)
    assert (row.id, row.kind, row.status, row.what) == (
        "a1",
        "agent (Explore)",
        "running",
        "map the code",
    )
    text, earlier = tail(row.output_path)
    assert earlier == 10 and text.splitlines()[0] == "step 10" and text.endswith("step 49")
    agent.finish("completed", "found it")
    assert rows(session)[0].status == "completed"
    assert tail(tmp_path / "missing") == ("", 0)


def test_follow_prints_a_background_agents_lines_until_it_finishes(tmp_path: Path) -> None:
    import anyio
    from rich.console import Console

    session = Session(home=tmp_path)
    out = tmp_path / "agent.out"
    agent = BackgroundAgent(id="a2", agent_type="Explore", description="map", output_path=out)
    BackgroundAgents.for_session(session).add(agent)
    agent.log("before")
    console = Console(record=True, width=80)

    async def go() -> str:
        (row,) = rows(session)
        offset = out.stat().st_size
        ended: list[str] = []
        async with anyio.create_task_group() as tg:

            async def watch() -> None:
                ended.append(await follow(console, session, row, offset))

            tg.start_soon(watch)
            agent.log("step one")
            with anyio.fail_after(10):  # shown while the agent still runs
                while "step one" not in console.export_text(clear=False):
                    await anyio.sleep(0.05)
            assert not ended
            agent.log("step two")
            agent.finish("completed", "found it")
        return ended[0]

    assert anyio.run(go) == "completed"
    shown = console.export_text().splitlines()
    assert shown[:2] == ["step one", "step two"] and "before" not in shown


def _start_job(
    terminal: Terminal,
    folder: Path,
    home: Path,
    job: dict[str, object],
    before: tuple[str, str] | None = None,
) -> None:
    """The REPL, then a prompt whose answer starts ``job`` as a background Bash call."""
    s = script(
        folder / "s.json",
        [
            {"blocks": [{"type": "tool_use", "name": "Bash", "input": job}]},
            {"blocks": [{"type": "text", "text": "Started it."}]},
        ],
    )
    start(terminal, folder, home, s, "--allowedTools", "Bash")
    if before is not None:
        terminal.submit(*before)
    terminal.submit("start the job", "Started it.")
    terminal.wait_for_prompt()


def test_the_follower_prints_whole_lines_as_they_come(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.write_bytes(b"seen before\n")
    reader = Follower(path=out, offset=out.stat().st_size)
    assert reader.new_lines() == []
    with out.open("ab") as f:
        f.write(b"one\ntw")
    assert reader.new_lines() == ["one"]  # half a line waits for its end
    with out.open("ab") as f:
        f.write("o \u00e9\nthree".encode())
    assert reader.new_lines() == ["two é"]
    assert reader.new_lines(final=True) == ["three"]  # the task ended: the rest too
    assert reader.new_lines(final=True) == []
    out.unlink()
    assert reader.new_lines() == []  # a file gone is no output, not an error


@tmux
def test_tasks_lists_shows_and_stops_a_background_shell(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    job = {
        "command": "for i in 1 2 3; do echo line$i; done; sleep 300",
        "run_in_background": True,
        "description": "long job",
    }
    _start_job(terminal, tmp_path, hands_home, job, before=("/tasks", "No background shells"))
    screen = terminal.submit("/bashes", "/tasks stop ID")
    found = re.search(r"(b[0-9a-f]{8}) +│ shell +│ running +│ long job", screen)
    assert found is not None, screen
    shell_id = found.group(1)
    terminal.submit(f"/tasks {shell_id}", "Esc or Ctrl-C stops following")
    assert "line3" in terminal.screen()
    terminal.send("Escape")
    terminal.wait_for(f"Stopped following {shell_id}; it goes on in the background.")
    terminal.wait_for_prompt()
    terminal.submit("/tasks nothere", "No background task nothere (known: " + shell_id)
    terminal.submit(f"/tasks stop {shell_id}", f"Stopped {shell_id}: killed.")
    screen = terminal.submit(f"/tasks stop {shell_id}", "is not running (killed)")
    assert "Traceback" not in screen


@tmux
def test_tasks_follows_a_running_shell_until_it_ends(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    # the shell goes on only when the test says so, so what /tasks shows has to be live
    gate = tmp_path / "gate"
    job = {
        "command": f"echo step-$((0+1)); until [ -e {gate}-1 ]; do sleep 0.05; done; "
        f"echo step-$((1+1)); until [ -e {gate}-2 ]; do sleep 0.05; done; "
        "printf 'tail-%s' $((6*7))",
        "run_in_background": True,
        "description": "gated job",
    }
    _start_job(terminal, tmp_path, hands_home, job)
    found = re.search(r"(b[0-9a-f]{8}) +│ shell +│ running", terminal.submit("/tasks", "│"))
    assert found is not None
    shell_id = found.group(1)
    screen = terminal.submit(f"/tasks {shell_id}", "Esc or Ctrl-C stops following")
    assert "step-1" in screen and "step-2" not in screen
    (tmp_path / "gate-1").touch()
    terminal.wait_for("step-2")  # printed while following
    (tmp_path / "gate-2").touch()
    screen = terminal.wait_for(f"{shell_id} ended: completed.")
    assert "tail-42" in screen  # the last part, with no newline after it
    terminal.wait_for_prompt()
    following = terminal.screen().count("stops following")
    terminal.submit(f"/tasks {shell_id}", f"{shell_id} · shell · completed")
    terminal.wait_for_prompt()
    screen = terminal.screen()
    assert screen.count("tail-42") == 2 and screen.count("stops following") == following


@tmux
def test_todos_shows_the_task_list_the_model_made(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    task = {"subject": "Write the parser", "description": "parse it"}
    s = script(
        tmp_path / "s.json",
        [
            {"blocks": [{"type": "tool_use", "name": "TaskCreate", "input": task}]},
            {"blocks": [{"type": "text", "text": "Planned."}]},
        ],
    )
    start(terminal, tmp_path, hands_home, s)
    terminal.submit("/todos", "No todo list and no tasks yet.")
    terminal.submit("plan it", "Planned.")
    terminal.wait_for_prompt()
    screen = terminal.submit("/todos", "waits for")  # the task table's last column
    assert re.search(r"#1 +│ pending +│ Write the parser", screen), screen


def _running(marker: str) -> bool:
    found = subprocess.run(["pgrep", "-f", marker], capture_output=True, check=False)
    return found.returncode == 0


@tmux
def test_a_background_shell_ends_when_the_terminal_goes_away(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    marker = f"sleep 300.{uuid.uuid4().int % 10**9:09d}"  # a process no other test runs
    job = {
        "command": marker,
        "run_in_background": True,
        "description": "outlives nothing",
    }
    _start_job(terminal, tmp_path, hands_home, job)
    assert _running(marker)  # started, so the check below can fail
    terminal.tmux("kill-server")  # the terminal closes: the REPL gets SIGHUP
    deadline = time.monotonic() + 15
    while _running(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running(marker)
