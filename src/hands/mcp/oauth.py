"""OAuth 2.1 for remote MCP servers, on the MCP SDK's ``OAuthClientProvider``.

The SDK provider is an ``httpx2.Auth``: on a 401 it follows the MCP authorization spec
(``WWW-Authenticate`` → protected-resource metadata (RFC 9728) → authorization-server
metadata (RFC 8414 / OIDC discovery) → dynamic client registration (RFC 7591) → PKCE S256
authorization code with the ``resource`` parameter (RFC 8707)) and refreshes an expired
token. :class:`~hands.mcp.oauth_provider.HandsOAuth` adds what hands needs around it:

- the tokens, the client and the discovered metadata live in an :class:`AuthRecord`
  (one 0600 file per server), and are restored with their absolute expiry, so a later
  session refreshes without discovering anything again;
- a configured ``oauth.clientId`` is the client (no registration);
- a session never opens a browser: with no usable token, after one refresh attempt
  (on expiry, or on a 401 with a stored token), it raises :class:`NeedsAuth` and the
  server is reported as ``needs-auth`` until ``hands mcp login NAME`` authorizes it.
  Only a :class:`LoginFlow` (the ``login`` command) runs the interactive flow.

The SDK is imported only when a provider is built (at connection time), from
:mod:`hands.mcp.oauth_provider`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast
from urllib.parse import urlsplit

from hands.mcp.auth_store import AuthRecord
from hands.mcp.config import McpServerConfig
from hands.mcp.oauth_callback import CallbackListener

if TYPE_CHECKING:
    import httpx2

CLIENT_NAME = "hands"
FALLBACK_CALLBACK_PORT = 3118
"""The redirect port a session names before any login chose one (never listened on)."""
CALLBACK_PORT_VARIABLE = "MCP_OAUTH_CALLBACK_PORT"


def login_hint(name: str) -> str:
    """What to do about a server that needs authorization."""
    return f"run `hands mcp login {name}` to authorize hands with it"


class NeedsAuth(Exception):
    """The server wants an OAuth authorization and no usable token is stored."""

    def __init__(self, server: str, why: str = "") -> None:
        self.server = server
        detail = f" ({why})" if why else ""
        super().__init__(f"the server asks for authorization{detail}; {login_hint(server)}")


def find_needs_auth(exc: BaseException) -> NeedsAuth | None:
    """The :class:`NeedsAuth` inside ``exc`` (exception groups, causes), if any."""
    seen: set[int] = set()
    todo: list[BaseException] = [exc]
    while todo:
        current = todo.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, NeedsAuth):
            return current
        if isinstance(current, BaseExceptionGroup):
            todo.extend(cast(BaseExceptionGroup[BaseException], current).exceptions)
        for linked in (current.__cause__, current.__context__):
            if linked is not None:
                todo.append(linked)
    return None


@dataclass(frozen=True, kw_only=True, slots=True)
class LoginFlow:
    """The interactive parts of a login: the redirect listener, the browser, the wait."""

    listener: CallbackListener
    open_url: Callable[[str], Awaitable[None]]
    """Shows the authorization URL to the user (opens a browser, prints it)."""
    timeout_s: float = 300.0


def callback_port(config: McpServerConfig, record: AuthRecord, env: dict[str, str]) -> int:
    """The loopback port for the redirect URI.

    Fixed by the environment or the config, else the one the stored registration names,
    else 0 (any free port).
    """
    raw = env.get(CALLBACK_PORT_VARIABLE, "").strip()
    if raw.isdigit() and 0 < int(raw) <= 65535:
        return int(raw)
    if config.oauth is not None and config.oauth.callback_port is not None:
        return config.oauth.callback_port
    for uri in record.redirect_uris():
        port = urlsplit(uri).port
        if port:
            return port
    return 0


def fixed_port(config: McpServerConfig, env: dict[str, str]) -> bool:
    """Whether the port is required (environment or config) rather than a preference."""
    raw = env.get(CALLBACK_PORT_VARIABLE, "").strip()
    return bool(raw.isdigit()) or (
        config.oauth is not None and config.oauth.callback_port is not None
    )


def default_redirect_uri(config: McpServerConfig) -> str:
    """The redirect URI for ``config`` when no login chose a port."""
    port = FALLBACK_CALLBACK_PORT
    if config.oauth is not None and config.oauth.callback_port is not None:
        port = config.oauth.callback_port
    return f"http://localhost:{port}/callback"


def connection_auth(
    config: McpServerConfig, auth_dir: Path, login: LoginFlow | None = None
) -> httpx2.Auth:
    """The auth handler for one connection to the remote server ``config``.

    Without ``login`` it never asks anyone: :class:`NeedsAuth` when authorization is due.
    """
    from hands.mcp.oauth_provider import provider_for

    record = AuthRecord(auth_dir, config)
    if login is not None:
        redirect_uri = login.listener.redirect_uri
    else:
        redirect_uri = next(iter(record.redirect_uris()), default_redirect_uri(config))
    return provider_for(config, record, login, redirect_uri)
