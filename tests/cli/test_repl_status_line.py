"""The status line: the settings' ``statusLine`` command, its first line under the input."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import pytest

from hands.cli.repl_status_line import StatusLine, first_line, status_command
from hands.config.settings import load_settings
from terminal import Terminal, launch, script


def test_status_command_takes_only_a_command_setting() -> None:
    assert status_command({"type": "command", "command": " ~/bin/line "}) == "~/bin/line"
    assert status_command({"command": "x"}) == "x"
    assert status_command({"type": "static", "command": "x"}) is None
    assert status_command({"type": "command", "command": ""}) is None
    assert status_command("echo hi") is None and status_command(None) is None


def test_first_line_reads_the_facts_from_stdin(tmp_path: Path) -> None:
    command = "python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[\"model\"]); print(2)'"
    assert first_line(command, cwd=tmp_path, facts={"model": "opus"}) == "opus"
    assert first_line("true", cwd=tmp_path, facts={}) == ""


def test_the_line_is_refreshed_in_a_thread_and_redraws(tmp_path: Path) -> None:
    drawn = threading.Event()
    line = StatusLine("echo ready", cwd=tmp_path, facts=dict, redraw=drawn.set)
    assert line().value == ""  # the first draw starts the command and does not wait
    assert drawn.wait(10)
    assert line().value == "ready"


def test_an_untrusted_projects_status_line_is_not_used(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    setting = {"statusLine": {"type": "command", "command": "touch pwned"}}
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps(setting))
    env = {"HOME": str(tmp_path / "home"), "HANDS_MANAGED_SETTINGS": ""}
    assert load_settings(tmp_path, env=env, trusted=False).value("statusLine") is None
    assert (
        load_settings(tmp_path, env=env, trusted=True).value("statusLine") == setting["statusLine"]
    )


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_status_line_shows_under_the_input(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    command = (
        'python3 -c \'import json,sys; print("STATUS", json.load(sys.stdin)["permission_mode"])\''
    )
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"statusLine": {"type": "command", "command": command}})
    )
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "hi"}]}])
    launch(terminal, tmp_path, hands_home, s, user_home=home)
    terminal.wait_for("(/help")
    screen = terminal.wait_for("STATUS default")
    assert screen.rstrip().splitlines()[-1].strip() == "STATUS default"  # the bottom row
