"""``hands tool`` and the project's MCP servers: the server is told the working
directories as its roots, and the resource tools reach the servers' resources."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from paths import REPO

DEMO_SERVER = REPO / "tests" / "mcp" / "servers" / "demo.py"


def project(root: Path, *, added: Path | None = None) -> Path:
    """A trusted project whose ``.mcp.json`` has the demo server, which the settings approve
    (and ``added`` as an additional working directory)."""
    from hands.config.trust import trust

    where = root / "project"
    (where / ".claude").mkdir(parents=True)
    settings: dict[str, Any] = {"permissions": {"allow": ["mcp__demo"]}}
    if added is not None:
        settings["permissions"]["additionalDirectories"] = [str(added)]
    (where / ".claude" / "settings.json").write_text(json.dumps(settings))
    server = {"command": sys.executable, "args": [str(DEMO_SERVER)]}
    (where / ".mcp.json").write_text(json.dumps({"mcpServers": {"demo": server}}))
    trust(where)
    return where


def hands_tool(cwd: Path, home: Path, name: str, data: dict[str, Any]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "hands", "tool", name, json.dumps(data), "--json"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HOME": str(home), "HANDS_HOME": str(home / ".hands")},
    )
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's home and hands home (where the trusted workspaces are recorded)."""
    where = tmp_path / "home"
    monkeypatch.setenv("HANDS_HOME", str(where / ".hands"))
    monkeypatch.setenv("HOME", str(where))
    return where


def text_of(result: dict[str, Any]) -> str:
    content = result["content"]
    return content if isinstance(content, str) else "".join(c.get("text", "") for c in content)


def test_an_mcp_call_from_the_shell_gives_the_server_the_working_directories_as_roots(
    tmp_path: Path, home: Path
) -> None:
    added = tmp_path / "docs"
    added.mkdir()
    where = project(tmp_path, added=added)
    result = hands_tool(where, home, "mcp__demo__roots", {})
    assert not result.get("is_error"), result
    roots = json.loads(text_of(result))["roots"]
    assert roots == [where.as_uri(), added.as_uri()]


def test_the_resource_tools_list_and_read_a_servers_resources_from_the_shell(
    tmp_path: Path, home: Path
) -> None:
    where = project(tmp_path)
    listed = hands_tool(where, home, "ListMcpResourcesTool", {})
    assert not listed.get("is_error"), listed
    assert "memo://readme" in text_of(listed)
    read = hands_tool(
        where, home, "ReadMcpResourceTool", {"server": "demo", "uri": "memo://readme"}
    )
    assert not read.get("is_error"), read
    assert "hello from the demo server" in text_of(read)
    unknown = hands_tool(where, home, "ReadMcpResourceTool", {"server": "nope", "uri": "memo://x"})
    assert unknown.get("is_error")


def test_an_untrusted_project_s_servers_stay_off_for_the_resource_tools(
    tmp_path: Path, home: Path
) -> None:
    where = project(tmp_path)
    (home / ".hands" / "trusted.json").unlink()
    listed = hands_tool(where, home, "ListMcpResourcesTool", {})
    assert listed.get("is_error") and "memo://readme" not in text_of(listed)
