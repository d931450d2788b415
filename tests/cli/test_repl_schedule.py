"""The interactive session runs a scheduled prompt when its time comes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from terminal import Terminal, script, start

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
