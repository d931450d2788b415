"""MCP server configuration: ``.mcp.json``, ``~/.hands/mcp.json``, ``~/.claude.json``.

Every entry shape Claude Code accepts is read: stdio (``command``, ``args``, ``env``),
``type: "http"`` / ``"sse"`` (``url``, ``headers``, ``headersHelper``, ``oauth``),
``timeout`` and ``alwaysLoad``, with ``${VAR}`` and ``${VAR:-default}`` expanded in the
command, arguments, environment, URL and headers. A file may wrap its servers in ``mcpServers``
or list them at the top level (the plugin format). Nothing here imports the MCP SDK.

Precedence for a name defined in several places (the whole entry from one source, never
merged): library (``extra``) > local (``~/.claude.json`` under the project path) >
project (``.mcp.json``, the nearest first) > user (``~/.hands/mcp.json``, then
``~/.claude.json``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, TypeAlias, cast

from hands.core.limits import DEFAULT_TOOL_TIMEOUT_S, Limits, hands_home

SamplingPolicy: TypeAlias = Literal["ask", "auto", "off"]
"""A server entry's ``"sampling"``: ask the user (default), serve without asking, never offer."""
SAMPLING_POLICIES: tuple[SamplingPolicy, ...] = ("ask", "auto", "off")

Transport: TypeAlias = Literal["stdio", "http", "sse", "ws", "sdk"]
Scope: TypeAlias = Literal["dynamic", "local", "project", "user"]

SCOPE_ORDER: tuple[Scope, ...] = ("dynamic", "local", "project", "user")
DEFAULT_STARTUP_TIMEOUT_MS = 30_000
DEFAULT_MAX_OUTPUT_TOKENS = 25_000
DEFAULT_CONNECT_WAIT_MS = 5_000

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}")
_TRANSPORT_ALIASES: dict[str, Transport] = {
    "stdio": "stdio",
    "http": "http",
    "streamable-http": "http",
    "streamable_http": "http",
    "streamableHttp": "http",
    "sse": "sse",
    "ws": "ws",
    "sdk": "sdk",
}


@dataclass(frozen=True, kw_only=True, slots=True)
class McpOAuthConfig:
    """The ``oauth`` block of a remote server's entry: a client registered beforehand."""

    client_id: str = ""
    """``clientId``: used instead of dynamic client registration when set."""
    callback_port: int | None = None
    """``callbackPort``: the fixed loopback port of the redirect URI."""
    scopes: str = ""
    """``scopes``: the scopes to ask for when the server names none."""


@dataclass(frozen=True, kw_only=True, slots=True)
class McpServerConfig:
    """One server entry, expanded and checked.

    ``error`` is set when the entry cannot be used as written (no command, unknown type);
    such a server is reported as failed with that reason and never started.
    """

    name: str
    transport: Transport = "stdio"
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=lambda: dict[str, str]())
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=lambda: dict[str, str]())
    headers_helper: str = ""
    """``headersHelper``: a command printing more headers as JSON, run at each connection."""
    oauth: McpOAuthConfig | None = None
    """``oauth``: how to authorize with a remote server that asks for it (None: defaults)."""
    timeout_ms: int | None = None
    """Per-request time limit for this server's tool calls (``timeout``; under 1000 ignored)."""
    always_load: bool = False
    sampling: SamplingPolicy = "ask"
    """``"sampling"``: how its ``sampling/createMessage`` requests are approved."""
    scope: Scope = "dynamic"
    source: str = "library"
    """The file this entry came from (or ``library``)."""
    cwd: Path | None = None
    """Where a stdio server is started (the project directory)."""
    description: str = ""
    warnings: tuple[str, ...] = ()
    error: str = ""

    @property
    def target(self) -> str:
        """The command line or URL, for status listings."""
        if self.transport == "stdio":
            return " ".join([self.command, *self.args]).strip()
        if self.transport == "sdk":
            return "in the SDK program"
        return self.url


