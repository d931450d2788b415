"""``hands mcp list``: status per server, from the project's .mcp.json."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from mcp_helpers import DEMO, FAULT
from typer.testing import CliRunner

from hands.cli.mcp import mcp_app
from support import tool_results


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
    result = runner.invoke(mcp_app, ["list", "--trust", "--cwd", str(project), "--json", "--probe"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    servers = {s["name"]: s for s in data["servers"]}
    assert servers["demo"]["state"] == "connected"
    assert servers["demo"]["tool_count"] >= 10 and servers["demo"]["resources"]
    assert servers["gone"]["state"] == "failed"
    assert "command not found" in servers["gone"]["error"]
    assert servers["remote"]["state"] == "failed" and servers["remote"]["error"]
    assert any("NOT_SET_ANYWHERE" in w for w in data["warnings"])

    text = runner.invoke(mcp_app, ["list", "--trust", "--cwd", str(project), "--probe"])
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
    args = ["list", "--trust", "--cwd", str(project), "--json", "--probe"]
    result = CliRunner().invoke(mcp_app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    servers = {s["name"]: s for s in data["servers"]}
    assert servers["demo"]["state"] == "connected"
    assert servers["other"]["state"] == "disabled"
    assert "not in allowedMcpServers" in servers["other"]["error"]
    assert servers["denied"]["state"] == "disabled"
    assert "deniedMcpServers" in servers["denied"]["error"]
    assert not marker.exists()  # a server that may not run is never started


def test_mcp_list_starts_only_approved_servers_and_probe_never_starts_refused_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    asked, refused = tmp_path / "undecided-started", tmp_path / "refused-started"
    (project / ".mcp.json").write_text(
        json.dumps(
            {
                "mcpServers": {
                    "demo": {"command": sys.executable, "args": [str(DEMO)]},
                    "undecided": {"command": "touch", "args": [str(asked)]},
                    "refused": {"command": "touch", "args": [str(refused)]},
                }
            }
        )
    )
    (project / ".claude" / "settings.local.json").write_text(
        json.dumps({"enabledMcpjsonServers": ["demo"], "disabledMcpjsonServers": ["refused"]})
    )
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("MCP_TIMEOUT", "15000")
    runner = CliRunner()
    result = runner.invoke(mcp_app, ["list", "--trust", "--cwd", str(project), "--json"])
    assert result.exit_code == 0, result.output
    servers = {s["name"]: s for s in json.loads(result.stdout)["servers"]}
    assert servers["demo"]["state"] == "connected"
    assert servers["undecided"]["state"] == "needs-approval"
    assert "--probe" in servers["undecided"]["error"]
    assert servers["refused"]["state"] == "disabled"
    assert not asked.exists() and not refused.exists()

    result = runner.invoke(mcp_app, ["list", "--trust", "--cwd", str(project), "--json", "--probe"])
    assert result.exit_code == 0, result.output
    servers = {s["name"]: s for s in json.loads(result.stdout)["servers"]}
    assert servers["undecided"]["state"] == "failed" and asked.exists()
    assert servers["refused"]["state"] == "disabled" and not refused.exists()


def test_print_mode_never_starts_a_refused_project_server(tmp_path: Path) -> None:
    import subprocess

    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    demo = {"command": sys.executable, "args": [str(DEMO)]}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"open": demo, "shut": demo}}))
    (project / ".claude" / "settings.local.json").write_text(
        json.dumps({"disabledMcpjsonServers": ["shut"]})
    )
    calls = [
        {"type": "tool_use", "name": f"mcp__{name}__echo", "input": {"text": f"said-{name}"}}
        for name in ("open", "shut")
    ]
    script = tmp_path / "s.json"
    script.write_text(
        json.dumps({"turns": [{"blocks": calls}, {"blocks": [{"type": "text", "text": "ok"}]}]})
    )
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "-p", "go", "--trust", "--model", f"scripted:{script}",
         "--allowedTools", "mcp__open,mcp__shut", "--output-format", "stream-json"],
        capture_output=True, text=True, cwd=project, timeout=120,
        env={**os.environ, "HOME": str(tmp_path), "MCP_TIMEOUT": "15000"},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    results = tool_results(proc.stdout)
    opened, shut = results
    assert "said-open" in json.dumps(opened) and not opened.get("is_error")
    assert shut.get("is_error") and "said-shut" not in json.dumps(shut)
    assert "'open'" in proc.stderr and "without asking" in proc.stderr
    assert "'shut'" not in proc.stderr


def test_print_mode_shows_no_traceback_for_a_server_that_sends_broken_json(
    tmp_path: Path,
) -> None:
    import subprocess

    server = {"command": sys.executable, "args": [str(FAULT), "malformed"]}
    call = {"type": "tool_use", "name": "mcp__bad__echo", "input": {"text": "hi"}}
    script = tmp_path / "s.json"
    script.write_text(
        json.dumps({"turns": [{"blocks": [call]}, {"blocks": [{"type": "text", "text": "ok"}]}]})
    )
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "-p", "go", "--trust", "--model", f"scripted:{script}",
         "--mcp-config", json.dumps({"mcpServers": {"bad": server}}),
         "--permission-mode", "bypassPermissions", "--output-format", "stream-json"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env={**os.environ, "HOME": str(tmp_path), "MCP_TOOL_TIMEOUT": "2000"},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (result,) = tool_results(proc.stdout)
    assert result.get("is_error")
    assert "Traceback" not in proc.stderr and "ValidationError" not in proc.stderr


def test_an_mcp_call_is_held_to_the_session_tool_limit_by_default(tmp_path: Path) -> None:
    import subprocess

    server = {"command": sys.executable, "args": [str(DEMO)]}
    call = {"type": "tool_use", "name": "mcp__demo__wait", "input": {"seconds": 600}}
    script = tmp_path / "s.json"
    script.write_text(
        json.dumps({"turns": [{"blocks": [call]}, {"blocks": [{"type": "text", "text": "ok"}]}]})
    )
    env = {k: v for k, v in os.environ.items() if k != "MCP_TOOL_TIMEOUT"}
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "-p", "go", "--trust", "--model", f"scripted:{script}",
         "--mcp-config", json.dumps({"mcpServers": {"demo": server}}),
         "--permission-mode", "bypassPermissions", "--output-format", "stream-json"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env={**env, "HOME": str(tmp_path), "HANDS_TOOL_TIMEOUT_MS": "1500"},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (result,) = tool_results(proc.stdout)
    assert result.get("is_error")
    assert "within 1.5 s" in json.dumps(result["content"])


def _project_with_servers(tmp_path: Path, servers: dict[str, object]) -> Path:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    return project


def test_hands_tool_calls_a_tool_of_a_configured_server(tmp_path: Path) -> None:
    import subprocess

    demo = {"command": sys.executable, "args": [str(DEMO)]}
    project = _project_with_servers(tmp_path, {"demo": demo, "other": {"command": "no-such-xyz"}})
    env = {**os.environ, "HOME": str(tmp_path), "MCP_TIMEOUT": "15000"}

    def hands_tool(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "hands", "tool", "--trust", *args],
            capture_output=True, text=True, cwd=project, timeout=60, env=env,
        )  # fmt: skip

    echoed = hands_tool("mcp__demo__echo", '{"text": "from the shell"}')
    assert echoed.returncode == 0, echoed.stderr
    assert echoed.stdout.strip() == "from the shell"
    as_json = hands_tool("mcp__demo__add", '{"a": 2, "b": 40}', "--json")
    assert json.loads(json.loads(as_json.stdout)["content"]) == {"sum": 42}
    unknown = hands_tool("mcp__demo__nope", "{}")
    assert unknown.returncode == 1 and "mcp__demo__echo" in unknown.stderr
    unconfigured = hands_tool("mcp__elsewhere__echo", "{}")
    assert unconfigured.returncode == 1
    assert "There is no tool named mcp__elsewhere__echo" in unconfigured.stderr


def test_stream_json_init_lists_each_server_with_its_status_and_its_tools(
    tmp_path: Path,
) -> None:
    import subprocess

    demo = {"command": sys.executable, "args": [str(DEMO)]}
    project = _project_with_servers(
        tmp_path,
        {
            "loaded": {**demo, "alwaysLoad": True},
            "slow": {"command": sys.executable, "args": [str(DEMO), "--slow-start", "30"]},
            "broken": {"type": "carrier-pigeon", "url": "x"},
            "shut": demo,
        },
    )
    (project / ".claude" / "settings.local.json").write_text(
        json.dumps({"disabledMcpjsonServers": ["shut"]})
    )
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"turns": [{"blocks": [{"type": "text", "text": "ok"}]}]}))
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "-p", "go", "--trust", "--model", f"scripted:{script}",
         "--output-format", "stream-json"],
        capture_output=True, text=True, cwd=project, timeout=120,
        env={**os.environ, "HOME": str(tmp_path), "MCP_TIMEOUT": "15000",
             "MCP_CONNECT_TIMEOUT_MS": "15000"},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    init = json.loads(proc.stdout.splitlines()[0])
    assert init["subtype"] == "init"
    statuses = {s["name"]: s["status"] for s in init["mcp_servers"]}
    # the init line waits for the servers being started, up to MCP_TIMEOUT, as Claude
    # Code does: one still starting after it (30 s here) is listed as failed
    assert statuses == {
        "loaded": "connected",
        "slow": "failed",
        "broken": "failed",
        "shut": "disabled",
    }
    assert "mcp__loaded__echo" in init["tools"] and "Read" in init["tools"]
    assert not any(t.startswith("mcp__slow__") for t in init["tools"])
