"""``hands mcp list``, ``/mcp`` and ``/doctor`` show a dying stdio server's exit status."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from terminal import Terminal, script, start

SERVERS = Path(__file__).parents[1] / "mcp" / "servers"
DYING = {
    "dies": {"command": sys.executable, "args": [str(SERVERS / "dies_at_start.py")]},
    "killed": {"command": sys.executable, "args": [str(SERVERS / "killed_at_start.py")]},
}


def test_mcp_list_shows_the_exit_status(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": DYING}))
    env = {**os.environ, "HOME": str(tmp_path), "HANDS_HOME": str(tmp_path / "hands-home")}
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "mcp", "list", "--trust", "--probe"],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    lines = {line.split(":", 1)[0]: line for line in proc.stdout.splitlines() if ":" in line}
    assert "exited with status 3 during start-up" in lines["dies"]
    assert "server output: cannot open the database" in lines["dies"]
    assert (
        "killed by signal 9 (SIGKILL) during start-up; server output: about to go"
        in lines["killed"]
    )


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_mcp_and_doctor_in_the_repl_show_the_exit_status(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    config = tmp_path / "servers.json"
    config.write_text(json.dumps({"mcpServers": DYING}))
    project = tmp_path / "project"
    project.mkdir()
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "hi"}]}])
    start(terminal, project, hands_home, s, "--mcp-config", str(config))
    terminal.submit("hello", "hi")  # the servers start with the first prompt
    terminal.wait_for_prompt()
    for _ in range(30):  # they start in the background: ask until both have failed
        terminal.send("C-l")
        screen = terminal.submit("/mcp", "┘")
        terminal.wait_for_prompt()
        if screen.count("failed") == 2:
            break
    flat = " ".join(screen.split())
    assert "exited with status 3" in flat and "cannot open the" in flat, screen
    terminal.wait_for_prompt()
    screen = terminal.submit("/doctor", "found.")
    flat = " ".join(screen.split())
    assert "✗ mcp dies" in flat and "exited with status 3" in flat, screen