@dataclass(frozen=True, kw_only=True, slots=True)
class McpSettings:
    """Timeouts and caps from the environment (``MCP_TIMEOUT`` and friends)."""

    startup_timeout_s: float = DEFAULT_STARTUP_TIMEOUT_MS / 1000
    tool_timeout_s: float | None = None
    """``MCP_TOOL_TIMEOUT``: the limit of every MCP tool call, when set (a server's own
    ``timeout`` can only shorten it)."""
    default_tool_timeout_s: float = DEFAULT_TOOL_TIMEOUT_S
    """The limit of a call when neither ``MCP_TOOL_TIMEOUT`` nor the server's ``timeout``
    sets one: the session's tool time limit (``HANDS_TOOL_TIMEOUT_MS``), as for every
    other tool."""
    max_output_tokens: int = DEFAULT_MAX_OUTPUT_TOKENS
    connect_batch: int = 16
    reconnect_attempts: int = 3
    """Reconnect attempts for a stdio server that went away (remote ones: no limit)."""
    reconnect_cap_s: float = 30.0
    """The longest pause between two reconnect attempts."""
    connect_wait_s: float = DEFAULT_CONNECT_WAIT_MS / 1000
    """``MCP_CONNECT_TIMEOUT_MS``: how long the first request waits for the servers it
    waits for (``alwaysLoad`` ones, or every one with ``MCP_CONNECTION_NONBLOCKING=0``)."""
    nonblocking: bool = True
    """``MCP_CONNECTION_NONBLOCKING``: false makes the first request wait for every server."""
    auth_dir: Path = field(default_factory=lambda: hands_home() / "mcp-auth")
    """Where OAuth tokens are kept, one file per server (``$HANDS_HOME/mcp-auth``)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> McpSettings:
        """Read ``MCP_TIMEOUT``, ``MCP_TOOL_TIMEOUT``, ``MAX_MCP_OUTPUT_TOKENS``, ..."""
        env = os.environ if env is None else env
        return cls(
            startup_timeout_s=_int(env, "MCP_TIMEOUT", DEFAULT_STARTUP_TIMEOUT_MS) / 1000,
            tool_timeout_s=_optional_ms(env, "MCP_TOOL_TIMEOUT"),
            default_tool_timeout_s=Limits.from_env(env).tool_timeout_s,
            max_output_tokens=_int(env, "MAX_MCP_OUTPUT_TOKENS", DEFAULT_MAX_OUTPUT_TOKENS),
            connect_batch=_int(env, "MCP_SERVER_CONNECTION_BATCH_SIZE", 16),
            connect_wait_s=_int(env, "MCP_CONNECT_TIMEOUT_MS", DEFAULT_CONNECT_WAIT_MS) / 1000,
            nonblocking=env.get("MCP_CONNECTION_NONBLOCKING", "").strip().lower()
            not in ("0", "false", "no", "off"),
            auth_dir=hands_home(env) / "mcp-auth",
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class McpConfigSet:
    """Every server that applies to a project, strongest source first, plus warnings."""

    servers: tuple[McpServerConfig, ...] = ()
    warnings: tuple[str, ...] = ()
    files: tuple[Path, ...] = ()
    needs_approval: tuple[McpServerConfig, ...] = ()
    blocked: tuple[tuple[McpServerConfig, str], ...] = ()
    """Servers the settings do not let run, with why (``allowedMcpServers``...)."""
    """Project servers not (yet) approved: listed, never started."""
    disabled: tuple[McpServerConfig, ...] = ()
    """Project servers switched off by ``disabledMcpjsonServers``."""
    broken: tuple[tuple[Path, str], ...] = ()
    """Config files that could not be read or decoded, with what is wrong: none of
    their servers start."""

    def get(self, name: str) -> McpServerConfig | None:
        """The server called ``name``, if it is to be started."""
        return next((s for s in self.servers if s.name == name), None)


def _optional_ms(env: Mapping[str, str], key: str) -> float | None:
    """A positive number of milliseconds in ``env[key]``, in seconds; None when unset."""
    value = _int(env, key, 0)
    return value / 1000 if value > 0 else None


def _int(env: Mapping[str, str], key: str, default: int) -> int:
    raw = env.get(key, "").strip()
    try:
        value = int(raw) if raw else default
    except ValueError:
        return default
    return value if value > 0 else default


# -- variable expansion -----------------------------------------------------------------


def expand_vars(text: str, env: Mapping[str, str]) -> tuple[str, list[str]]:
    """Expand ``${VAR}`` and ``${VAR:-default}``; return the text and the unset names.

    An unset variable without a default is left as written (Claude Code does the same
    and warns). ``${input:...}`` (VS Code syntax) is not a variable here and stays as is.
    """
    missing: list[str] = []

    def sub(match: re.Match[str]) -> str:
        name, has_default, default = match.group(1), match.group(2), match.group(3)
        value = env.get(name)
        if value is not None and (value != "" or has_default is None):
            return value
        if has_default is not None:
            return default or ""
        missing.append(name)
        return match.group(0)

    if "${" not in text:
        return text, missing
    return _VAR.sub(sub, text), missing


# -- parsing --------------------------------------------------------------------------


def server_entries(data: object) -> tuple[dict[str, Any], list[str]]:
    """The ``name → entry`` map of one file, either wrapped in ``mcpServers`` or not."""
    warnings: list[str] = []
    if not isinstance(data, dict):
        return {}, ["the file must hold a JSON object; it is ignored"]
    top = cast(dict[str, Any], data)
    if "mcpServers" in top:
        servers = top["mcpServers"]
        if servers is None:
            return {}, warnings
        if not isinstance(servers, dict):
            return {}, ['"mcpServers" must be an object of server entries; it is ignored']
        return dict(cast(dict[str, Any], servers)), warnings
    entries: dict[str, Any] = {}
    for name, value in top.items():
        if isinstance(value, dict) and any(k in value for k in ("command", "url", "type")):
            entries[name] = value
        elif not name.startswith(("_", "$")):
            warnings.append(f'top-level key "{name}" is not a server entry; it is ignored')
    return entries, warnings


def parse_server(
    name: str,
    raw: object,
    *,
    env: Mapping[str, str],
    scope: Scope = "dynamic",
    source: str = "library",
    cwd: Path | None = None,
) -> McpServerConfig:
    """One entry → :class:`McpServerConfig` (with ``error`` set when it is unusable)."""
    base = McpServerConfig(name=name, scope=scope, source=source, cwd=cwd)
    if not isinstance(raw, dict):
        return replace(base, error="the entry must be a JSON object")
    entry = cast(dict[str, Any], raw)
    missing: list[str] = []

    def text(value: object, what: str) -> str:
        if not isinstance(value, str):
            raise _EntryError(f'"{what}" must be a string')
        out, unset = expand_vars(value, env)
        missing.extend(unset)
        return out

    def strings(value: object, what: str) -> tuple[str, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            raise _EntryError(f'"{what}" must be a list of strings')
        return tuple(text(v, what) for v in cast(list[object], value))

    def mapping(value: object, what: str) -> dict[str, str]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise _EntryError(f'"{what}" must be an object of strings')
        items = cast(dict[str, object], value).items()
        return {str(k): text(v if isinstance(v, str) else json.dumps(v), what) for k, v in items}

    raw_type = entry.get("type")
    try:
        if raw_type is None:
            transport: Transport = "stdio" if "command" in entry or "url" not in entry else "http"
        elif isinstance(raw_type, str) and raw_type in _TRANSPORT_ALIASES:
            transport = _TRANSPORT_ALIASES[raw_type]
        else:
            raise _EntryError(f'unknown "type" {raw_type!r}; use "stdio", "http" or "sse"')
        timeout = entry.get("timeout")
        timeout_ms = (
            int(timeout)
            if isinstance(timeout, int | float)
            and not isinstance(timeout, bool)
            and timeout >= 1000
            else None
        )
        description = entry.get("description")
        sampling = entry.get("sampling", "ask")
        if sampling not in SAMPLING_POLICIES:
            raise _EntryError('"sampling" must be "ask", "auto" or "off"')
        config = replace(
            base,
            transport=transport,
            timeout_ms=timeout_ms,
            always_load=entry.get("alwaysLoad") is True,
            sampling=sampling,
            description=description if isinstance(description, str) else "",
        )
        if transport == "sdk":
            pass  # in the SDK program's own process: reached through its control channel
        elif transport == "stdio":
            command = entry.get("command")
            if command is None or command == "":
                raise _EntryError('a stdio server needs a "command"')
            config = replace(
                config,
                command=text(command, "command"),
                args=strings(entry.get("args"), "args"),
                env=mapping(entry.get("env"), "env"),
            )
        else:
            url = entry.get("url")
            if url is None or url == "":
                raise _EntryError(f'a {transport} server needs a "url"')
            config = replace(
                config,
                url=_checked_url(text(url, "url"), transport),
                headers=mapping(entry.get("headers"), "headers"),
                headers_helper=(
                    text(entry["headersHelper"], "headersHelper")
                    if entry.get("headersHelper") is not None
                    else ""
                ),
                oauth=_oauth(entry.get("oauth"), text),
            )
    except _EntryError as exc:
        return _unusable(base, entry, str(exc))
    notes: list[str] = []
    for var in dict.fromkeys(missing):
        notes.append(f"${{{var}}} is not set; it was left as literal text")
    if raw_type is None and transport == "http":
        notes.append('no "type" given; the "url" is taken as a streamable HTTP server')
    if transport == "ws":
        config = replace(
            config,
            error='the "ws" transport is not supported; use "http" (streamable HTTP) or "sse"',
        )
    return replace(config, warnings=tuple(notes))


class _EntryError(Exception):
    pass


def _unusable(base: McpServerConfig, entry: dict[str, Any], error: str) -> McpServerConfig:
    """An entry that cannot be used, keeping what a listing shows of it."""
    url, command, kind = entry.get("url"), entry.get("command"), entry.get("type")
    guess: Transport = "http" if url and not command else "stdio"
    return replace(
        base,
        transport=_TRANSPORT_ALIASES.get(kind, guess) if isinstance(kind, str) else guess,
        url=url if isinstance(url, str) else "",
        command=command if isinstance(command, str) else "",
        error=error,
    )


def _checked_url(url: str, transport: Transport) -> str:
    """``url`` if it names an HTTP(S) server; a config error otherwise (never retried)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError as exc:
        raise _EntryError(f'"url" {url!r} is not a valid URL ({exc})') from None
    schemes = ("ws", "wss") if transport == "ws" else ("http", "https")
    if parts.scheme not in schemes or not parts.hostname:
        raise _EntryError(f'"url" {url!r} is not a valid URL; give http://HOST/... or https://...')
    return url


