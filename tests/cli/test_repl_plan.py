"""``/plan``: plan mode from a command, as Shift-Tab gives it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from terminal import Terminal, call_then_reply, start

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_plan_enters_plan_mode_and_sends_its_text_in_it(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    target = tmp_path / "made.txt"
    write = {"file_path": str(target), "content": "x"}
    s = call_then_reply(tmp_path / "s.json", "Write", write, "I will plan first.")
    start(terminal, tmp_path, hands_home, s, "--permission-mode", "acceptEdits")
    terminal.send("/plan write the file", "Enter")
    terminal.wait_for("mode plan: read-only")
    screen = terminal.wait_for("I will plan first.")
    assert not target.exists()  # plan mode changes nothing, even after acceptEdits
    assert "1. Yes" not in screen
    terminal.wait_for_prompt()
    terminal.submit("/plan", "Already in plan mode.")
    screen = terminal.submit("/status", "none configured")
    assert "mode plan: read-only" in screen.split("> /status")[-1]
