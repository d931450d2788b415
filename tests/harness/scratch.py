"""A scratch project with everything a session reads: rules, mode, env, a hook, a server,
a custom agent."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from paths import REPO

DEMO_SERVER = REPO / "tests" / "mcp" / "servers" / "demo.py"
ENV_NAME = "HANDS_SCRATCH_MARK"
DEFAULT_MODE = "acceptEdits"


def write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")


LOG_HOOK = {
    "PreToolUse": [
        {
            "matcher": "*",
            "hooks": [{"type": "command", "command": "cat >> hook.log; echo >> hook.log"}],
        }
    ]
}
"""A PreToolUse hook that appends each call's JSON to hook.log in the project."""


def with_demo_server(project: Path) -> None:
    """The demo MCP server in ``.mcp.json``, approved in the local settings."""
    write(project / ".claude" / "settings.local.json", {"enabledMcpjsonServers": ["demo"]})
    write(
        project / ".mcp.json",
        {"mcpServers": {"demo": {"command": sys.executable, "args": [str(DEMO_SERVER)]}}},
    )


def scratch_project(root: Path, *, mode: str = DEFAULT_MODE) -> Path:
    """The project: Read of secret.txt denied, Bash(echo:*) asked, ``mode`` as the default
    mode, an env block, the :data:`LOG_HOOK`, the demo MCP server and a ``reviewer``
    agent."""
    project = root / "project"
    project.mkdir(parents=True)
    (project / "secret.txt").write_text("password\n")
    (project / "notes.txt").write_text("notes\n")
    write(
        project / ".claude" / "settings.json",
        {
            "permissions": {
                "deny": ["Read(./secret.txt)"],
                "ask": ["Bash(echo:*)"],
                "defaultMode": mode,
            },
            "env": {ENV_NAME: "from-settings"},
            "hooks": LOG_HOOK,
        },
    )
    with_demo_server(project)
    write(
        project / ".claude" / "agents" / "reviewer.md",
        "---\nname: reviewer\ndescription: Reviews a change.\ntools: Read\n---\nReview it.\n",
    )
    return project


def hook_calls(project: Path) -> list[str]:
    """The tool names the PreToolUse hook saw, in order."""
    log = project / "hook.log"
    if not log.exists():
        return []
    return [json.loads(line)["tool_name"] for line in log.read_text().splitlines() if line]