def _oauth(raw: object, text: Callable[[object, str], str]) -> McpOAuthConfig | None:
    """The ``oauth`` block: ``clientId``, ``callbackPort``, ``scopes`` (other keys ignored)."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise _EntryError('"oauth" must be an object')
    block = cast(dict[str, Any], raw)
    client_id = block.get("clientId")
    port = block.get("callbackPort")
    scopes = block.get("scopes")
    if port is not None and (
        not isinstance(port, int) or isinstance(port, bool) or not 0 < port <= 65535
    ):
        raise _EntryError('"oauth.callbackPort" must be a port number (1-65535)')
    return McpOAuthConfig(
        client_id=text(client_id, "oauth.clientId") if client_id is not None else "",
        callback_port=port,
        scopes=text(scopes, "oauth.scopes") if scopes is not None else "",
    )


def parse_config(
    data: object,
    *,
    env: Mapping[str, str] | None = None,
    scope: Scope = "dynamic",
    source: str = "library",
    cwd: Path | None = None,
) -> tuple[list[McpServerConfig], list[str]]:
    """Parse a whole ``.mcp.json`` document (already decoded)."""
    env = os.environ if env is None else env
    entries, warnings = server_entries(data)
    servers = [
        parse_server(name, raw, env=env, scope=scope, source=source, cwd=cwd)
        for name, raw in entries.items()
    ]
    return servers, [f"{source}: {w}" for w in warnings]


def load_config_file(
    path: Path,
    *,
    env: Mapping[str, str] | None = None,
    scope: Scope = "project",
    cwd: Path | None = None,
) -> tuple[list[McpServerConfig], list[str]]:
    """Read and parse one ``.mcp.json``-shaped file; a bad file becomes a warning."""
    data, problem = read_config_file(path)
    if problem is not None:
        return [], [f"{path}: {problem}; it is ignored"]
    return parse_config(data, env=env, scope=scope, source=str(path), cwd=cwd)


def read_config_file(path: Path) -> tuple[object, str | None]:
    """A config file's decoded JSON (``{}`` when missing or empty), or what is wrong with it."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror or exc})"
    except UnicodeDecodeError:
        return None, "not UTF-8 text"
    try:
        return (json.loads(text) if text.strip() else {}), None
    except json.JSONDecodeError as exc:
        return None, f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"


