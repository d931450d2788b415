"""``/tasks`` (``/bashes``) and ``/todos``: background work and the plan, from the REPL."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from hands.cli.repl_tasks import rows, tail
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


@tmux
def test_tasks_lists_shows_and_stops_a_background_shell(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    job = {
        "command": "for i in 1 2 3; do echo line$i; done; sleep 300",
        "run_in_background": True,
        "description": "long job",
    }
    s = script(
        tmp_path / "s.json",
        [
            {"blocks": [{"type": "tool_use", "name": "Bash", "input": job}]},
            {"blocks": [{"type": "text", "text": "Started it."}]},
        ],
    )
    start(terminal, tmp_path, hands_home, s, "--allowedTools", "Bash")
    terminal.submit("/tasks", "No background shells or agents")
    terminal.submit("start the job", "Started it.")
    terminal.wait_for_prompt()
    screen = terminal.submit("/bashes", "/tasks stop ID")
    found = re.search(r"(b[0-9a-f]{8}) +│ shell +│ running +│ long job", screen)
    assert found is not None, screen
    shell_id = found.group(1)
    terminal.submit(f"/tasks {shell_id}", "line3")
    terminal.submit("/tasks nothere", "No background task nothere (known: " + shell_id)
    terminal.submit(f"/tasks stop {shell_id}", f"Stopped {shell_id}: killed.")
    screen = terminal.submit(f"/tasks stop {shell_id}", "is not running (killed)")
    assert "Traceback" not in screen


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
