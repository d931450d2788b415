"""``hands mcp list``, ``login``, ``logout`` and ``serve``.

Mounted with ``app.add_typer(mcp_app, name="mcp")``. Only typer is imported here; the
MCP SDK loads when a command runs.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from hands.cli.options import (
    AddDirOption,
    AllowedToolsOption,
    CwdOption,
    DisallowedToolsOption,
    ModeOption,
    SettingsOption,
    TrustOption,
)
from hands.cli.options import cwd_of as _cwd
from hands.core.words import plural

if TYPE_CHECKING:
    from pathlib import Path

    from hands.mcp.config import McpConfigSet, McpServerConfig
    from hands.mcp.status import ServerStatus

mcp_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="MCP: list the configured servers, authorize hands with one, or serve hands' tools "
    "to an MCP host.",
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
    trust: TrustOption = False,
) -> None:
    """Connect to every approved server and show its status and tool count.

    Project servers nobody approved are listed without being started (``--probe``
    starts them too); servers in ``disabledMcpjsonServers`` never start.
    """
    import anyio

    from hands.cli import startup
    from hands.config.settings import load_settings
    from hands.mcp.config import approval_from_settings, approval_without_asking
    from hands.mcp.server_policy import ServerPolicy
    from hands.mcp.setup import build_manager

    project = _cwd(cwd)
    settings = load_settings(project, trusted=_trusted(project, trust))
    settings.apply_env()
    blocked = ServerPolicy.from_settings(settings.value).blocked
    approve = (approval_without_asking if probe else approval_from_settings)(
        settings.value, trusted=settings.trusted
    )
    startup.done()  # the servers start in the user's own environment

    async def go() -> tuple[list[ServerStatus], McpConfigSet]:
        manager, config = build_manager(project, approve_project=approve, blocked=blocked)
        async with manager:
            limit = manager.settings.startup_timeout_s + 1 if timeout is None else timeout
            await manager.wait_ready(limit=limit)
            return manager.status(), config

    statuses, config = anyio.run(go)
    warnings = [
        w for w in config.warnings if not any(w.startswith(f"{p}:") for p, _ in config.broken)
    ]
    if as_json:
        broken = [{"file": str(path), "error": problem} for path, problem in config.broken]
        typer.echo(
            json.dumps(
                {
                    "servers": [s.to_json() for s in statuses],
                    "broken_files": broken,
                    "warnings": warnings,
                },
                indent=2,
            )
        )
    else:
        _show(statuses, config.broken, warnings)
    if config.broken:
        raise typer.Exit(1)


def _show(
    statuses: list[ServerStatus], broken: tuple[tuple[Path, str], ...], warnings: list[str]
) -> None:
    for path, problem in broken:
        typer.echo(f"{path}: broken: {problem}; none of its servers start")
    if not statuses and not broken:
        typer.echo("No MCP servers configured (.mcp.json, ~/.hands/mcp.json, ~/.claude.json).")
    for s in statuses:
        if s.state == "connected":
            extra = " + resources" if s.resources else ""
            mark = f"✓ connected ({plural(len(s.tools), 'tool')}{extra})"
        elif s.state == "reconnecting" and s.error:
            mark = f"… reconnecting: {s.error}"
        elif s.state in ("pending", "reconnecting"):
            mark = "… still connecting"
        elif s.state == "needs-auth":
            mark = f"! needs-auth: {s.error}" if s.error else "! needs-auth"
        else:
            mark = f"✗ {s.state}: {s.error}" if s.error else f"✗ {s.state}"
        typer.echo(f"{s.name}: {s.target} ({s.scope}, {s.transport}) - {mark}")
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)


def _trusted(project: Path, explicit: bool) -> bool:
    """The command's trust decision; an untrusted folder's ignored items go to stderr."""
    from hands.config.project_trust import decide_trust

    verdict = decide_trust(project, explicit=explicit)
    for note in verdict.notes():
        print(f"hands: {note}", file=sys.stderr)
    return verdict.trusted


def _remote_server(project: Path, name: str) -> McpServerConfig:
    """The configured server ``name`` (any scope the settings let run), or exit 1 saying why."""
    from hands.config.settings import load_settings
    from hands.mcp.config import approval_without_asking, load_mcp_config
    from hands.mcp.server_policy import ServerPolicy

    settings = load_settings(project, trusted=_trusted(project, False))
    settings.apply_env()
    config = load_mcp_config(
        project,
        approve_project=approval_without_asking(settings.value, trusted=settings.trusted),
        blocked=ServerPolicy.from_settings(settings.value).blocked,
    )
    server = config.get(name)
    if server is None:
        names = ", ".join(s.name for s in config.servers) or "(none)"
        typer.echo(f"hands: no MCP server named {name!r} here. Servers: {names}.", err=True)
        raise typer.Exit(1)
    if server.transport not in ("http", "sse"):
        typer.echo(
            f"hands: {name!r} is a {server.transport} server; only http and sse servers "
            "authorize with OAuth.",
            err=True,
        )
        raise typer.Exit(1)
    return server


@mcp_app.command("login")
def login_command(
    name: Annotated[str, typer.Argument(help="The server to authorize, as configured.")],
    cwd: CwdOption = None,
    timeout: Annotated[
        float,
        typer.Option("--timeout", help="Seconds to wait for the authorization in the browser."),
    ] = 300.0,
    client_secret: Annotated[
        bool,
        typer.Option(
            "--client-secret",
            help="The configured oauth.clientId has a secret: read it from MCP_CLIENT_SECRET, "
            "or ask for it.",
        ),
    ] = False,
) -> None:
    """Authorize hands with a remote (http or sse) server through OAuth in the browser.

    The token is stored for that server under the hands home and refreshed as needed;
    sessions then connect without asking.
    """
    import anyio

    from hands.cli import startup
    from hands.mcp.login import LoginError, login

    server = _remote_server(_cwd(cwd), name)
    secret = ""
    if client_secret:
        import os

        secret = os.environ.get("MCP_CLIENT_SECRET") or typer.prompt(
            f"Client secret for {name}", hide_input=True
        )
    startup.done()
    try:
        status = anyio.run(
            lambda: login(server, say=typer.echo, timeout_s=timeout, client_secret=secret)
        )
    except LoginError as exc:
        typer.echo(f"hands: {exc}", err=True)
        raise typer.Exit(1) from None
    if status.state != "connected":
        typer.echo(f"hands: the authorization of {name} failed: {status.error}", err=True)
        raise typer.Exit(1)
    typer.echo(f"Authorized with {name}: connected ({plural(len(status.tools), 'tool')}).")


@mcp_app.command("logout")
def logout_command(
    name: Annotated[str, typer.Argument(help="The server whose stored authorization to drop.")],
    cwd: CwdOption = None,
) -> None:
    """Forget the OAuth tokens (and the client registration) stored for a server."""
    from hands.mcp.login import logout

    server = _remote_server(_cwd(cwd), name)
    if logout(server):
        typer.echo(f"Removed the stored authorization of {name}.")
    else:
        typer.echo(f"No authorization was stored for {name}.")


@mcp_app.command("serve")
def serve_command(
    cwd: CwdOption = None,
    permission_mode: ModeOption = None,
    allowed_tools: AllowedToolsOption = None,
    disallowed_tools: DisallowedToolsOption = None,
    settings: SettingsOption = None,
    add_dir: AddDirOption = None,
    trust: TrustOption = False,
    http: Annotated[
        int | None,
        typer.Option("--http", help="Serve streamable HTTP on 127.0.0.1:PORT instead of stdio."),
    ] = None,
) -> None:
    """Serve hands' built-in tools over MCP (stdio), through permissions and hooks."""
    import anyio

    from hands.cli.mcp_serve import build_bridge, run_stdio, serve_http
    from hands.cli.options import load_cli_sources

    where = _cwd(cwd)
    sources = load_cli_sources(
        where, permission_mode, allowed_tools, disallowed_tools, settings, add_dir
    )
    bridge = build_bridge(cwd=where, settings=sources, trust=trust)
    if http is not None:
        anyio.run(serve_http, bridge, http)
    else:
        run_stdio(bridge)
