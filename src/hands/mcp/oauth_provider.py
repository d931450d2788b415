"""The MCP SDK's OAuth client provider, kept in a server's :class:`AuthRecord`.

Imported only when a remote connection is made (it imports the SDK); see
:mod:`hands.mcp.oauth` for what it adds to the SDK's flow.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncGenerator
from typing import Any

import anyio
import httpx2
from mcp.client.auth import OAuthClientProvider
from mcp.client.auth.exceptions import OAuthFlowError, OAuthTokenError
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthMetadata,
    OAuthToken,
    ProtectedResourceMetadata,
)
from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
from pydantic import AnyUrl

from hands.mcp.auth_store import AuthRecord
from hands.mcp.config import McpServerConfig
from hands.mcp.oauth import CLIENT_NAME, LoginFlow, NeedsAuth

GRANT_TYPES = ["authorization_code", "refresh_token"]


def configured_client(
    config: McpServerConfig, redirect_uri: str, secret: str = ""
) -> OAuthClientInformationFull | None:
    """The client record for a configured ``oauth.clientId`` (None: register one).

    With a ``secret`` (given at login, kept in the server's record) the client
    authenticates at the token endpoint with HTTP Basic; without, it is a public client.
    """
    if config.oauth is None or not config.oauth.client_id:
        return None
    return OAuthClientInformationFull(
        client_id=config.oauth.client_id,
        client_secret=secret or None,
        client_name=CLIENT_NAME,
        redirect_uris=[AnyUrl(redirect_uri)],
        token_endpoint_auth_method="client_secret_basic" if secret else "none",
        grant_types=list(GRANT_TYPES),
        response_types=["code"],
        scope=config.oauth.scopes or None,
    )


class RecordStorage:
    """The SDK's ``TokenStorage`` over an :class:`AuthRecord`, plus metadata and expiry."""

    def __init__(
        self, record: AuthRecord, configured: OAuthClientInformationFull | None = None
    ) -> None:
        self.record = record
        self.configured = configured

    async def get_tokens(self) -> OAuthToken | None:
        raw = self.record.read().get("tokens")
        return OAuthToken.model_validate(raw) if isinstance(raw, dict) else None

    async def set_tokens(self, tokens: OAuthToken) -> None:
        expires_at = time.time() + int(tokens.expires_in) if tokens.expires_in else None
        self.record.update(
            tokens=tokens.model_dump(mode="json", exclude_none=True), expires_at=expires_at
        )

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        if self.configured is not None:
            return self.configured
        raw = self.record.read().get("client")
        return OAuthClientInformationFull.model_validate(raw) if isinstance(raw, dict) else None

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        if self.configured is None:
            self.record.update(client=client_info.model_dump(mode="json", exclude_none=True))

    def expires_at(self) -> float | None:
        """When the stored access token expires (seconds since the epoch; None: unknown)."""
        value = self.record.read().get("expires_at")
        return float(value) if isinstance(value, int | float) else None

    def metadata(self) -> tuple[OAuthMetadata | None, ProtectedResourceMetadata | None]:
        """The stored authorization-server and protected-resource metadata."""
        data = self.record.read()
        server, resource = data.get("authorization_server"), data.get("resource")
        return (
            OAuthMetadata.model_validate(server) if isinstance(server, dict) else None,
            ProtectedResourceMetadata.model_validate(resource)
            if isinstance(resource, dict)
            else None,
        )

    def set_metadata(
        self, server: OAuthMetadata | None, resource: ProtectedResourceMetadata | None
    ) -> None:
        """Keep what discovery found, so that a later session can refresh directly."""
        self.record.update(
            authorization_server=_dump(server),
            resource=_dump(resource),
        )


def _dump(model: OAuthMetadata | ProtectedResourceMetadata | None) -> dict[str, Any] | None:
    return model.model_dump(mode="json", exclude_none=True) if model is not None else None


class HandsOAuth(OAuthClientProvider):
    """The SDK provider with stored metadata and expiry, and a quiet (session) mode."""

    def __init__(
        self, config: McpServerConfig, storage: RecordStorage, login: LoginFlow | None, uri: str
    ) -> None:
        super().__init__(
            server_url=config.url,
            client_metadata=OAuthClientMetadata(
                client_name=CLIENT_NAME,
                redirect_uris=[AnyUrl(uri)],
                grant_types=list(GRANT_TYPES),
                response_types=["code"],
                token_endpoint_auth_method="none",
                scope=(config.oauth.scopes or None) if config.oauth is not None else None,
            ),
            storage=storage,
            redirect_handler=self._redirect,
            callback_handler=self._callback,
        )
        self.server = config.name
        self.storage = storage
        self.login = login
        self.needs_auth = False
        """Set when a session found that only a login can help."""

    async def _redirect(self, url: str) -> None:
        if self.login is None:
            raise NeedsAuth(self.server)
        await self.login.open_url(url)

    async def _callback(self) -> AuthorizationCodeResult:
        if self.login is None:
            raise NeedsAuth(self.server)
        with anyio.fail_after(self.login.timeout_s):
            got = await self.login.listener.wait()
        return AuthorizationCodeResult(code=got.code, state=got.state, iss=got.iss)

    async def _initialize(self) -> None:
        await super()._initialize()
        self.context.token_expiry_time = self.storage.expires_at()
        server, resource = self.storage.metadata()
        if self.context.oauth_metadata is None:
            self.context.oauth_metadata = server
        if self.context.protected_resource_metadata is None and resource is not None:
            self.context.protected_resource_metadata = resource
            if resource.authorization_servers:
                self.context.auth_server_url = str(resource.authorization_servers[0])

    async def _handle_token_response(self, response: httpx2.Response) -> None:
        await super()._handle_token_response(response)
        self.storage.set_metadata(
            self.context.oauth_metadata, self.context.protected_resource_metadata
        )

    def _auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        if self.login is not None:
            return super()._auth_flow(request)
        return self._quiet_flow(request)

    async def _quiet_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        """The stored token, refreshed when expired or refused once; never interactive.

        The lock covers loading and refreshing only, so calls in flight run side by side;
        a call refused with a token another call already replaced is retried with the new
        one instead of spending the (rotated) refresh token again.
        """
        refreshed = False
        async with self.context.lock:
            if not self._initialized:
                await self._initialize()
            self.context.protocol_version = request.headers.get(MCP_PROTOCOL_VERSION_HEADER)
            if not self.context.is_token_valid() and self.context.can_refresh_token():
                refreshed = await self._refresh_ok((yield await self._refresh_token()))
            sent = self._bearer(request)
        response = yield request
        if not _refused(response):
            return
        async with self.context.lock:
            current = self.context.current_tokens
            if current is not None and current.access_token != sent:
                renewed = True  # another call refreshed meanwhile
            elif not refreshed and self.context.can_refresh_token():
                renewed = await self._refresh_ok((yield await self._refresh_token()))
            else:
                renewed = False
            if renewed:
                self._bearer(request)
        if renewed:
            response = yield request
            if not _refused(response):
                return
        self.needs_auth = True
        why = "the stored token was refused" if self.context.current_tokens else ""
        raise NeedsAuth(self.server, why)

    def _bearer(self, request: httpx2.Request) -> str | None:
        """Put the current access token on ``request`` (if there is a valid one); it."""
        if not self.context.is_token_valid() or self.context.current_tokens is None:
            return None
        self._add_auth_header(request)
        return self.context.current_tokens.access_token

    async def _refresh_ok(self, response: httpx2.Response) -> bool:
        try:
            return await self._handle_refresh_response(response)
        except (OAuthTokenError, OAuthFlowError):
            self.context.clear_tokens()
            return False


def _refused(response: httpx2.Response) -> bool:
    """A 401, or a 403 asking for more scope: authorization is needed."""
    if response.status_code == 401:
        return True
    challenge = response.headers.get("www-authenticate", "")
    return response.status_code == 403 and "insufficient_scope" in challenge


def provider_for(
    config: McpServerConfig, record: AuthRecord, login: LoginFlow | None, redirect_uri: str
) -> HandsOAuth:
    """The provider for one connection (``login``: interactive; None: a session)."""
    _quiet_sdk_log()
    secret = record.read().get("client_secret")
    configured = configured_client(config, redirect_uri, secret if isinstance(secret, str) else "")
    storage = RecordStorage(record, configured)
    return HandsOAuth(config, storage, login, redirect_uri)


def _quiet_sdk_log() -> None:
    """The SDK logs a failed flow with its traceback; hands reports the failure itself.

    A null handler keeps Python's last-resort handler from printing it to the user's
    terminal; a handler hands installs (``--debug``) still receives it.
    """
    sdk = logging.getLogger("mcp.client.auth")
    if not any(isinstance(h, logging.NullHandler) for h in sdk.handlers):
        sdk.addHandler(logging.NullHandler())
