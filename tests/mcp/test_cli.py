"""``hands mcp list``: status per server, from the project's .mcp.json."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from mcp_helpers import DEMO
from typer.testing import CliRunner

from hands.cli.mcp import mcp_app


def test_mcp_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / ".mcp.json").write_text(
        json.dumps(
            {
                "mcpServers": {
                    "demo": {"command": sys.executable, "args": [str(DEMO)]},
                    "gone": {"command": "no-such-command-xyz", "env": {"K": "${NOT_SET_ANYWHERE}"}},
                    "remote": {"type": "http", "url": "http://127.0.0.1:9/mcp"},
                }
            }
        )
    )
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("MCP_TIMEOUT", "15000")
    runner = CliRunner()
    result = runner.invoke(mcp_app, ["list", "--cwd", str(project), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    servers = {s["name"]: s for s in data["servers"]}
    assert servers["demo"]["state"] == "connected"
    assert servers["demo"]["tool_count"] >= 10 and servers["demo"]["resources"]
    assert servers["gone"]["state"] == "failed"
    assert "command not found" in servers["gone"]["error"]
    assert servers["remote"]["state"] == "failed" and servers["remote"]["error"]
    assert any("NOT_SET_ANYWHERE" in w for w in data["warnings"])

    text = runner.invoke(mcp_app, ["list", "--cwd", str(project)])
    assert text.exit_code == 0
    assert "demo:" in text.stdout and "✓ connected" in text.stdout
    assert "gone:" in text.stdout and "✗ failed: command not found" in text.stdout


def test_mcp_list_honours_allowed_and_denied_servers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    marker = tmp_path / "started"
    (project / ".mcp.json").write_text(
        json.dumps(
            {
                "mcpServers": {
                    "demo": {"command": sys.executable, "args": [str(DEMO)]},
                    "other": {"command": "touch", "args": [str(marker)]},
                    "denied": {"command": sys.executable, "args": [str(DEMO)]},
                }
            }
        )
    )
    (project / ".claude" / "settings.local.json").write_text(
        json.dumps(
            {
                "allowedMcpServers": [{"serverName": "demo"}, {"serverName": "denied"}],
                "deniedMcpServers": [{"serverName": "denied"}],
            }
        )
    )
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("MCP_TIMEOUT", "15000")
    result = CliRunner().invoke(mcp_app, ["list", "--cwd", str(project), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    servers = {s["name"]: s for s in data["servers"]}
    assert servers["demo"]["state"] == "connected"
    assert servers["other"]["state"] == "disabled"
    assert "not in allowedMcpServers" in servers["other"]["error"]
    assert servers["denied"]["state"] == "disabled"
    assert "deniedMcpServers" in servers["denied"]["error"]
    assert not marker.exists()  # a server that may not run is never started
