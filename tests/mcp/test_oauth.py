"""OAuth 2.1 against a real loopback authorization server and an MCP server needing its tokens.

The "browser" is an HTTP client that follows the authorization URL (the login's
``open_url`` hook, or a ``BROWSER`` script for the CLI); everything else is the real flow:
protected-resource and authorization-server metadata, registration, PKCE, the loopback
redirect, the token endpoint, refresh.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import anyio
import pytest
from mcp_helpers import free_port
from oauth_helpers import FOLLOW_BROWSER, Guarded, follow, guarded_server

from hands.errors import ToolError
from hands.mcp.auth_store import AuthRecord
from hands.mcp.config import (
    McpOAuthConfig,
    McpServerConfig,
    McpSettings,
    load_config_file,
    parse_server,
)
from hands.mcp.connection import ServerStatus
from hands.mcp.login import login, logout
from hands.mcp.manager import McpManager
from hands.mcp.oauth import callback_port, default_redirect_uri, fixed_port
from hands.mcp.oauth_provider import RecordStorage, configured_client
from paths import MCP_FIXTURES, needs_claude_configs


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Guarded]:
    with guarded_server(tmp_path_factory.mktemp("oauth")) as server:
        yield server


def settings_in(directory: Path) -> McpSettings:
    return McpSettings(startup_timeout_s=20, auth_dir=directory / "mcp-auth")


def config_for(server: Guarded, name: str = "guard", **fields: object) -> McpServerConfig:
    return parse_server(name, server.entry(**fields), env=os.environ)


def do_login(
    config: McpServerConfig,
    settings: McpSettings,
    browser: Callable[[str], Awaitable[None]] = follow,
) -> ServerStatus:
    return anyio.run(lambda: login(config, settings=settings, open_url=browser, timeout_s=20))


def session_call(config: McpServerConfig, settings: McpSettings) -> tuple[str, str]:
    """Connect as a session would (never interactive); the state and whoami's answer."""

    async def go() -> tuple[str, str]:
        async with McpManager([config], settings=settings) as manager:
            await manager.wait_ready(limit=20)
            state = manager.status()[0].state
            try:
                result = await manager.call_tool(config.name, "whoami", {}, lambda _p: None)
            except ToolError as exc:
                return state, f"error: {exc}"
            return state, result.content[0].text  # type: ignore[union-attr]

    return anyio.run(go)


def client_id(settings: McpSettings, config: McpServerConfig) -> str:
    return AuthRecord(settings.auth_dir, config).read()["client"]["client_id"]


