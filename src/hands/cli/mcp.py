"""``hands mcp list`` and ``hands mcp serve``.

Mounted with ``app.add_typer(mcp_app, name="mcp")``. Only typer is imported here; the
MCP SDK loads when a command runs.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from hands.cli.options import (
    AddDirOption,
    AllowedToolsOption,
    CwdOption,
    DisallowedToolsOption,
    ModeOption,
    SettingsOption,
)
from hands.cli.options import cwd_of as _cwd
from hands.core.words import plural

mcp_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="MCP: list the configured servers, or serve hands' tools to an MCP host.",
    pretty_exceptions_enable=False,
)


@mcp_app.command("list")
def list_command(
    cwd: CwdOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    timeout: Annotated[
        float | None,
        typer.Option("--timeout", help="Seconds to wait for each server (default MCP_TIMEOUT)."),
    ] = None,
    probe: Annotated[
        bool,
        typer.Option(
            "--probe",
            help="Also start the project's servers nobody approved yet, to check them "
            "(refused ones stay off).",
        ),
    ] = False,
) -> None:
    """Connect to every approved server and show its status and tool count.

    Project servers nobody approved are listed without being started (``--probe``
    starts them too); servers in ``disabledMcpjsonServers`` never start.
    """
    import anyio

    from hands.cli import startup
    from hands.config.settings import load_settings
    from hands.mcp.config import approval_from_settings, approval_without_asking
    from hands.mcp.connection import ServerStatus
    from hands.mcp.server_policy import ServerPolicy
    from hands.mcp.setup import build_manager

    project = _cwd(cwd)
    settings = load_settings(project)
    settings.apply_env()
    blocked = ServerPolicy.from_settings(settings.value).blocked
    approve = (approval_without_asking if probe else approval_from_settings)(settings.value)
    startup.done()  # the servers start in the user's own environment

    async def go() -> tuple[list[ServerStatus], tuple[str, ...]]:
        manager, config = build_manager(project, approve_project=approve, blocked=blocked)
        async with manager:
            limit = manager.settings.startup_timeout_s + 1 if timeout is None else timeout
            await manager.wait_ready(limit=limit)
            return manager.status(), config.warnings

    statuses, warnings = anyio.run(go)
    if as_json:
        typer.echo(
            json.dumps(
                {"servers": [s.to_json() for s in statuses], "warnings": list(warnings)},
                indent=2,
            )
        )
        return
    if not statuses:
        typer.echo("No MCP servers configured (.mcp.json, ~/.hands/mcp.json, ~/.claude.json).")
    for s in statuses:
        if s.state == "connected":
            extra = " + resources" if s.resources else ""
            mark = f"✓ connected ({plural(len(s.tools), 'tool')}{extra})"
        elif s.state == "reconnecting" and s.error:
            mark = f"… reconnecting: {s.error}"
        elif s.state in ("pending", "reconnecting"):
            mark = "… still connecting"
        else:
            mark = f"✗ {s.state}: {s.error}" if s.error else f"✗ {s.state}"
        typer.echo(f"{s.name}: {s.target} ({s.scope}, {s.transport}) - {mark}")
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)


@mcp_app.command("serve")
def serve_command(
    cwd: CwdOption = None,
    permission_mode: ModeOption = None,
    allowed_tools: AllowedToolsOption = None,
    disallowed_tools: DisallowedToolsOption = None,
    settings: SettingsOption = None,
    add_dir: AddDirOption = None,
    http: Annotated[
        int | None,
        typer.Option("--http", help="Serve streamable HTTP on 127.0.0.1:PORT instead of stdio."),
    ] = None,
) -> None:
    """Serve hands' built-in tools over MCP (stdio), through permissions and hooks."""
    import anyio

    from hands.cli.mcp_serve import build_bridge, serve_http, serve_stdio
    from hands.cli.options import load_cli_settings

    where = _cwd(cwd)
    loaded = load_cli_settings(
        where, permission_mode, allowed_tools, disallowed_tools, settings, add_dir
    )
    bridge = build_bridge(cwd=where, settings=loaded)
    if http is not None:
        anyio.run(serve_http, bridge, http)
    else:
        anyio.run(serve_stdio, bridge)
