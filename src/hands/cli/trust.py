"""``hands trust [DIR]``: trust a workspace, so its committed settings take effect."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def trust_command(
    directory: Annotated[
        Path | None,
        typer.Argument(help="A directory of the workspace (default: the current directory)."),
    ] = None,
    remove: Annotated[
        bool, typer.Option("--remove", help="Stop trusting the workspace instead.")
    ] = False,
    show: Annotated[bool, typer.Option("--list", help="List the trusted workspaces.")] = False,
) -> None:
    """Trust a workspace: its .claude/settings.json hooks, env, servers and rules count."""
    from hands.config.trust import trust, trust_file, trusted_dirs, untrust, workspace_of

    if show:
        for d in trusted_dirs():
            typer.echo(str(d))
        return
    target = (directory or Path.cwd()).expanduser().resolve()
    if remove:
        if untrust(target):
            typer.echo(f"No longer trusted: {workspace_of(target)}")
        else:
            typer.echo(f"{workspace_of(target)} was not trusted itself ({trust_file()})")
        return
    if not target.is_dir():
        raise typer.BadParameter(f"{target} is not a directory")
    workspace = trust(target)
    typer.echo(
        f"Trusted {workspace}: hooks, env, MCP server approvals, allow rules and "
        "additionalDirectories from its .claude/settings.json and .hands/settings.json "
        "now apply (recorded in "
        f"{trust_file()})."
    )
