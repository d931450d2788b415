"""MCP configuration: expansion, entry shapes, precedence, and the real .mcp.json files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hands.mcp.config import (
    McpServerConfig,
    McpSettings,
    approval_from_settings,
    approval_without_asking,
    expand_vars,
    load_config_file,
    load_mcp_config,
    parse_server,
)
from hands.mcp.naming import split_name, tool_name
from hands.mcp.tools import flatten_schema
from paths import MCP_FIXTURES, needs_claude_configs

FIXTURES = MCP_FIXTURES


def test_expand_vars() -> None:
    env = {"A": "1", "EMPTY": ""}
    assert expand_vars("x${A}y", env) == ("x1y", [])
    assert expand_vars("${B:-dflt}", env) == ("dflt", [])
    assert expand_vars("${EMPTY:-dflt}", env) == ("dflt", [])
    assert expand_vars("${EMPTY}", env) == ("", [])
    assert expand_vars("${B:-}", env) == ("", [])
    assert expand_vars("Bearer ${NOPE}", env) == ("Bearer ${NOPE}", ["NOPE"])
    assert expand_vars("Basic ${input:jenkins}", env) == ("Basic ${input:jenkins}", [])
    assert expand_vars("TFE_TOKEN=${A}", env) == ("TFE_TOKEN=1", [])


def test_entry_shapes() -> None:
    env = {"TOKEN": "t"}
    stdio = parse_server(
        "s", {"command": "npx", "args": ["-y", "${TOKEN}"], "env": {"K": "${TOKEN}"}}, env=env
    )
    assert (stdio.transport, stdio.command, stdio.args, dict(stdio.env)) == (
        "stdio",
        "npx",
        ("-y", "t"),
        {"K": "t"},
    )
    http = parse_server(
        "h",
        {
            "type": "http",
            "url": "https://x/mcp",
            "headers": {"Authorization": "Bearer ${TOKEN}"},
            "timeout": 5000,
            "alwaysLoad": True,
        },
        env=env,
    )
    assert http.transport == "http" and http.headers["Authorization"] == "Bearer t"
    assert http.timeout_ms == 5000 and http.always_load
    assert parse_server("t", {"command": "x", "timeout": 500}, env=env).timeout_ms is None
    sse = parse_server("e", {"type": "sse", "url": "https://x/sse"}, env=env)
    assert sse.transport == "sse" and not sse.error
    assert "command" in parse_server("bad", {"type": "stdio"}, env=env).error
    assert "url" in parse_server("bad", {"type": "http"}, env=env).error
    assert "unknown" in parse_server("bad", {"type": "carrier-pigeon", "url": "x"}, env=env).error
    assert "not supported" in parse_server("w", {"type": "ws", "url": "ws://x"}, env=env).error
    unset = parse_server("u", {"command": "x", "args": ["${MISSING}"]}, env={})
    assert unset.args == ("${MISSING}",) and "MISSING" in unset.warnings[0]


def test_precedence_and_scopes(tmp_path: Path) -> None:
    home = tmp_path / "home"
    hands_home = tmp_path / "hands-home"
    project = tmp_path / "repo"
    sub = project / "pkg"
    for d in (home, hands_home, sub):
        d.mkdir(parents=True)
    entry = lambda tag: {"command": "echo", "args": [tag]}  # noqa: E731
    (home / ".claude.json").write_text(
        json.dumps(
            {
                "mcpServers": {"shared": entry("user-claude"), "useronly": entry("user")},
                "projects": {str(sub): {"mcpServers": {"shared": entry("local")}}},
            }
        )
    )
    (hands_home / "mcp.json").write_text(
        json.dumps({"mcpServers": {"handsuser": entry("hands"), "useronly": entry("hands-user")}})
    )
    (project / ".mcp.json").write_text(
        json.dumps(
            {
                "mcpServers": {
                    "shared": entry("project"),
                    "proj": entry("p-root"),
                    "near": entry("far"),
                }
            }
        )
    )
    (sub / ".mcp.json").write_text(json.dumps({"near": entry("near")}))  # top-level map form
    env = {"HOME": str(home), "HANDS_HOME": str(hands_home)}
    config = load_mcp_config(sub, env=env, extra={"lib": entry("lib")})
    got = {s.name: (s.scope, s.args[0]) for s in config.servers}
    assert got == {
        "lib": ("dynamic", "lib"),
        "shared": ("local", "local"),
        "near": ("project", "near"),
        "proj": ("project", "p-root"),
        "handsuser": ("user", "hands"),
        "useronly": ("user", "hands-user"),
    }
    # project approval from settings keys
    values = {"enabledMcpjsonServers": ["proj"], "disabledMcpjsonServers": ["near"]}
    approved = load_mcp_config(
        sub, env=env, approve_project=approval_from_settings(values.get, trusted=True)
    )
    assert "proj" in {s.name for s in approved.servers}
    assert [s.name for s in approved.disabled] == ["near"]
    assert approved.needs_approval == ()
    asked = load_mcp_config(
        sub, env=env, approve_project=approval_from_settings({}.get, trusted=True)
    )
    assert {s.name for s in asked.needs_approval} == {"near", "proj"}
    # an untrusted workspace's project servers stay off, whatever the settings approve
    for approve in (approval_from_settings, approval_without_asking):
        refuse = approve(values.get, trusted=False)
        off = load_mcp_config(sub, env=env, approve_project=refuse)
        assert {s.name for s in off.disabled} == {"near", "proj"}
        assert not {s.scope for s in off.servers} & {"project"}
    # a broken file is a warning, not a crash
    (project / ".mcp.json").write_text("{not json")
    broken = load_mcp_config(sub, env=env)
    assert any("not valid JSON" in w for w in broken.warnings)


def test_settings_from_env() -> None:
    s = McpSettings.from_env(
        {"MCP_TIMEOUT": "5000", "MAX_MCP_OUTPUT_TOKENS": "100", "MCP_TOOL_TIMEOUT": "x"}
    )
    assert s.startup_timeout_s == 5 and s.max_output_tokens == 100
    assert s.tool_timeout_s is None  # not a number: unset
    assert s.default_tool_timeout_s == 600  # the session's tool limit, as for any tool


def test_mcp_calls_default_to_the_session_tool_limit() -> None:
    s = McpSettings.from_env({"HANDS_TOOL_TIMEOUT_MS": "1500"})
    assert s.tool_timeout_s is None and s.default_tool_timeout_s == 1.5
    own = McpSettings.from_env({"HANDS_TOOL_TIMEOUT_MS": "1500", "MCP_TOOL_TIMEOUT": "90000"})
    assert own.tool_timeout_s == 90


def test_naming() -> None:
    assert tool_name("github", "create_issue") == "mcp__github__create_issue"
    assert tool_name("my server", "do.it/now") == "mcp__my_server__do_it_now"
    long = tool_name("s" * 30, "t" * 60)
    assert len(long) == 64 and long.startswith("mcp__" + "s" * 30 + "__")
    assert long != tool_name("s" * 30, "t" * 59 + "u")
    assert split_name("mcp__grep-app__search") == ("grep-app", "search")
    assert split_name("Read") is None


def test_flatten_root_unions() -> None:
    schema = {
        "type": "object",
        "properties": {"common": {"type": "string"}},
        "oneOf": [
            {"properties": {"id": {"type": "integer"}}, "required": ["id"]},
            {"properties": {"name": {"type": "string"}}, "required": ["name"]},
        ],
    }
    flat, note = flatten_schema(schema)
    assert "oneOf" not in flat and flat["type"] == "object"
    assert set(flat["properties"]) == {"common", "id", "name"}
    assert "required" not in flat
    assert "exactly one" in note and "(1) id" in note
    all_of, _ = flatten_schema(
        {"allOf": [{"properties": {"a": {}}, "required": ["a"]}, {"properties": {"b": {}}}]}
    )
    assert all_of["required"] == ["a"] and set(all_of["properties"]) == {"a", "b"}
    plain = {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}
    assert flatten_schema(plain) == (plain, "")


def _fixture_files() -> list[Path]:
    return sorted(FIXTURES.glob("*.json")) if FIXTURES.is_dir() else []


@needs_claude_configs
def test_every_real_mcp_json_loads() -> None:
    files = _fixture_files()
    assert len(files) == 25
    env = {"GITHUB_TOKEN": "ghp_x", "AWS_REGION": "eu-west-1", "CLAUDE_PROJECT_DIR": "/proj"}
    total = 0
    for path in files:
        servers, warnings = load_config_file(path, env=env, scope="project")
        raw = json.loads(path.read_text())
        wrapped = raw.get("mcpServers", raw) if isinstance(raw, dict) else {}
        expected = {k for k, v in wrapped.items() if isinstance(v, dict)}
        assert {s.name for s in servers} == expected, path.name
        for server in servers:
            assert not server.error, (path.name, server.name, server.error)
            assert server.transport in ("stdio", "http", "sse")
            if server.transport == "stdio":
                assert server.command
            else:
                assert server.url.startswith("http")
        assert not [w for w in warnings if "ignored" in w and "_comment" not in w], warnings
        total += len(servers)
    assert total == 44  # the README counts 19 + 15 + 9 + 1 server shapes
    by_file = {p.name: load_config_file(p, env=env)[0] for p in files}
    # expansion at each place the files use it
    github = next(s for s in by_file["001.json"] if s.name == "github")
    assert github.env["GITHUB_PERSONAL_ACCESS_TOKEN"] == "ghp_x"
    semantic = next(s for s in by_file["002.json"] if s.name == "semantic-scholar")
    assert semantic.env["SEMANTIC_SCHOLAR_API_KEY"] == ""
    aws = next(s for s in by_file["004.json"] if s.name == "postgres")
    assert aws.env["AWS_REGION"] == "eu-west-1" and aws.env["DATABASE_URL"] == "${DATABASE_URL}"
    assert any("DATABASE_URL" in w for w in aws.warnings)
    jenkins = by_file["005.json"][0]
    assert jenkins.headers["Authorization"] == "Basic ${input:jenkins-basic-auth}"
    assert by_file["006.json"][0].transport == "sse"
    assert by_file["009.json"][0].args[-1] == "/proj"
    assert by_file["015.json"] == []
    assert [s.name for s in by_file["016.json"]] == ["vision-link"]
    terraform = by_file["022.json"][0]
    assert any(a.startswith("TFE_TOKEN=") for a in terraform.args)
    plugin = by_file["023.json"][0]
    assert "${CLAUDE_PLUGIN_ROOT}" in " ".join(plugin.args)


def test_server_policy_entries_match_name_command_and_url() -> None:
    from hands.mcp.server_policy import ServerPolicy

    settings = {
        "allowedMcpServers": [
            {"serverName": "memory"},
            {"serverCommand": ["npx", "-y", "@modelcontextprotocol/server-git"]},
            {"serverUrl": "https://*.example.com/*"},
        ],
        "deniedMcpServers": [{"serverUrl": "https://bad.example.com/*"}],
    }
    policy = ServerPolicy.from_settings(settings.get)

    def server(name: str, entry: object) -> McpServerConfig:
        return parse_server(name, entry, env={})

    assert policy.blocked(server("memory", {"command": "anything"})) is None
    git = {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-git"]}
    assert policy.blocked(server("git", git)) is None
    other = {"command": "npx", "args": ["-y", "something-else"]}
    assert "allowedMcpServers" in (policy.blocked(server("x", other)) or "")
    ok = {"type": "http", "url": "https://api.example.com/mcp"}
    assert policy.blocked(server("api", ok)) is None
    bad = {"type": "http", "url": "https://bad.example.com/mcp"}
    assert "deniedMcpServers" in (policy.blocked(server("bad", bad)) or "")
    assert ServerPolicy.from_settings({}.get).blocked(server("any", other)) is None
    assert ServerPolicy.from_settings({"allowedMcpServers": []}.get).blocked(server("any", other))


def test_the_fixtures_allowed_servers_are_read() -> None:
    from hands.mcp.server_policy import ServerPolicy

    path = FIXTURES.parent / "settings" / "055.json"
    if not path.is_file():
        pytest.skip("the shared settings fixtures are absent")
    data = json.loads(path.read_text())
    policy = ServerPolicy.from_settings(data.get)
    assert policy.blocked(parse_server("memory", {"command": "x"}, env={})) is None
    assert policy.blocked(parse_server("grep-app", {"command": "x"}, env={})) is None
    assert policy.blocked(parse_server("github", {"command": "x"}, env={})) is not None


@pytest.mark.parametrize(
    "url", ["not a url", "localhost:8080/mcp", "ftp://host/mcp", "http://host:port/", "https:///x"]
)
def test_a_server_url_that_is_not_http_is_a_configuration_error(tmp_path: Path, url: str) -> None:
    (tmp_path / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"w": {"type": "http", "url": url}}})
    )
    found = load_mcp_config(
        tmp_path, env={"HOME": str(tmp_path), "HANDS_HOME": str(tmp_path / "h")}
    )
    (server,) = found.servers
    assert "is not a valid URL" in server.error and server.url == url
    assert server.transport == "http"


def test_a_config_file_that_is_not_json_is_named_as_broken(tmp_path: Path) -> None:
    path = tmp_path / ".mcp.json"
    path.write_text('{"mcpServers": {"a": {"command": "x"}\n')
    found = load_mcp_config(
        tmp_path, env={"HOME": str(tmp_path), "HANDS_HOME": str(tmp_path / "h")}
    )
    assert found.servers == ()
    ((where, problem),) = found.broken
    assert where == path and problem.startswith("not valid JSON (line 2, column 1")
    assert any(w.startswith(f"{path}: not valid JSON") for w in found.warnings)