def test_login_stores_a_private_token_that_later_sessions_use(
    guarded: Guarded, tmp_path: Path
) -> None:
    settings, config = settings_in(tmp_path), config_for(guarded)
    status = do_login(config, settings)
    assert status.state == "connected", status.error
    assert set(status.tools) == {"whoami", "rendezvous"}

    record = AuthRecord(settings.auth_dir, config)
    assert stat.S_IMODE(record.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(record.path.parent.stat().st_mode) == 0o700
    assert not [p for p in record.path.parent.iterdir() if p != record.path]  # no temp left
    stored = record.read()
    assert stored["tokens"]["access_token"] and stored["tokens"]["refresh_token"]
    assert stored["expires_at"] > time.time() + 3000

    me = client_id(settings, config)
    registered = [e for e in guarded.events("register") if e["client_id"] == me]
    assert len(registered) == 1
    assert registered[0]["redirect_uris"][0].startswith("http://localhost:")
    (grant,) = [e for e in guarded.events("token") if e["client_id"] == me]
    assert grant["grant"] == "authorization_code"
    assert grant["resource"] == guarded.url  # RFC 8707: the token is bound to this server

    state, answer = session_call(config, settings)
    assert state == "connected"
    assert answer == f"client {me} with scopes ['mcp']"
    assert len([e for e in guarded.events("token") if e["client_id"] == me]) == 1


def test_calls_with_a_token_run_side_by_side(guarded: Guarded, tmp_path: Path) -> None:
    """Each of two calls waits for the other on the server: serialized calls would not meet."""
    settings, config = settings_in(tmp_path), config_for(guarded)
    assert do_login(config, settings).state == "connected"

    async def go() -> list[str]:
        answers: list[str] = []
        async with McpManager([config], settings=settings) as manager:
            await manager.wait_ready(limit=20)

            async def one() -> None:
                result = await manager.call_tool("guard", "rendezvous", {}, lambda _p: None)
                answers.append(result.content[0].text)  # type: ignore[union-attr]

            async with anyio.create_task_group() as tg:
                tg.start_soon(one)
                tg.start_soon(one)
        return answers

    assert anyio.run(go) == ["met", "met"]


def test_without_a_token_a_session_reports_needs_auth_and_registers_nothing(
    guarded: Guarded, tmp_path: Path
) -> None:
    settings, config = settings_in(tmp_path), config_for(guarded, "nobody")
    before = len(guarded.events())
    state, answer = session_call(config, settings)
    assert state == "needs-auth"
    assert answer.startswith("error: ") and "hands mcp login nobody" in answer
    assert len(guarded.events()) == before  # no registration, no authorization
    assert not settings.auth_dir.exists()


def test_a_refused_stored_token_is_refreshed_once_and_the_call_goes_through(
    guarded: Guarded, tmp_path: Path
) -> None:
    settings, config = settings_in(tmp_path), config_for(guarded)
    assert do_login(config, settings).state == "connected"
    me = client_id(settings, config)
    old = AuthRecord(settings.auth_dir, config).read()["tokens"]
    guarded.forget_access_tokens()  # the stored token is still unexpired: the server says 401

    state, answer = session_call(config, settings)
    assert (state, answer) == ("connected", f"client {me} with scopes ['mcp']")
    grants = [e["grant"] for e in guarded.events("token") if e["client_id"] == me]
    assert grants == ["authorization_code", "refresh_token"]
    new = AuthRecord(settings.auth_dir, config).read()["tokens"]
    assert new["access_token"] != old["access_token"]
    assert new["refresh_token"] != old["refresh_token"]  # rotated, and the new one kept


def test_an_expired_token_is_refreshed_before_it_is_sent(tmp_path: Path) -> None:
    with guarded_server(tmp_path, "--ttl", "2") as server:
        settings, config = settings_in(tmp_path), config_for(server)
        assert do_login(config, settings).state == "connected"
        time.sleep(2.2)
        state, answer = session_call(config, settings)
        assert state == "connected" and answer.startswith("client ")
        grants = [e["grant"] for e in server.events("token")]
        # each token lives 2 s: a slow machine may need to refresh more than once
        assert grants[0] == "authorization_code" and len(grants) >= 2
        assert set(grants[1:]) == {"refresh_token"}
        assert len(server.events("authorize")) == 1  # nobody was asked again
        record = AuthRecord(settings.auth_dir, config).read()
        assert record["expires_at"] > time.time() - 1


def test_logout_removes_the_token_and_the_next_session_needs_auth(
    guarded: Guarded, tmp_path: Path
) -> None:
    settings, config = settings_in(tmp_path), config_for(guarded)
    assert do_login(config, settings).state == "connected"
    assert logout(config, settings=settings) is True
    assert not AuthRecord(settings.auth_dir, config).path.exists()
    assert session_call(config, settings)[0] == "needs-auth"
    assert logout(config, settings=settings) is False


def test_a_code_exchanged_with_the_wrong_pkce_verifier_is_refused(
    guarded: Guarded, tmp_path: Path
) -> None:
    """A browser that swaps the challenge: the code no longer matches hands' verifier."""
    settings, config = settings_in(tmp_path), config_for(guarded)
    other = base64.urlsafe_b64encode(hashlib.sha256(b"x" * 64).digest()).decode().rstrip("=")

    async def tampering(url: str) -> None:
        parts = urlsplit(url)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        assert query["code_challenge_method"] == "S256"
        query["code_challenge"] = other
        await follow(urlunsplit(parts._replace(query=urlencode(query))))

    status = do_login(config, settings, tampering)
    assert status.state == "failed"
    assert "400" in status.error and "code_verifier" in status.error
    assert not AuthRecord(settings.auth_dir, config).read().get("tokens")
    me = client_id(settings, config)
    assert [e for e in guarded.events("authorize") if e["client_id"] == me]
    assert not [e for e in guarded.events("token") if e["client_id"] == me]


def test_a_configured_client_id_is_used_instead_of_registering(tmp_path: Path) -> None:
    port = free_port()
    redirect = f"http://localhost:{port}/callback"
    with guarded_server(
        tmp_path, "--client-id", "hands-preset", "--client-redirect", redirect
    ) as s:
        settings = settings_in(tmp_path)
        config = config_for(s, oauth={"clientId": "hands-preset", "callbackPort": port})
        status = do_login(config, settings)
        assert status.state == "connected", status.error
        assert s.events("register") == []
        assert [e["client_id"] for e in s.events("authorize")] == ["hands-preset"]
        assert session_call(config, settings)[1] == "client hands-preset with scopes ['mcp']"


def test_a_configured_client_with_a_secret_authenticates_with_it(tmp_path: Path) -> None:
    port = free_port()
    redirect = f"http://localhost:{port}/callback"
    preset = ("--client-id", "confidential", "--client-redirect", redirect)
    with guarded_server(tmp_path, *preset, "--client-secret", "s3cret") as s:
        config = config_for(s, oauth={"clientId": "confidential", "callbackPort": port})
        wrong = settings_in(tmp_path / "wrong")

        async def attempt(settings: McpSettings, secret: str) -> ServerStatus:
            return await login(
                config, settings=settings, open_url=follow, timeout_s=20, client_secret=secret
            )

        refused = anyio.run(attempt, wrong, "guess")
        assert refused.state == "failed" and "401" in refused.error
        assert not AuthRecord(wrong.auth_dir, config).has_tokens
        right = settings_in(tmp_path / "right")
        assert anyio.run(attempt, right, "s3cret").state == "connected"
        assert s.events("register") == []
        record = AuthRecord(right.auth_dir, config)
        assert record.read()["client_secret"] == "s3cret"
        assert stat.S_IMODE(record.path.stat().st_mode) == 0o600
        assert session_call(config, right)[1] == "client confidential with scopes ['mcp']"


def test_login_and_calls_over_sse(tmp_path: Path) -> None:
    with guarded_server(tmp_path, "--sse") as server:
        settings, config = settings_in(tmp_path), config_for(server)
        assert config.transport == "sse"
        assert session_call(config, settings)[0] == "needs-auth"
        assert do_login(config, settings).state == "connected"
        state, answer = session_call(config, settings)
        assert state == "connected" and answer.startswith("client ")


@needs_claude_configs
def test_the_oauth_block_of_a_real_config_is_honoured(tmp_path: Path) -> None:
    """Slack's entry names a registered client and its fixed callback port."""
    servers, warnings = load_config_file(MCP_FIXTURES / "007.json", env={}, scope="project")
    assert warnings == [] and all(not s.error for s in servers)
    slack = next(s for s in servers if s.name == "slack")
    assert slack.oauth == McpOAuthConfig(
        client_id="1601185624273.8899143856786", callback_port=3118
    )
    assert all(s.oauth is None for s in servers if s.name != "slack")

    record = AuthRecord(tmp_path, slack)
    assert callback_port(slack, record, {}) == 3118 and fixed_port(slack, {})
    assert callback_port(slack, record, {"MCP_OAUTH_CALLBACK_PORT": "4555"}) == 4555
    redirect = default_redirect_uri(slack)
    assert redirect == "http://localhost:3118/callback"
    client = configured_client(slack, redirect)
    assert client is not None and client.redirect_uris is not None
    assert client.client_id == "1601185624273.8899143856786"
    assert [str(u) for u in client.redirect_uris] == [redirect]
    assert client.token_endpoint_auth_method == "none"  # a public client: PKCE, no secret
    storage = RecordStorage(record, client)
    assert anyio.run(storage.get_client_info) is client  # so the SDK never registers
    assert configured_client(next(s for s in servers if s.name == "asana"), redirect) is None


def test_a_bad_oauth_block_makes_the_entry_unusable() -> None:
    entry = {"type": "http", "url": "http://h/mcp", "oauth": {"callbackPort": "80"}}
    bad = parse_server("x", entry, env={})
    assert "callbackPort" in bad.error
    worse = parse_server("x", {"type": "http", "url": "http://h/mcp", "oauth": []}, env={})
    assert '"oauth" must be an object' in worse.error


# -- the command line -----------------------------------------------------------------------


def project_with(tmp_path: Path, server: Guarded) -> tuple[Path, dict[str, str]]:
    project = tmp_path / "project"
    project.mkdir()
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"guard": server.entry()}}))
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json").write_text(
        json.dumps({"enabledMcpjsonServers": ["guard"]})
    )
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "HANDS_HOME": str(tmp_path / "hands-home"),
        "MCP_TIMEOUT": "20000",
    }
    from hands.config.trust import trust

    trust(project, env)  # the server comes from the project's .mcp.json
    return project, env


