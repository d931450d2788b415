"""A scratch project with everything a session reads: rules, mode, env, a hook, a server,
a custom agent."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paths import REPO

DEMO_SERVER = REPO / "tests" / "mcp" / "servers" / "demo.py"
ENV_NAME = "HANDS_SCRATCH_MARK"
MCP_TOOL = "mcp__demo__echo"
"""The demo server's echo tool, allowed by the project's settings."""
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
    """The project: Read of secret.txt denied, Bash(echo:*) asked, the demo server's echo
    allowed, ``mode`` as the default mode, an env block, the :data:`LOG_HOOK`, the demo MCP
    server and a ``reviewer`` agent."""
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
                "allow": [MCP_TOOL],
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


MCP_SAID = "mcp-said-hi"
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("Read", {"file_path": "secret.txt"}),
    ("Bash", {"command": f"printenv {ENV_NAME}"}),
    ("Bash", {"command": "echo asked-$((40 + 2))"}),
    ("Write", {"file_path": "made.txt", "content": "made\n"}),
    (MCP_TOOL, {"text": MCP_SAID}),
    ("Bash", {"command": ["ls"]}),
]
"""The last call's input does not validate: it is reported, and no hook sees it."""


def calls_in(project: Path) -> list[tuple[str, dict[str, Any]]]:
    """:data:`CALLS` with their file paths in ``project``."""
    out: list[tuple[str, dict[str, Any]]] = []
    for name, data in CALLS:
        data = dict(data)
        if "file_path" in data:
            data["file_path"] = str(project / data["file_path"])
        out.append((name, data))
    return out


@dataclass
class Seen:
    """What one front end did with :data:`CALLS`."""

    texts: list[str]
    """Each call's result text, in order."""
    asked: list[str]
    """The tools the front end's asker was asked about (where it can be observed)."""
    tools: list[str] | None
    """The tools offered (None where the front end does not list them)."""
    where: Path | None = None
    """Where the calls ran, when not in the project itself (a batch task's copy of it)."""
    servers: dict[str, str] | None = None
    """The MCP servers' status the front end announced (stream-json's init line)."""
