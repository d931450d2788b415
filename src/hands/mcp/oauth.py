"""OAuth 2.1 for remote MCP servers, on the MCP SDK's ``OAuthClientProvider``.

The SDK provider is an ``httpx2.Auth``: on a 401 it follows the MCP authorization spec
(``WWW-Authenticate`` → protected-resource metadata (RFC 9728) → authorization-server
metadata (RFC 8414 / OIDC discovery) → dynamic client registration (RFC 7591) → PKCE S256
authorization code with the ``resource`` parameter (RFC 8707)) and refreshes an expired
token. :class:`HandsOAuth` adds what hands needs around it:

- the tokens, the client and the discovered metadata live in an :class:`AuthRecord`
  (one 0600 file per server), and are restored with their absolute expiry, so a later
  session refreshes without discovering anything again;
- a configured ``oauth.clientId`` is the client (no registration);
- a session never opens a browser: with no usable token, after one refresh attempt
  (on expiry, or on a 401 with a stored token), it raises :class:`NeedsAuth` and the
  server is reported as ``needs-auth`` until ``hands mcp login NAME`` authorizes it.
  Only a :class:`LoginFlow` (the ``login`` command) runs the interactive flow.

The SDK is imported only when a provider is built (at connection time).
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
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
    """The loopback port for the redirect URI: fixed by the environment or the config,
    else the one the stored registration names, else 0 (any free port)."""
    raw = env.get(CALLBACK_PORT_VARIABLE, "").strip()
    if raw.isdigit() and 0 < int(raw) <= 65535:
        return int(raw)
    if config.oauth is not None and config.oauth.callback_port is not None:
        return config.oauth.callback_port
    client = record.read().get("client")
    if isinstance(client, dict):
        for uri in cast(dict[str, Any], client).get("redirect_uris") or []:
            port = urlsplit(str(uri)).port
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


def configured_client(config: McpServerConfig, redirect_uri: str) -> Any | None:
    """The SDK client record for a configured ``oauth.clientId`` (None: register)."""
    if config.oauth is None or not config.oauth.client_id:
        return None
    from mcp.shared.auth import OAuthClientInformationFull
    from pydantic import AnyUrl

    return OAuthClientInformationFull(
        client_id=config.oauth.client_id,
        client_name=CLIENT_NAME,
        redirect_uris=[AnyUrl(redirect_uri)],
        token_endpoint_auth_method="none",
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        scope=config.oauth.scopes or None,
    )


class RecordStorage:
    """The SDK's ``TokenStorage`` over an :class:`AuthRecord`, plus metadata and expiry."""

    def __init__(self, record: AuthRecord, configured: Any | None = None) -> None:
        self.record = record
        self.configured = configured

    async def get_tokens(self) -> Any | None:
        from mcp.shared.auth import OAuthToken

        raw = self.record.read().get("tokens")
        return OAuthToken.model_validate(raw) if isinstance(raw, dict) else None

    async def set_tokens(self, tokens: Any) -> None:
        expires_at = time.time() + int(tokens.expires_in) if tokens.expires_in else None
        self.record.update(
            tokens=tokens.model_dump(mode="json", exclude_none=True), expires_at=expires_at
        )

    async def get_client_info(self) -> Any | None:
        from mcp.shared.auth import OAuthClientInformationFull

        if self.configured is not None:
            return self.configured
        raw = self.record.read().get("client")
        return OAuthClientInformationFull.model_validate(raw) if isinstance(raw, dict) else None

    async def set_client_info(self, client_info: Any) -> None:
        if self.configured is None:
            self.record.update(client=client_info.model_dump(mode="json", exclude_none=True))

    def expires_at(self) -> float | None:
        value = self.record.read().get("expires_at")
        return float(value) if isinstance(value, int | float) else None

    def metadata(self) -> tuple[Any | None, Any | None]:
        """The stored authorization-server and protected-resource metadata."""
        from mcp.shared.auth import OAuthMetadata, ProtectedResourceMetadata

        data = self.record.read()
        server, resource = data.get("authorization_server"), data.get("resource")
        return (
            OAuthMetadata.model_validate(server) if isinstance(server, dict) else None,
            ProtectedResourceMetadata.model_validate(resource)
            if isinstance(resource, dict)
            else None,
        )

    def set_metadata(self, server: Any | None, resource: Any | None) -> None:
        self.record.update(
            authorization_server=server.model_dump(mode="json", exclude_none=True)
            if server is not None
            else None,
            resource=resource.model_dump(mode="json", exclude_none=True)
            if resource is not None
            else None,
        )


