"""``/doctor``: the installation's checks, a settings file broken since start-up among them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hands.cli.repl_doctor import Check, render, ripgrep, settings_files
from terminal import Terminal, script, start


def test_settings_files_are_read_again_and_a_broken_one_fails(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"permissions": {"allow": ["Read"]}}))
    bad = tmp_path / "bad.json"
    bad.write_text("{ nope")
    gone = tmp_path / "gone.json"
    found = settings_files(
        [("userSettings", good), ("projectSettings", bad), ("localSettings", gone)],
        ("a warning from start-up",),
    )
    levels = [(c.name, c.level) for c in found]
    assert levels == [
        ("userSettings", "ok"),
        ("projectSettings", "fail"),
        ("localSettings", "warn"),
        ("settings", "warn"),
    ]
    assert "not valid JSON" in found[1].detail and str(bad) in found[1].detail


def _has_rg() -> bool:
    from hands.errors import ToolError
    from hands.tools.search import rg_path

    try:
        rg_path()
    except ToolError:
        return False
    return True


@pytest.mark.skipif(not _has_rg(), reason="ripgrep is not installed")
def test_ripgrep_reports_its_version() -> None:
    check = ripgrep()
    assert check.level == "ok" and check.detail.startswith("ripgrep ")


def test_render_marks_each_level() -> None:
    text = render(
        [
            Check(name="a", level="ok", detail="fine"),
            Check(name="long name", level="fail", detail="broken"),
        ]
    ).plain
    assert text == "✓ a          fine\n✗ long name  broken"


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_doctor_in_the_repl_finds_a_settings_file_broken_since_start(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    user = home / ".claude" / "settings.json"
    user.write_text(json.dumps({"cleanupPeriodDays": 9}))
    project = tmp_path / "project"
    project.mkdir()
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "hi"}]}])
    start(terminal, project, hands_home, s, user_home=home)
    user.write_text("{ broken")
    screen = terminal.submit("/doctor", "problem")
    for name in ("hands", "python", "userSettings", "trust", "sandbox", "ripgrep", "chromium"):
        assert f" {name} " in screen, name
    assert "✗ userSettings" in screen and "not valid" in screen, screen
    assert "1 problem found." in screen and "Traceback" not in screen