def hands(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hands", *args], cwd=cwd, env=env, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip


def list_states(project: Path, env: dict[str, str]) -> dict[str, dict[str, object]]:
    listed = hands("mcp", "list", "--json", cwd=project, env=env)
    assert listed.returncode == 0, listed.stderr
    return {s["name"]: s for s in json.loads(listed.stdout)["servers"]}


def test_cli_list_login_logout(guarded: Guarded, tmp_path: Path) -> None:
    project, env = project_with(tmp_path, guarded)
    before = list_states(project, env)["guard"]
    assert before["state"] == "needs-auth" and "hands mcp login guard" in str(before["error"])
    text = hands("mcp", "list", cwd=project, env=env)
    assert "guard:" in text.stdout and "needs-auth" in text.stdout

    browser = tmp_path / "browser"  # BROWSER names one program
    browser.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FOLLOW_BROWSER}" "$@"\n')
    browser.chmod(0o755)
    done = hands("mcp", "login", "guard", cwd=project, env={**env, "BROWSER": str(browser)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Authorized with guard: connected (2 tools)" in done.stdout
    assert guarded.issuer + "/authorize?" in done.stdout  # the URL is printed as well
    tokens = list((tmp_path / "hands-home" / "mcp-auth").iterdir())
    assert len(tokens) == 1 and stat.S_IMODE(tokens[0].stat().st_mode) == 0o600
    assert list_states(project, env)["guard"]["state"] == "connected"

    gone = hands("mcp", "logout", "guard", cwd=project, env=env)
    assert gone.returncode == 0 and "Removed" in gone.stdout
    assert list_states(project, env)["guard"]["state"] == "needs-auth"
    unknown = hands("mcp", "login", "nope", cwd=project, env=env)
    assert unknown.returncode == 1 and "guard" in unknown.stderr


def test_cli_login_prints_the_url_when_no_browser_opens(guarded: Guarded, tmp_path: Path) -> None:
    """No browser here: the user opens the printed URL by hand (the test does, with a client)."""

    project, env = project_with(tmp_path, guarded)
    process = subprocess.Popen(
        [sys.executable, "-m", "hands", "mcp", "login", "guard", "--timeout", "60"],
        cwd=project, env={**env, "BROWSER": "false"}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stdout is not None
    url = ""
    for line in process.stdout:
        if line.startswith(guarded.issuer + "/authorize?"):
            url = line.strip()
            break
    assert url, process.stderr.read() if process.stderr else ""
    anyio.run(follow, url)
    out = process.stdout.read()  # the rest, through the same buffer the loop read from
    assert process.wait(timeout=60) == 0, out + (process.stderr.read() if process.stderr else "")
    assert "No browser could be opened" in out and "Authorized with guard" in out


def test_print_mode_reports_needs_auth_without_blocking(guarded: Guarded, tmp_path: Path) -> None:
    project, env = project_with(tmp_path, guarded)
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"turns": [{"blocks": [{"type": "text", "text": "ok"}]}]}))
    run = hands(
        "-p", "go", "--model", f"scripted:{script}", "--output-format", "stream-json",
        cwd=project,
        env={**env, "MCP_CONNECTION_NONBLOCKING": "0", "MCP_CONNECT_TIMEOUT_MS": "20000"},
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    init = json.loads(run.stdout.splitlines()[0])
    assert init["subtype"] == "init"
    assert {s["name"]: s["status"] for s in init["mcp_servers"]} == {"guard": "needs-auth"}
    assert not any(t.startswith("mcp__guard__") for t in init["tools"])
    assert "hands mcp login guard" in run.stderr


def test_repl_mcp_login_reconnects_the_sessions_server(guarded: Guarded, tmp_path: Path) -> None:
    from io import StringIO

    from rich.console import Console

    from hands.cli.repl_mcp_auth import mcp_auth_command

    settings, config = settings_in(tmp_path), config_for(guarded)
    out = StringIO()
    console = Console(file=out, width=200)

    async def go() -> list[str]:
        async with McpManager([config], settings=settings) as manager:
            await manager.wait_ready(limit=20)
            states = [manager.status()[0].state]
            await mcp_auth_command(console, manager, "login", follow)
            await mcp_auth_command(console, manager, "login guard", follow)
            await manager.wait_ready(limit=20)
            states.append(manager.status()[0].state)
            result = await manager.call_tool("guard", "whoami", {}, lambda _p: None)
            assert result.content[0].text.startswith("client ")  # type: ignore[union-attr]
            await mcp_auth_command(console, manager, "logout guard")
            return states

    assert anyio.run(go) == ["needs-auth", "connected"]
    text = out.getvalue()
    assert "Usage: /mcp login NAME" in text and "Authorized with guard" in text
    assert "Removed the stored authorization of guard" in text
    assert not AuthRecord(settings.auth_dir, config).path.exists()