def connection_auth(
    config: McpServerConfig, auth_dir: Path, login: LoginFlow | None = None
) -> httpx2.Auth:
    """The auth handler for one connection to the remote server ``config``.

    Without ``login`` it never asks anyone: :class:`NeedsAuth` when authorization is due.
    """
    from mcp.client.auth import OAuthClientProvider
    from mcp.client.auth.exceptions import OAuthFlowError, OAuthTokenError
    from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata
    from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
    from pydantic import AnyUrl

    record = AuthRecord(auth_dir, config)
    redirect_uri = login.listener.redirect_uri if login is not None else _stored_redirect(record)
    redirect_uri = redirect_uri or default_redirect_uri(config)
    configured = configured_client(config, redirect_uri)
    storage = RecordStorage(record, configured)
    metadata = OAuthClientMetadata(
        client_name=CLIENT_NAME,
        redirect_uris=[AnyUrl(redirect_uri)],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
        scope=(config.oauth.scopes or None) if config.oauth is not None else None,
    )

    async def redirect(url: str) -> None:
        if login is None:
            raise NeedsAuth(config.name)
        await login.open_url(url)

    async def callback() -> AuthorizationCodeResult:
        import anyio

        if login is None:
            raise NeedsAuth(config.name)
        with anyio.fail_after(login.timeout_s):
            got = await login.listener.wait()
        return AuthorizationCodeResult(code=got.code, state=got.state, iss=got.iss)

    class HandsOAuth(OAuthClientProvider):
        """The SDK provider with stored metadata and expiry, and a quiet mode."""

        needs_auth = False

        async def _initialize(self) -> None:
            await super()._initialize()
            self.context.token_expiry_time = storage.expires_at()
            server, resource = storage.metadata()
            if self.context.oauth_metadata is None:
                self.context.oauth_metadata = server
            if self.context.protected_resource_metadata is None:
                self.context.protected_resource_metadata = resource
                if resource is not None and resource.authorization_servers:
                    self.context.auth_server_url = str(resource.authorization_servers[0])

        async def _handle_token_response(self, response: httpx2.Response) -> None:
            await super()._handle_token_response(response)
            storage.set_metadata(
                self.context.oauth_metadata, self.context.protected_resource_metadata
            )

        def _auth_flow(
            self, request: httpx2.Request
        ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
            if login is not None:
                return super()._auth_flow(request)
            return self._quiet_flow(request)

        async def _quiet_flow(
            self, request: httpx2.Request
        ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
            """Stored token, refreshed when expired or refused once; never interactive."""
            async with self.context.lock:
                if not self._initialized:
                    await self._initialize()
                self.context.protocol_version = request.headers.get(MCP_PROTOCOL_VERSION_HEADER)
                refreshed = False
                if not self.context.is_token_valid() and self.context.can_refresh_token():
                    refreshed = await self._handle_refresh_response(
                        (yield await self._refresh_token())
                    )
                if self.context.is_token_valid():
                    self._add_auth_header(request)
                response = yield request
                if not _refused(response):
                    return
                if not refreshed and self.context.can_refresh_token():
                    try:
                        ok = await self._handle_refresh_response(
                            (yield await self._refresh_token())
                        )
                    except (OAuthTokenError, OAuthFlowError):
                        ok = False
                    if ok:
                        self._add_auth_header(request)
                        response = yield request
                        if not _refused(response):
                            return
                self.needs_auth = True
                why = "the stored token was refused" if self.context.current_tokens else ""
                raise NeedsAuth(config.name, why)

    return HandsOAuth(
        server_url=config.url,
        client_metadata=metadata,
        storage=storage,
        redirect_handler=redirect,
        callback_handler=callback,
    )


def _refused(response: httpx2.Response) -> bool:
    """A 401, or a 403 asking for more scope: authorization is needed."""
    if response.status_code == 401:
        return True
    return response.status_code == 403 and "insufficient_scope" in response.headers.get(
        "www-authenticate", ""
    )


def _stored_redirect(record: AuthRecord) -> str:
    client = record.read().get("client")
    if isinstance(client, dict):
        uris = cast(dict[str, Any], client).get("redirect_uris") or []
        if uris:
            return str(uris[0])
    return ""


def environment() -> dict[str, str]:
    """The process environment as a plain dict (for :func:`callback_port`)."""
    return dict(os.environ)
