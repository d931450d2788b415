"""stream-json's ``system/init`` line shows the MCP servers as they are once started:
connected with their tools listed, or failed (as Claude Code's does), not "pending"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

DEMO_SERVER = Path(__file__).parents[1] / "mcp" / "servers" / "demo.py"


def init_line(tmp_path: Path, servers: dict[str, Any]) -> dict[str, Any]:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": servers}))
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"turns": [{"blocks": [{"type": "text", "text": "done"}]}]}))
    argv = [sys.executable, "-m", "hands", "-p", "go", "--output-format", "stream-json"]
    argv += ["--mcp-config", str(config), "--model", f"scripted:{script}"]
    done = subprocess.run(
        argv, capture_output=True, text=True, cwd=tmp_path, env=dict(os.environ), timeout=120
    )
    assert done.returncode == 0, done.stderr
    first = json.loads(done.stdout.splitlines()[0])
    assert first["type"] == "system" and first["subtype"] == "init"
    return first


def test_a_server_that_starts_is_connected_with_its_tools_in_the_init_line(
    tmp_path: Path,
) -> None:
    init = init_line(tmp_path, {"demo": {"command": sys.executable, "args": [str(DEMO_SERVER)]}})
    # Claude Code names where each definition came from; --mcp-config is "dynamic"
    assert init["mcp_servers"] == [{"name": "demo", "status": "connected", "source": "dynamic"}]
    assert "mcp__demo__echo" in init["tools"]


def test_a_server_that_cannot_start_is_failed_in_the_init_line(tmp_path: Path) -> None:
    init = init_line(tmp_path, {"gone": {"command": sys.executable, "args": ["-c", "pass"]}})
    assert init["mcp_servers"] == [{"name": "gone", "status": "failed", "source": "dynamic"}]
    assert not [t for t in init["tools"] if t.startswith("mcp__gone__")]
