from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from hands.cli.demo.run import run_demo
from hands.tools.browser._settings import missing


def test_demo_runs_the_whole_session_offline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "users-hands-home"
    monkeypatch.setenv("HANDS_HOME", str(home))
    out = io.StringIO()
    code = run_demo(console=Console(file=out, width=120, color_system=None))
    text = out.getvalue()
    assert code == 0, text
    # the demo's sessions and results went to its own temp home, removed with it
    assert not home.exists() and os.environ["HANDS_HOME"] == str(home)
    # parallel exploration, an edit with its diff, the sample's tests failing then passing
    for expected in ("● Glob(", "● Grep(", "● Read(", "● Edit(", "● Bash(", "● WebFetch("):
        assert expected in text
    assert "chars of Markdown" in text  # the sample's docs page, fetched from loopback
    assert "-         return sum(item.unit_price for item in self.items.values())" in text
    assert "FAILED (failures=1)" in text
    assert "● Explore(Locate the total)" in text  # a sub-agent found the bug's line
    assert "inventory/stock.py:29" in text
    assert any(line.startswith("success · 6 turns") for line in text.splitlines())
    assert any(line.strip() == "OK" for line in text.splitlines())
    # then the browser step on the sample's local lookup page
    if missing() is not None:
        assert "browser step skipped: The browser tools cannot run" in text
        return
    assert '⎿ Clicked button "Look up" [e2]' in text
    assert text.rstrip().splitlines()[-1].startswith("success · 4 turns")


def test_demo_piped_to_a_file_has_no_padded_lines() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "demo"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) > 20
    assert [line for line in lines if line != line.rstrip()] == []
    # a wrapped line goes on under its text, not at column 0
    assert not any(line.startswith('"*.py"') for line in lines)
