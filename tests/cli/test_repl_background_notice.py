"""The interactive session hears of a background command that ends while it waits."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from terminal import Terminal, script, start

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_an_ended_job_wakes_the_idle_prompt_with_its_notice(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    job = {"command": "sleep 1; echo ok", "run_in_background": True, "description": "slow job"}
    s = script(
        tmp_path / "s.json",
        [
            {"blocks": [{"type": "tool_use", "name": "Bash", "input": job}]},
            {"blocks": [{"type": "text", "text": "Started; back to you."}]},
            {"blocks": [{"type": "text", "text": "The slow job has finished."}]},
        ],
    )
    start(terminal, project, hands_home, s, "--permission-mode", "bypassPermissions")
    terminal.send("start the job", "Enter")
    terminal.wait_for("Started; back to you.")
    terminal.wait_for_prompt()  # the prompt is back while the job runs
    screen = terminal.wait_for("The slow job has finished.", timeout=20)
    assert 'Background task "slow job" is over (exit code 0).' in screen
    assert screen.index("Started; back to you.") < screen.index("The slow job has finished.")
