"""A small real OAuth 2.1 authorization server plus an MCP server that requires its tokens.

Run: python oauth_server.py [--as-port A] [--rs-port R] [--ttl S] [--client-id ID
--client-redirect URI [--client-secret S]] [--sse] [--log FILE]

A port left out (or 0) is chosen by the system. Both sockets are bound and listening
before anything else runs; the first line on stdout is ``{"as_port": A, "rs_port": R}``,
so a test never races another process for a port it picked itself.

The authorization server (http://127.0.0.1:A) is the MCP SDK's ``mcp.server.auth``
routes over an in-memory provider: metadata (RFC 8414), dynamic registration, an
authorize endpoint that approves at once and redirects to the client's redirect URI,
and a token endpoint that checks PKCE and issues rotating refresh tokens. Access tokens
live ``--ttl`` seconds and are bound to the resource the client asked for (RFC 8707).
``POST /test/forget-access`` drops every access token (the next call gets 401 with the
client still holding one). Every registration and grant is appended to ``--log`` as a
JSON line.

The MCP server (http://127.0.0.1:R/mcp, answering with JSON rather than event streams,
or /sse with ``--sse``) publishes its protected-resource metadata (RFC 9728) and answers
401 with ``WWW-Authenticate`` until a valid token comes.
"""

from __future__ import annotations

import argparse
import json
import secrets
import socket
import time
from pathlib import Path

import anyio
import uvicorn
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    ProviderTokenVerifier,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.server.auth.routes import create_auth_routes
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from pydantic import AnyHttpUrl, AnyUrl
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

parser = argparse.ArgumentParser()
parser.add_argument("--as-port", type=int, default=0)
parser.add_argument("--rs-port", type=int, default=0)
parser.add_argument("--ttl", type=int, default=3600)
parser.add_argument("--client-id", default="")
parser.add_argument("--client-redirect", default="")
parser.add_argument("--client-secret", default="")
parser.add_argument("--sse", action="store_true")
parser.add_argument("--log", default="")
args = parser.parse_args()


def listening(port: int) -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    return sock


AS_SOCKET, RS_SOCKET = listening(args.as_port), listening(args.rs_port)
AS_PORT, RS_PORT = AS_SOCKET.getsockname()[1], RS_SOCKET.getsockname()[1]
ISSUER = f"http://127.0.0.1:{AS_PORT}"
RESOURCE = f"http://127.0.0.1:{RS_PORT}/{'sse' if args.sse else 'mcp'}"
SCOPE = "mcp"


def log(event: str, **fields: object) -> None:
    if args.log:
        with Path(args.log).open("a", encoding="utf-8") as out:
            out.write(json.dumps({"event": event, **fields}) + "\n")


class Provider:
    """Everything in memory; the user always says yes."""

    def __init__(self) -> None:
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}
        if args.client_id:
            self.clients[args.client_id] = OAuthClientInformationFull(
                client_id=args.client_id,
                redirect_uris=[AnyUrl(args.client_redirect)],
                client_secret=args.client_secret or None,
                token_endpoint_auth_method="client_secret_basic" if args.client_secret else "none",
                scope=SCOPE,
            )

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        assert client_info.client_id is not None
        self.clients[client_info.client_id] = client_info
        log("register", client_id=client_info.client_id,
            redirect_uris=[str(u) for u in client_info.redirect_uris or []])  # fmt: skip

    async def authorize(
        self, client: OAuthClientInformationFull, params: AuthorizationParams
    ) -> str:
        code = secrets.token_urlsafe(24)
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [SCOPE],
            expires_at=time.time() + 300,
            client_id=client.client_id or "",
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        log("authorize", client_id=client.client_id, resource=params.resource)
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> AuthorizationCode | None:
        return self.codes.get(authorization_code)

    def _issue(self, client_id: str, scopes: list[str], resource: str | None) -> OAuthToken:
        access, refresh = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        self.access[access] = AccessToken(
            token=access, client_id=client_id, scopes=scopes,
            expires_at=int(time.time()) + args.ttl, resource=resource,
        )  # fmt: skip
        self.refresh[refresh] = RefreshToken(
            token=refresh, client_id=client_id, scopes=scopes, resource=resource
        )
        return OAuthToken(
            access_token=access, expires_in=args.ttl, scope=" ".join(scopes), refresh_token=refresh
        )

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        self.codes.pop(authorization_code.code, None)
        log("token", grant="authorization_code", client_id=client.client_id,
            resource=authorization_code.resource)  # fmt: skip
        return self._issue(
            client.client_id or "", authorization_code.scopes, authorization_code.resource
        )

    async def load_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: str
    ) -> RefreshToken | None:
        return self.refresh.get(refresh_token)

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        self.refresh.pop(refresh_token.token, None)
        log("token", grant="refresh_token", client_id=client.client_id)
        return self._issue(
            client.client_id or "", scopes or refresh_token.scopes, refresh_token.resource
        )

    async def load_access_token(self, token: str) -> AccessToken | None:
        found = self.access.get(token)
        if found is not None and found.expires_at is not None and found.expires_at < time.time():
            return None
        return found

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)

    async def exchange_identity_assertion(self, *_: object, **__: object) -> OAuthToken:
        raise NotImplementedError


provider = Provider()


async def forget_access(request: Request) -> JSONResponse:
    count = len(provider.access)
    provider.access.clear()
    return JSONResponse({"forgotten": count})


auth_app = Starlette(
    routes=[
        *create_auth_routes(
            provider=provider,
            issuer_url=AnyHttpUrl(ISSUER),
            client_registration_options=ClientRegistrationOptions(
                enabled=True, valid_scopes=[SCOPE], default_scopes=[SCOPE]
            ),
        ),
        Route("/test/forget-access", forget_access, methods=["POST"]),
    ]
)

mcp = MCPServer(
    "guarded",
    token_verifier=ProviderTokenVerifier(provider),  # pyright: ignore[reportArgumentType]
    auth=AuthSettings(
        issuer_url=AnyHttpUrl(ISSUER),
        resource_server_url=AnyHttpUrl(RESOURCE),
        required_scopes=[SCOPE],
        validate_token_resource=True,
    ),
)


@mcp.tool()
def whoami() -> str:
    """Say who the caller is."""
    from mcp.server.auth.middleware.auth_context import get_access_token

    token = get_access_token()
    return f"client {token.client_id if token else '?'} with scopes {token.scopes if token else []}"


arrived: list[int] = []
met = anyio.Event()


@mcp.tool()
async def rendezvous() -> str:
    """Wait (up to 10 s) until a second call of this tool is running too."""
    arrived.append(1)
    if len(arrived) % 2 == 0:
        met.set()
    with anyio.move_on_after(10):
        await met.wait()
        return "met"
    return "alone"


async def main() -> None:
    resource_app = mcp.sse_app() if args.sse else mcp.streamable_http_app(json_response=True)
    servers = [
        (uvicorn.Server(uvicorn.Config(app, log_level="warning")), sock)
        for app, sock in ((auth_app, AS_SOCKET), (resource_app, RS_SOCKET))
    ]
    print(json.dumps({"as_port": AS_PORT, "rs_port": RS_PORT}), flush=True)
    async with anyio.create_task_group() as tg:
        for server, sock in servers:
            tg.start_soon(lambda s=server, k=sock: s.serve(sockets=[k]))


anyio.run(main)
