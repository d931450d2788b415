"""``hands mcp login`` / ``logout``: authorize hands with a remote MCP server, or forget it.

A login listens for the redirect on a loopback port, opens the authorization URL in the
user's browser (printing it too, since there may be none), and connects to the server
with the interactive OAuth flow of :mod:`hands.mcp.oauth`; the token lands in the
server's credentials file and the connection lists the tools to prove it works.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace

from hands.mcp.auth_store import AuthRecord
from hands.mcp.config import McpServerConfig, McpSettings
from hands.mcp.oauth import LoginFlow, callback_port, fixed_port
from hands.mcp.oauth_callback import CallbackListener
from hands.mcp.status import ServerStatus

DEFAULT_LOGIN_TIMEOUT_S = 300.0


class LoginError(Exception):
    """A login could not even start (wrong transport, callback port taken)."""


def browser_opener(say: Callable[[str], None]) -> Callable[[str], Awaitable[None]]:
    """Open the URL in the user's browser (``BROWSER`` is honoured); always print it."""

    async def open_url(url: str) -> None:
        import webbrowser

        import anyio

        say(f"Opening the authorization page in your browser. If it does not open, visit:\n{url}")
        try:
            opened = await anyio.to_thread.run_sync(webbrowser.open, url)
        except webbrowser.Error:
            opened = False
        if not opened:
            say("No browser could be opened here: open the URL above in one to continue.")

    return open_url


async def login(
    config: McpServerConfig,
    *,
    settings: McpSettings | None = None,
    open_url: Callable[[str], Awaitable[None]] | None = None,
    say: Callable[[str], None] = print,
    timeout_s: float = DEFAULT_LOGIN_TIMEOUT_S,
    env: Mapping[str, str] | None = None,
    client_secret: str = "",
) -> ServerStatus:
    """Authorize with ``config``'s server anew; its status afterwards (``connected`` on success).

    Any stored token is dropped first, so this always asks the authorization server.
    ``client_secret`` goes with a configured ``oauth.clientId`` (kept in the server's
    private record for later refreshes).
    """
    from hands.mcp.manager import McpManager

    if config.transport not in ("http", "sse"):
        raise LoginError(
            f'The MCP server "{config.name}" is a {config.transport} server; only remote '
            "(http or sse) servers use OAuth."
        )
    settings = settings or McpSettings.from_env(env)
    environ = dict(os.environ if env is None else env)
    record = AuthRecord(settings.auth_dir, config)
    record.update(tokens=None, expires_at=None)
    if client_secret:
        if config.oauth is None or not config.oauth.client_id:
            raise LoginError(
                f'A client secret needs a configured client: add "oauth": {{"clientId": ...}} '
                f"to the entry of {config.name}."
            )
        record.update(client_secret=client_secret)
    port = callback_port(config, record, environ)
    listener = await _listen(config, port, fixed=fixed_port(config, environ))
    async with listener:
        stored = record.redirect_uris()
        if stored and listener.redirect_uri not in stored:
            record.update(client=None)  # registered for another port: register again
        flow = LoginFlow(
            listener=listener, open_url=open_url or browser_opener(say), timeout_s=timeout_s
        )
        manager = McpManager(
            [config], settings=replace(settings, startup_timeout_s=timeout_s + 30), login=flow
        )
        async with manager:
            await manager.wait_ready(limit=timeout_s + 30)
            return manager.status()[0]


async def _listen(config: McpServerConfig, port: int, *, fixed: bool) -> CallbackListener:
    """A listener on ``port`` (entered by the caller); any free port if a preferred one is taken."""
    import socket

    if port:
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the listener
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                if fixed:
                    raise LoginError(
                        f"The OAuth callback port {port} for {config.name} is in use; free it "
                        "or change oauth.callbackPort (or MCP_OAUTH_CALLBACK_PORT)."
                    ) from None
                port = 0
    return CallbackListener(port)


def logout(config: McpServerConfig, *, settings: McpSettings | None = None) -> bool:
    """Forget the stored tokens and client of ``config``; True when there were some."""
    settings = settings or McpSettings.from_env()
    return AuthRecord(settings.auth_dir, config).delete()
