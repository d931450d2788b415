"""The question asked before an untrusted project's committed settings take effect."""

from __future__ import annotations

from pathlib import Path

import typer

from hands.config.untrusted import ALL_SERVERS, UntrustedFile


def trust_text(where: Path, files: tuple[UntrustedFile, ...]) -> str:
    """Everything the files would run or loosen, file by file."""
    servers = _project_servers(where) if any(f.mcp_servers for f in files) else {}
    lines = ["This project's committed settings would run programs or loosen permissions:"]
    for f in files:
        lines.append(f"  {f.label}")
        lines.extend(f"    runs hook  {hook}" for hook in f.hooks)
        if f.env:
            lines.append(f"    sets env   {', '.join(f.env)}")
        named = sorted(servers) if ALL_SERVERS in f.mcp_servers else list(f.mcp_servers)
        for name in named:
            lines.append(f"    starts MCP server {name}: {servers.get(name, '(not in .mcp.json)')}")
        lines.extend(f"    allows     {rule}" for rule in f.allow)
        lines.extend(f"    adds dir   {d}" for d in f.directories)
        if f.mode:
            lines.append(f"    mode       {f.mode}")
        lines.extend(f"    loosens    {entry}" for entry in f.loosens)
    lines.append(
        "Only trust a project whose files you know. Without trust none of this is used in "
        "this session; deny and ask rules apply either way."
    )
    return "\n".join(lines)


def ask_to_trust(where: Path, files: tuple[UntrustedFile, ...]) -> bool:
    """Ask once whether the project's committed settings may take effect."""
    typer.echo(trust_text(where, files))
    return typer.confirm(f"Trust {where} and use them?", default=False)


def _project_servers(where: Path) -> dict[str, str]:
    """The project's ``.mcp.json`` servers: name → what it would start or reach."""
    from hands.mcp.approval import describe
    from hands.mcp.config import load_mcp_config

    config = load_mcp_config(where, approve_project=True, user=False)
    return {s.name: describe(s) for s in config.servers if s.scope == "project"}
