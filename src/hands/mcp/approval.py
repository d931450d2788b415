"""Asking once about project MCP servers (from a committed ``.mcp.json``).

A project's ``.mcp.json`` can start programs on the user's machine, so in an interactive
session each project server runs only after the user said yes. The answer is kept in
``.claude/settings.local.json`` (``enabledMcpjsonServers`` / ``disabledMcpjsonServers``),
the same keys Claude Code uses, so it is asked once per project.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from hands.config.jsonfile import string_list, update_json_object
from hands.mcp.config import McpServerConfig

Ask = Callable[[str], Awaitable[str]]


def describe(server: McpServerConfig) -> str:
    """What the server would run or reach."""
    if server.transport == "stdio":
        return " ".join([server.command, *server.args]).strip()
    return f"{server.transport} {server.url}"


def record(project_dir: Path, name: str, *, approved: bool) -> Path:
    """Save one answer in ``.claude/settings.local.json``."""
    path = project_dir / ".claude" / "settings.local.json"

    def change(data: dict[str, Any]) -> None:
        keep = "enabledMcpjsonServers" if approved else "disabledMcpjsonServers"
        drop = "disabledMcpjsonServers" if approved else "enabledMcpjsonServers"
        kept = string_list(data, keep, path)
        if name not in kept:
            kept.append(name)
        if drop in data:
            data[drop] = [n for n in string_list(data, drop, path) if n != name]

    return update_json_object(path, change)


async def ask_about(
    servers: Sequence[McpServerConfig], *, project_dir: Path, ask: Ask
) -> dict[str, bool]:
    """Ask about each pending server; returns name → approved (and saves each answer)."""
    answers: dict[str, bool] = {}
    approve_rest: bool | None = None
    for index, server in enumerate(servers):
        if approve_rest is not None:
            approved = approve_rest
        else:
            reply = await ask(_question(server, servers[index:]))
            choice = reply.strip().lower()
            approved = choice in ("1", "2", "y", "yes")
            if choice == "2":
                approve_rest = True
        record(project_dir, server.name, approved=approved)
        answers[server.name] = approved
    return answers


def _question(server: McpServerConfig, rest: Sequence[McpServerConfig]) -> str:
    """The question about ``server``; "use all" comes after every server it would start."""
    head = f"This project's .mcp.json wants to start the MCP server {server.name!r}:\n"
    head += f"  {describe(server)}\n"
    others = rest[1:]
    if others:
        head += f"and {len(others)} more:\n" + "".join(
            f"  {other.name}: {describe(other)}\n" for other in others
        )
    every = f"all {len(rest)} servers listed above" if others else "this project's servers"
    return f"{head}  1. Use this server\n  2. Use {every}\n  3. Don't use it\n> "
