"""The interactive session runs a scheduled prompt when its time comes."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from terminal import Terminal, launch, script, start

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_a_due_wakeup_wakes_the_idle_prompt_and_runs_as_a_turn(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    wake = {"delaySeconds": 1, "reason": "check soon", "prompt": "CHECK THE BUILD AGAIN"}
    s = script(
        tmp_path / "s.json",
        [
            {"blocks": [{"type": "tool_use", "name": "ScheduleWakeup", "input": wake}]},
            {"blocks": [{"type": "text", "text": "Will look again shortly."}]},
            {"blocks": [{"type": "text", "text": "Looked again: all green."}]},
        ],
    )
    start(terminal, project, hands_home, s, env={"HANDS_WAKEUP_MIN_SECONDS": "1"})
    terminal.send("watch the build", "Enter")
    terminal.wait_for("Will look again shortly.")
    screen = terminal.wait_for("Looked again: all green.", timeout=20)
    assert screen.index("Will look again shortly.") < screen.index("Looked again: all green.")


def test_a_durable_job_of_the_project_runs_once_the_folder_is_trusted(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    """The trust question names the file's prompt; trusted, the job runs as a turn."""
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    passed = (time.time() - 2 * 86_400) * 1000  # a one-time job whose time passed
    task = {"id": "d1", "cron": "15 7 * * *", "prompt": "RUN THE NIGHTLY CHECK",
            "createdAt": passed}  # fmt: skip
    (project / ".claude" / "scheduled_tasks.json").write_text(json.dumps({"tasks": [task]}))
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "Nightly check done."}]}])
    launch(terminal, project, hands_home, s, user_home=tmp_path / "home")
    screen = terminal.wait_for("[y/N]")
    assert "15 7 * * *: RUN THE NIGHTLY CHECK" in screen
    terminal.send("y", "Enter")
    terminal.wait_for("Nightly check done.", timeout=20)
    task_file = json.loads((project / ".claude" / "scheduled_tasks.json").read_text())
    assert task_file == {"tasks": []}  # done once, gone from the file
