"""``McpManager``: every configured MCP server, started in the background, in parallel.

:class:`McpManager` owns one :class:`McpConnection` per configured server. Each
connection lives in its own background task (spawn or dial, ``initialize``,
``tools/list``, then wait), so a slow or broken server never holds up another, nor the
first model request. A call to a tool of a server still connecting waits for it up to
the startup timeout. When a server dies (the process exits, the stream ends), the calls
in flight get an error, the connection is re-established in the background, and the next
call works. ``notifications/tools/list_changed`` re-lists the tools; the pool built by
:class:`~hands.mcp.source.McpToolSource` picks the change up on the next turn.

Use it as ``async with McpManager(configs) as manager:`` or ``manager.start()`` inside a
running event loop plus ``manager.attach(session)`` so the session's end closes it. The
SDK is imported only when a connection starts.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from hands.core.tool import Progress, Tool
from hands.errors import ToolError
from hands.mcp.client_features import LogLevel, level_from_python, normalize_roots
from hands.mcp.config import McpServerConfig, McpSettings
from hands.mcp.naming import normalize, split_name

if TYPE_CHECKING:
    from hands.core.session import Session
    from hands.mcp.connection import McpConnection
    from hands.mcp.elicitation import ElicitationHandler
    from hands.mcp.oauth import LoginFlow
    from hands.mcp.prompts import McpPromptDef, PromptMessage
    from hands.mcp.sampling import SamplingHandler
    from hands.mcp.sdk_transport import SdkLink
    from hands.mcp.status import ServerStatus
    from hands.mcp.tool_cache import ToolListCache
    from hands.mcp.tools import McpCallResult, McpTool, PendingMcpTool


class McpManager:
    """All configured servers: background connections, calls, status, shutdown."""

    def __init__(
        self,
        servers: Iterable[McpServerConfig] = (),
        *,
        settings: McpSettings | None = None,
        extra_status: Iterable[ServerStatus] = (),
        tool_cache: ToolListCache | None = None,
        roots: Sequence[Path | str] = (),
        log_level: LogLevel | None = None,
        elicit: ElicitationHandler | None = None,
        sample: SamplingHandler | None = None,
        login: LoginFlow | None = None,
    ) -> None:
        self.settings = settings or McpSettings.from_env()
        self.roots: tuple[Path, ...] = normalize_roots(roots)
        """The directories offered to servers as roots (``roots/list``)."""
        self.log_level: LogLevel | None = log_level if log_level else level_from_python()
        """The level sent with ``logging/setLevel`` to servers that log (None: not sent)."""
        self.elicit = elicit
        """Answers servers' ``elicitation/create`` (None: elicitation not offered)."""
        self.login = login
        """The interactive OAuth login (``hands mcp login``); None: sessions never ask."""
        self.sample = sample
        """Serves servers' ``sampling/createMessage`` (None: sampling not offered)."""
        self.sample_can_ask = True
        """Someone can approve a sampling request; False (print mode): only servers whose
        entry says ``"sampling": "auto"`` are offered sampling."""
        self.sdk_link: SdkLink | None = None
        """Carries JSON-RPC to ``"type": "sdk"`` servers (an Agent SDK program's own)."""
        self.tool_cache = tool_cache
        """Where tool lists are kept between sessions (None: no cache, no lazy start)."""
        self.connections: dict[str, McpConnection] = {}
        configs = list(servers)
        if configs:  # the connection code is loaded only when there is a server
            from hands.mcp.connection import McpConnection

            for config in configs:
                self.connections.setdefault(config.name, McpConnection(config, self))
        self._by_key = {c.key: c for c in self.connections.values()}
        self._extra_status = tuple(extra_status)
        self.version = 0
        self._slots: anyio.Semaphore | None = None
        self._started = False
        self._waited = False

    # -- lifecycle --------------------------------------------------------------------

    def start(self, *, lazy: bool = False) -> McpManager:
        """Start every connection in the background; returns at once.

        ``lazy``: a server whose tool list is cached and whose tools are all deferrable
        is not started now; it starts when :meth:`warm` names one of its tools or one
        of them is called (the call waits for it).
        """
        self._started = True
        for conn in self.connections.values():
            if lazy and conn.cached and conn.tools and all(t.should_defer for t in conn.tools):
                conn.idle = True
                continue
            conn.start()
        return self

    def warm(self, names: Iterable[str]) -> None:
        """Start, in the background, the idle servers behind the tool ``names``."""
        for name in names:
            parts = split_name(name)
            conn = self._by_key.get(parts[0]) if parts is not None else None
            if conn is not None and conn.idle:
                conn.start()

    def attach(self, session: Session) -> McpManager:
        """Close every connection when ``session`` closes."""
        session.add_cleanup(self.aclose)
        return self

    async def aclose(self) -> None:
        """Close every connection and end every server process."""
        async with anyio.create_task_group() as tg:
            for conn in self.connections.values():
                tg.start_soon(conn.stop)
        self.changed()

    async def __aenter__(self) -> McpManager:
        return self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def connect_slot(self) -> anyio.Semaphore:
        """Bounds how many servers start at once (``MCP_SERVER_CONNECTION_BATCH_SIZE``)."""
        if self._slots is None:
            self._slots = anyio.Semaphore(max(1, self.settings.connect_batch))
        return self._slots

    def changed(self) -> None:
        """Something the pool depends on changed (tools, state)."""
        self.version += 1

    async def wait_ready(
        self, names: Iterable[str] | None = None, limit: float | None = None
    ) -> None:
        """Wait until the named servers (default: all) connected or failed."""
        chosen = (
            [self.connections[n] for n in names]
            if names is not None
            else [c for c in self.connections.values() if not c.idle]
        )
        seconds = self.settings.startup_timeout_s if limit is None else limit
        with anyio.move_on_after(seconds):
            for conn in chosen:
                await conn.wait_settled(seconds)

    async def wait_blocking(self) -> None:
        """Before the first model request: wait for the servers it must list.

        Those are the ``alwaysLoad`` servers, or every server when
        ``MCP_CONNECTION_NONBLOCKING=0``; the wait lasts at most ``MCP_CONNECT_TIMEOUT_MS``
        and happens once per manager (later requests never wait).
        """
        if self._waited:
            return
        self._waited = True
        names = [
            n
            for n, c in self.connections.items()
            if not c.idle and (c.config.always_load or not self.settings.nonblocking)
        ]
        if names:
            for name in names:
                self.connections[name].start()
            await self.wait_ready(names, self.settings.connect_wait_s)

    async def set_roots(self, paths: Sequence[Path | str]) -> None:
        """Change the roots; connected servers get ``notifications/roots/list_changed``."""
        roots = normalize_roots(paths)
        if roots == self.roots:
            return
        self.roots = roots
        for conn in self.connections.values():
            if conn.session is not None and conn.state == "connected":
                with contextlib.suppress(Exception):
                    await conn.session.send_roots_list_changed()  # pyright: ignore[reportDeprecated]

    async def set_log_level(self, level: LogLevel) -> None:
        """Send ``logging/setLevel`` to every connected server that logs (and later ones)."""
        self.log_level = level
        for conn in self.connections.values():
            if conn.session is not None and conn.state == "connected" and conn.has_logging:
                with contextlib.suppress(Exception):
                    await conn.session.set_logging_level(level)  # pyright: ignore[reportDeprecated]

    # -- prompts ------------------------------------------------------------------------

    def prompts(self) -> list[McpPromptDef]:
        """Every prompt of every connected server."""
        return [p for c in self.connections.values() if c.state == "connected" for p in c.prompts]

    def find_prompt(self, command: str) -> McpPromptDef | None:
        """The prompt whose command is ``command`` (``mcp__server__prompt``, no slash)."""
        return next((p for p in self.prompts() if p.command == command), None)

    async def get_prompt(
        self, command: str, arguments: Mapping[str, str] | str = ""
    ) -> list[PromptMessage]:
        """``prompts/get`` for ``command``; ``arguments`` a mapping or the words typed."""
        from hands.mcp.prompts import parse_arguments, prompt_messages

        prompt = self.find_prompt(command)
        if prompt is None:
            known = ", ".join(p.command for p in self.prompts()) or "(none)"
            raise ToolError(f"No MCP prompt {command}. Prompts: {known}.")
        args = parse_arguments(prompt, arguments) if isinstance(arguments, str) else dict(arguments)
        conn = self.connection(prompt.server)
        session = await conn.ensure_connected()
        result = await session.get_prompt(prompt.name, args)
        return prompt_messages(prompt.server, result)

    # -- what the pool sees -----------------------------------------------------------

    def tools(self) -> list[McpTool]:
        """Every tool of every connected (or reconnecting) server."""
        out: list[McpTool] = []
        for conn in self.connections.values():
            if conn.state in ("connected", "reconnecting") or (
                conn.state == "pending" and conn.cached
            ):
                out.extend(conn.tools)
        return out

    def live_tool(self, name: str) -> McpTool | None:
        """The tool called ``name`` as its server lists it now (None: not listed)."""
        parts = split_name(name)
        conn = self._by_key.get(parts[0]) if parts is not None else None
        if conn is None or conn.state != "connected":
            return None
        return next((t for t in conn.tools if t.name == name), None)

    def resource_servers(self) -> list[str]:
        """Connected servers that support resources."""
        return [
            n for n, c in self.connections.items() if c.state == "connected" and c.has_resources
        ]

    def waiting_server(self, name: str) -> McpConnection | None:
        """The server a not-yet-listed tool name points at, if it may still appear."""
        parts = split_name(name)
        if parts is None:
            return None
        conn = self._by_key.get(parts[0])
        if conn is None or conn.state == "closed" or (conn.state == "failed" and not conn.remote):
            return None
        if conn.state == "connected" and not conn.busy:
            return None  # connected, its tools listed, and it has no such tool
        return conn

    def status(self) -> list[ServerStatus]:
        """One line per server, configured order."""
        return [c.status() for c in self.connections.values()] + list(self._extra_status)

    # -- calls (McpBackend) -------------------------------------------------------------

    @property
    def max_output_tokens(self) -> int:
        return self.settings.max_output_tokens

    def connection(self, server: str) -> McpConnection:
        """The connection called ``server`` (raw or normalized name)."""
        conn = self.connections.get(server) or self._by_key.get(normalize(server))
        if conn is None:
            names = ", ".join(self.connections) or "(none)"
            raise ToolError(f'No MCP server named "{server}". Configured servers: {names}.')
        if not self._started and conn.state == "pending":
            conn.start()
        return conn

    async def resolve_tool(self, name: str) -> Tool[Any, Any]:
        parts = split_name(name)
        if parts is None:
            raise ToolError(f"{name} is not an MCP tool name.")
        conn = self.connection(parts[0])
        await conn.ensure_connected()
        await conn.wait_listed(self.settings.startup_timeout_s)
        for tool in conn.tools:
            if tool.name == name:
                return tool
        listed = ", ".join(t.name for t in conn.tools) or "(none)"
        raise ToolError(
            f'The MCP server "{conn.config.name}" is connected but has no tool {name}. '
            f"Its tools: {listed}."
        )

    async def call_tool(
        self, server: str, tool: str, arguments: dict[str, Any], progress: Progress
    ) -> McpCallResult:
        """Call ``tool`` on ``server``; failures become ToolError with a next step.

        A server that answers HTTP 404 for the session (it restarted) is initialised
        anew and the call sent again: it never ran.
        """
        conn = self.connection(server)
        for _ in range(2):
            session = await conn.ensure_connected()
            try:
                return await self._call_once(conn, session, tool, arguments, progress)
            except _SessionLost:
                continue  # the server restarted and forgot the session: it never ran
        raise ToolError(
            f'The MCP server "{conn.config.name}" lost this session twice in a row; '
            f"the call to {tool} did not run. Try again later."
        )

    async def _call_once(
        self,
        conn: McpConnection,
        session: Any,
        tool: str,
        arguments: dict[str, Any],
        progress: Progress,
    ) -> McpCallResult:
        from mcp.shared.exceptions import MCPError
        from mcp_types import CONNECTION_CLOSED

        from hands.mcp.results import convert_result
        from hands.mcp.tools import McpProgress

        name = conn.config.name
        report = progress

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            report(
                McpProgress(server=name, tool=tool, progress=progress, total=total, message=message)
            )

        limit = self.settings.tool_timeout_s
        if conn.config.timeout_ms is not None:
            limit = min(limit, conn.config.timeout_ms / 1000)
        try:
            with anyio.fail_after(limit):
                result = await session.call_tool(tool, arguments, progress_callback=on_progress)
        except TimeoutError:
            raise ToolError(
                f'The MCP tool {tool} on server "{name}" did not answer within {limit:g} s; '
                "the request was cancelled. Try a smaller request, or continue without it."
            ) from None
        except MCPError as exc:
            if conn.session_lost:
                raise _SessionLost from None
            if exc.error.code == CONNECTION_CLOSED or conn._dead:  # pyright: ignore[reportPrivateUsage]
                conn.mark_dead()
                raise ToolError(
                    f'The MCP server "{name}" closed the connection during this call to {tool} '
                    "(the server process exited or the connection dropped), so its outcome is "
                    "unknown. hands is reconnecting to it: retry the call if repeating it is "
                    "safe, otherwise check its effect first."
                ) from None
            raise ToolError(
                f'The MCP server "{name}" refused the call to {tool}: {exc.error.message} '
                f"(error {exc.error.code}). Check the arguments against the tool's schema."
            ) from None
        except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError) as exc:
            conn.mark_dead()
            raise ToolError(
                f'The connection to the MCP server "{name}" failed during this call to {tool} '
                f"({type(exc).__name__}: {exc}); hands is reconnecting. Retry the call if "
                "repeating it is safe."
            ) from None
        except Exception as exc:
            if _is_transport_error(exc):
                conn.mark_dead()
                raise ToolError(
                    f'The connection to the MCP server "{name}" failed during this call to '
                    f"{tool} ({type(exc).__name__}: {exc}); hands is reconnecting. Retry the "
                    "call if repeating it is safe."
                ) from None
            raise
        return convert_result(result, name)

    async def list_resources(self, server: str) -> list[dict[str, Any]]:
        """``resources/list`` on one server, every page."""
        from mcp_types import PaginatedRequestParams

        conn = self.connection(server)
        session = await conn.ensure_connected()
        out: list[dict[str, Any]] = []
        cursor: str | None = None
        for _ in range(100):
            params = PaginatedRequestParams(cursor=cursor) if cursor else None
            result = await session.list_resources(params=params)
            for res in result.resources:
                item = res.model_dump(by_alias=True, exclude_none=True, mode="json")
                item["server"] = conn.config.name
                out.append(item)
            cursor = result.next_cursor
            if not cursor:
                break
        return out

    async def read_resource(self, server: str, uri: str) -> list[dict[str, Any]]:
        """``resources/read``: each content as ``{uri, mimeType, text | blob}``."""
        conn = self.connection(server)
        session = await conn.ensure_connected()
        result = await session.read_resource(uri)
        return [
            c.model_dump(by_alias=True, exclude_none=True, mode="json") for c in result.contents
        ]


class _SessionLost(Exception):
    """The server no longer knows the session this call was sent in."""


def _is_transport_error(exc: BaseException) -> bool:
    module = type(exc).__module__
    return module.startswith(("httpx", "httpcore", "httpx2"))


def pending_tool(manager: McpManager, name: str) -> PendingMcpTool | None:
    """A stand-in for ``name`` when its server is still connecting."""
    conn = manager.waiting_server(name)
    if conn is None:
        return None
    from hands.mcp.tools import PendingMcpTool

    return PendingMcpTool(backend=manager, name=name, server=conn.config.name)
