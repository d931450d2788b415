"""``/mcp login NAME`` and ``/mcp logout NAME`` in the REPL."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from rich.console import Console
from rich.text import Text

from hands.mcp.manager import McpManager

USAGE = "Usage: /mcp login NAME or /mcp logout NAME (NAME: a remote server in /mcp)."


async def mcp_auth_command(
    console: Console,
    manager: McpManager,
    arg: str,
    open_url: Callable[[str], Awaitable[None]] | None = None,
) -> None:
    """Authorize hands with a server (then reconnect it), or forget its authorization.

    ``open_url`` shows the authorization URL (default: the browser, and printed).
    """
    from hands.errors import ToolError
    from hands.mcp.login import LoginError, login, logout

    verb, _, name = arg.partition(" ")
    name = name.strip()
    if verb not in ("login", "logout") or not name:
        console.print(Text(USAGE, style="yellow"))
        return
    try:
        conn = manager.connection(name)
    except ToolError as exc:
        console.print(Text(str(exc), style="red"))
        return
    if verb == "logout":
        gone = logout(conn.config, settings=manager.settings)
        console.print(
            Text(f"Removed the stored authorization of {name}." if gone else
                 f"No authorization was stored for {name}.")
        )  # fmt: skip
        return
    try:
        status = await login(
            conn.config,
            settings=manager.settings,
            open_url=open_url,
            say=lambda line: console.print(Text(line)),
        )
    except LoginError as exc:
        console.print(Text(str(exc), style="red"))
        return
    if status.state != "connected":
        console.print(Text(f"The authorization of {name} failed: {status.error}", style="red"))
        return
    conn.start()  # the session's own connection, now with the stored token
    console.print(Text(f"Authorized with {name}; reconnecting it.", style="green"))