# -- discovery ------------------------------------------------------------------------

ProjectApproval: TypeAlias = "bool | Callable[[McpServerConfig], bool | None]"
"""True: every project server runs (print mode, SDK use). A callable returns True
(approved), False (disabled) or None (not decided: listed as needing approval)."""


def approval_from_settings(
    value: Callable[[str], Any], *, trusted: bool
) -> Callable[[McpServerConfig], bool | None]:
    """Project-server approval from settings keys, given ``Settings.value``.

    In a workspace that is not ``trusted`` no project server runs (``.mcp.json`` is
    project input). Otherwise ``disabledMcpjsonServers`` wins, then
    ``enableAllProjectMcpServers`` and ``enabledMcpjsonServers``; anything else is
    undecided.
    """
    if not trusted:
        return _refuse_all
    disabled = _names(value("disabledMcpjsonServers"))
    enabled = _names(value("enabledMcpjsonServers"))
    enable_all = value("enableAllProjectMcpServers") is True

    def decide(server: McpServerConfig) -> bool | None:
        if server.name in disabled:
            return False
        if enable_all or server.name in enabled:
            return True
        return None

    return decide


def approval_without_asking(
    value: Callable[[str], Any], *, trusted: bool
) -> Callable[[McpServerConfig], bool | None]:
    """Approval where nobody is asked: none in an untrusted workspace.

    In a trusted one, every project server except the refused ones. Print mode,
    ``hands tool`` and ``hands mcp list --probe``; ``disabledMcpjsonServers`` always
    holds.
    """
    if not trusted:
        return _refuse_all
    decided = approval_from_settings(value, trusted=True)

    def decide(server: McpServerConfig) -> bool | None:
        return decided(server) is not False

    return decide


def _refuse_all(server: McpServerConfig) -> bool | None:
    return False


def _names(value: object) -> frozenset[str]:
    if isinstance(value, list):
        return frozenset(v for v in cast(list[object], value) if isinstance(v, str))
    return frozenset()


def _ancestors(start: Path) -> list[Path]:
    return [start, *start.parents]


def _read_json(path: Path, warnings: list[str]) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, json.JSONDecodeError) as exc:
        warnings.append(f"{path}: cannot be read as JSON ({exc}); it is ignored")
        return None


def load_mcp_config(
    cwd: Path | str,
    *,
    env: Mapping[str, str] | None = None,
    extra: Mapping[str, object] | Iterable[McpServerConfig] = (),
    project: bool = True,
    user: bool = True,
    approve_project: ProjectApproval = True,
    blocked: Callable[[McpServerConfig], str | None] | None = None,
) -> McpConfigSet:
    """Every MCP server for a session started in ``cwd``.

    ``extra`` adds servers from the library (a ``name → entry`` map or ready
    configs); they win over every file. ``HOME`` and ``HANDS_HOME`` come from ``env``.
    ``blocked`` says why a server may not run at all (``allowedMcpServers``...).
    """
    env = dict(os.environ if env is None else env)
    start = Path(os.path.normpath(Path(cwd).absolute()))
    env.setdefault("CLAUDE_PROJECT_DIR", str(start))
    home = Path(env.get("HOME") or Path.home())
    warnings: list[str] = []
    broken: list[tuple[Path, str]] = []
    files: list[Path] = []
    by_scope: dict[Scope, list[McpServerConfig]] = {s: [] for s in SCOPE_ORDER}

    if isinstance(extra, Mapping):
        entries: dict[str, object] = {
            str(k): v for k, v in cast(Mapping[Any, object], extra).items()
        }
        servers, notes = parse_config(
            {"mcpServers": entries}, env=env, scope="dynamic", source="library", cwd=start
        )
        by_scope["dynamic"].extend(servers)
        warnings.extend(notes)
    else:
        by_scope["dynamic"].extend(extra)

    claude_json = home / ".claude.json"
    claude_data = _read_json(claude_json, warnings) if user or project else None
    if isinstance(claude_data, dict):
        files.append(claude_json)
        top = cast(dict[str, Any], claude_data)
        projects = top.get("projects")
        if project and isinstance(projects, dict):
            for directory in _ancestors(start):
                entry = cast(dict[str, Any], projects).get(str(directory))
                if isinstance(entry, dict) and "mcpServers" in entry:
                    servers, notes = parse_config(
                        {"mcpServers": cast(dict[str, Any], entry)["mcpServers"]},
                        env=env,
                        scope="local",
                        source=f"{claude_json} (project {directory})",
                        cwd=start,
                    )
                    by_scope["local"].extend(servers)
                    warnings.extend(notes)
    if project:
        for directory in _ancestors(start):
            path = directory / ".mcp.json"
            if path.is_file():
                files.append(path)
                servers, notes = _load_checked(path, env, "project", start, broken)
                by_scope["project"].extend(servers)
                warnings.extend(notes)
    if user:
        hands_file = hands_home(env) / "mcp.json"
        if hands_file.is_file():
            files.append(hands_file)
            servers, notes = _load_checked(hands_file, env, "user", start, broken)
            by_scope["user"].extend(servers)
            warnings.extend(notes)
        if isinstance(claude_data, dict) and "mcpServers" in claude_data:
            servers, notes = parse_config(
                {"mcpServers": cast(dict[str, Any], claude_data)["mcpServers"]},
                env=env,
                scope="user",
                source=str(claude_json),
                cwd=start,
            )
            by_scope["user"].extend(servers)
            warnings.extend(notes)

    chosen: dict[str, McpServerConfig] = {}
    for scope in SCOPE_ORDER:
        for server in by_scope[scope]:
            chosen.setdefault(server.name, server)
    run: list[McpServerConfig] = []
    pending: list[McpServerConfig] = []
    disabled: list[McpServerConfig] = []
    refused: list[tuple[McpServerConfig, str]] = []
    for server in chosen.values():
        for note in server.warnings:
            warnings.append(f"MCP server {server.name} ({server.source}): {note}")
        why = blocked(server) if blocked is not None else None
        if why is not None:
            refused.append((server, why))
            warnings.append(f"MCP server {server.name} ({server.source}) is not started: {why}")
            continue
        if server.scope == "project" and approve_project is not True:
            verdict = False if approve_project is False else approve_project(server)
            if verdict is False:
                disabled.append(server)
                continue
            if verdict is None:
                pending.append(server)
                continue
        run.append(server)
    return McpConfigSet(
        servers=tuple(run),
        warnings=tuple(warnings),
        files=tuple(dict.fromkeys(files)),
        needs_approval=tuple(pending),
        disabled=tuple(disabled),
        blocked=tuple(refused),
        broken=tuple(broken),
    )


def _load_checked(
    path: Path, env: Mapping[str, str], scope: Scope, cwd: Path, broken: list[tuple[Path, str]]
) -> tuple[list[McpServerConfig], list[str]]:
    """:func:`load_config_file`, with a file that cannot be decoded added to ``broken``."""
    data, problem = read_config_file(path)
    if problem is not None:
        broken.append((path, problem))
        return [], [f"{path}: {problem}; none of its servers start"]
    return parse_config(data, env=env, scope=scope, source=str(path), cwd=cwd)


def configs_from(
    servers: Mapping[str, object] | Sequence[McpServerConfig],
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> list[McpServerConfig]:
    """Library helper: servers given in code (entries as in ``.mcp.json``, or configs)."""
    if isinstance(servers, Mapping):
        parsed, _ = parse_config({"mcpServers": dict(servers)}, env=env, cwd=cwd)
        return parsed
    return list(servers)
