"""Connections to MCP servers: started in the background, in parallel, kept alive.

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

import asyncio
import base64
import contextlib
import json
import math
import tempfile
import time
from collections.abc import AsyncGenerator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal, TypeAlias, cast

import anyio

from hands.core.messages import ImageBlock, TextBlock
from hands.core.tool import Progress, Tool
from hands.errors import ToolError
from hands.mcp.config import McpServerConfig, McpSettings
from hands.mcp.naming import normalize, split_name
from hands.mcp.tools import (
    McpCallResult,
    McpProgress,
    McpTool,
    McpToolDef,
    PendingMcpTool,
)

if TYPE_CHECKING:
    from types import TracebackType

    from hands.core.session import Session
    from hands.mcp.lazy import ToolListCache
    from mcp import ClientSession

State: TypeAlias = Literal["pending", "connected", "reconnecting", "failed", "closed"]

IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
CLIENT_NAME = "hands"
STDERR_TAIL = 1_500


@dataclass(frozen=True, kw_only=True, slots=True)
class ServerStatus:
    """What ``hands mcp list`` shows for one server."""

    name: str
    scope: str
    transport: str
    target: str
    state: State | Literal["needs-approval", "disabled"]
    error: str = ""
    tools: tuple[str, ...] = ()
    resources: bool = False
    server_info: str = ""
    connect_ms: float | None = None

    def to_json(self) -> dict[str, Any]:
        """A plain dict for ``--json``."""
        return {
            "name": self.name,
            "scope": self.scope,
            "transport": self.transport,
            "target": self.target,
            "state": self.state,
            "error": self.error,
            "tools": list(self.tools),
            "tool_count": len(self.tools),
            "resources": self.resources,
            "server_info": self.server_info,
            "connect_ms": self.connect_ms,
        }


class _WatchedStream:
    """A transport's read stream that reports its end (the server went away)."""

    def __init__(self, inner: Any, on_end: Any) -> None:
        self._inner = inner
        self._on_end = on_end

    async def receive(self) -> Any:
        try:
            return await self._inner.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            self._on_end()
            raise

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> _WatchedStream:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> _WatchedStream:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None:
        await self.aclose()
        return None


class McpConnection:
    """One server: its state, its tools and the live client session."""

    def __init__(self, config: McpServerConfig, manager: McpManager) -> None:
        self.config = config
        self.manager = manager
        self.key = normalize(config.name)
        self.state: State = "failed" if config.error else "pending"
        self.error = config.error
        self.definitions: tuple[McpToolDef, ...] = ()
        self.tools: tuple[McpTool, ...] = ()
        self.has_resources = False
        self.server_info = ""
        self.connect_ms: float | None = None
        self.session: ClientSession | None = None
        self.attempt = 0
        self._settled = asyncio.Event()
        if config.error:
            self._settled.set()
        self._wake = asyncio.Event()
        self._dead = False
        self._refresh = False
        self._stopping = False
        self._scope: anyio.CancelScope | None = None
        self._task: asyncio.Task[None] | None = None
        self._ever_connected = False
        self.cached = False
        """True while ``tools`` come from the tool-list cache (not yet from the server)."""
        self.idle = False
        """True for a lazily started server nobody has needed yet (no process)."""
        cache = manager.tool_cache
        if cache is not None and not config.error:
            defs = cache.load(config)
            if defs is not None:
                self._set_tools(defs)
                self.cached = True

    # -- lifecycle ----------------------------------------------------------------------

    def start(self) -> None:
        """Begin connecting in the background (no-op if already running or unusable)."""
        if self.config.error or self._stopping:
            return
        if self._task is not None and not self._task.done():
            return
        self.idle = False
        if self._settled.is_set() and self.state != "connected":
            self._settled = asyncio.Event()
        if self.state == "failed":
            self.state = "reconnecting"
        self._task = asyncio.get_running_loop().create_task(
            self._run(), name=f"mcp:{self.config.name}"
        )

    async def stop(self) -> None:
        """Close the connection (and end the server process)."""
        self._stopping = True
        task = self._task
        if self._scope is not None:
            self._scope.cancel()
        elif task is not None:
            task.cancel()  # between attempts: nothing to close gracefully
        if task is not None and not task.done():
            with anyio.CancelScope(shield=True), anyio.move_on_after(10):
                await asyncio.wait({task})
        self.state = "closed"
        self.session = None
        self._settled.set()

    async def wait_settled(self, limit: float) -> bool:
        """Wait until the current attempt connected or failed; False after ``limit`` s."""
        with anyio.move_on_after(limit):
            await self._settled.wait()
            return True
        return False

    async def ensure_connected(self) -> ClientSession:
        """The live session; waits for a connection in progress, reconnects a dead one.

        A connection still starting is waited for up to the startup timeout; anything
        else raises ToolError with a message for the model.
        """
        if self.state == "connected" and self.session is not None and not self._dead:
            return self.session
        if self.state == "closed":
            raise ToolError(f'The MCP server "{self.config.name}" has been shut down.')
        if self.state == "failed" and self._ever_connected:
            self.start()  # it worked before: try again now
        elif self.state == "pending" and self._task is None:
            self.start()
        startup = self.manager.settings.startup_timeout_s
        if self.state in ("pending", "reconnecting") or self._dead:
            await self.wait_settled(startup)
        if self.state == "connected" and self.session is not None:
            return self.session
        if self.state in ("pending", "reconnecting"):
            raise ToolError(
                f'The MCP server "{self.config.name}" is still connecting after '
                f"{startup:g} s. Try again later, or continue without its tools."
            )
        raise ToolError(
            f'The MCP server "{self.config.name}" is not connected: '
            f"{self.error or 'unknown error'}. Its tools cannot be used now; continue "
            "without them, or tell the user to fix the server (`hands mcp list` shows "
            "its status)."
        )

    def mark_dead(self) -> None:
        """The transport failed under a call: drop this connection and reconnect."""
        if self.state == "connected":
            self._dead = True
            if self._settled.is_set():
                self._settled = asyncio.Event()
        self._wake.set()

    # -- the background task ---------------------------------------------------------

    async def _run(self) -> None:
        settings = self.manager.settings
        backoff = (0.25, 0.5, 1.0, 2.0, 4.0)
        failures = 0
        while not self._stopping:
            try:
                async with self.manager.connect_slot():
                    self.attempt += 1
                    await self._connect_once()
                failures = 0  # it was up and then went away: reconnect at once
                self.error = "the server closed the connection"
            except Exception as exc:  # anything the transport or SDK raises
                failures += 1
                self.error = describe_failure(self.config, exc)
            self._scope = None
            self.session = None
            if self._stopping:
                break
            if failures and (not self._ever_connected or failures > settings.reconnect_attempts):
                self.state = "failed"
                self.tools = ()
                self.definitions = ()
                self.cached = False
                if self.manager.tool_cache is not None:
                    self.manager.tool_cache.invalidate(self.config)
                self.manager.changed()
                self._settled.set()
                return
            self.state = "reconnecting"
            if self._settled.is_set():
                self._settled = asyncio.Event()
            self.manager.changed()
            if failures:
                await anyio.sleep(backoff[min(failures, len(backoff)) - 1])

    async def _connect_once(self) -> None:
        """One connection, from spawn (or dial) to its end; raises when it cannot start."""
        started = time.perf_counter()
        startup = self.manager.settings.startup_timeout_s
        self._dead = False
        self._wake = asyncio.Event()
        errlog: IO[str] | None = None
        if self.config.transport == "stdio":
            errlog = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        try:
            await self._connect_with(errlog, started, startup)
        finally:
            if errlog is not None:
                errlog.close()

    async def _connect_with(self, errlog: IO[str] | None, started: float, startup: float) -> None:
        from mcp_types import Implementation

        from mcp import ClientSession

        def on_end() -> None:
            self._dead = True
            self._wake.set()

        with anyio.CancelScope(deadline=anyio.current_time() + startup) as scope:
            self._scope = scope
            if self._stopping:
                scope.cancel()
            async with contextlib.AsyncExitStack() as stack:
                if errlog is not None:
                    streams = await stack.enter_async_context(self._stdio(errlog))
                else:
                    from hands.mcp.headers_helper import helper_headers

                    headers = await helper_headers(self.config)
                    streams = await stack.enter_async_context(self._remote(headers))
                read, write = streams
                session = await stack.enter_async_context(
                    ClientSession(
                        cast(Any, _WatchedStream(read, on_end)),
                        write,
                        message_handler=self._on_message,
                        client_info=Implementation(name=CLIENT_NAME, version=_version()),
                    )
                )
                try:
                    init = await session.initialize()
                    tools = await self._list_tools(session)
                except BaseException as exc:
                    if errlog is not None and not isinstance(exc, anyio.get_cancelled_exc_class()):
                        raise _WithStderr(exc, _tail(errlog)) from exc
                    raise
                scope.deadline = math.inf
                caps = init.capabilities
                self.has_resources = caps.resources is not None
                info = init.server_info
                self.server_info = f"{info.name} {info.version}".strip()
                self._set_tools(tools)
                self._save_tools()
                self.session = session
                self.state = "connected"
                self.error = ""
                self._ever_connected = True
                self.connect_ms = (time.perf_counter() - started) * 1000
                self.manager.changed()
                self._settled.set()
                while not self._dead:
                    if self._refresh:
                        self._refresh = False
                        with contextlib.suppress(Exception):
                            self._set_tools(await self._list_tools(session))
                            self._save_tools()
                            self.manager.changed()
                        continue
                    await self._wake.wait()
                    self._wake = asyncio.Event()
                self.session = None
                return
        if scope.cancelled_caught and not self._stopping:
            output = _tail(errlog)
            detail = f"; server output: {output}" if output else ""
            raise TimeoutError(
                f"it did not finish starting within {startup:g} s (MCP_TIMEOUT){detail}"
            )

    def _stdio(self, errlog: IO[str]) -> contextlib.AbstractAsyncContextManager[Any]:
        import os

        from mcp import StdioServerParameters, stdio_client

        config = self.config
        env = {**os.environ, **config.env}
        params = StdioServerParameters(
            command=config.command,
            args=list(config.args),
            env=env,
            cwd=str(config.cwd) if config.cwd is not None else None,
        )
        return stdio_client(params, errlog=cast(Any, errlog))

    def _remote(self, headers: dict[str, str]) -> contextlib.AbstractAsyncContextManager[Any]:
        config = self.config
        if config.transport == "sse":
            from mcp.client.sse import sse_client

            return sse_client(config.url, headers=headers or None)
        return _streamable_http(config.url, headers)

    async def _list_tools(self, session: ClientSession) -> list[McpToolDef]:
        from mcp_types import PaginatedRequestParams

        defs: list[McpToolDef] = []
        cursor: str | None = None
        for _ in range(100):
            params = PaginatedRequestParams(cursor=cursor) if cursor else None
            result = await session.list_tools(params=params)
            for tool in result.tools:
                annotations = (
                    tool.annotations.model_dump(by_alias=True, exclude_none=True)
                    if tool.annotations is not None
                    else {}
                )
                defs.append(
                    McpToolDef(
                        name=tool.name,
                        description=tool.description or "",
                        title=tool.title
                        or (
                            tool.annotations.title
                            if tool.annotations and tool.annotations.title
                            else ""
                        ),
                        input_schema=tool.input_schema,
                        annotations=annotations,
                        meta=dict(tool.meta or {}),
                    )
                )
            cursor = result.next_cursor
            if not cursor:
                break
        return defs

    def _set_tools(self, defs: Sequence[McpToolDef]) -> None:
        old = {_def_key(t.definition): t for t in self.tools}
        self.definitions = tuple(defs)
        self.tools = tuple(
            old.get(_def_key(d))
            or McpTool(
                backend=self.manager,
                server=self.config.name,
                definition=d,
                always_load=self.config.always_load,
            )
            for d in defs
        )

    def _save_tools(self) -> None:
        self.cached = False
        cache = self.manager.tool_cache
        if cache is not None:
            cache.store(self.config, self.definitions)

    async def _on_message(self, message: Any) -> None:
        method = getattr(message, "method", None)
        if method == "notifications/tools/list_changed":
            self._refresh = True
            self._wake.set()
        elif method == "notifications/resources/list_changed":
            self.manager.changed()

    def status(self) -> ServerStatus:
        """The line for ``hands mcp list``."""
        config = self.config
        return ServerStatus(
            name=config.name,
            scope=config.scope,
            transport=config.transport,
            target=config.target,
            state=self.state,
            error=self.error
            or (
                "not started: its tools are deferred and cached; it starts when one is needed"
                if self.idle
                else ""
            ),
            tools=tuple(d.name for d in self.definitions) if self.state == "connected" else (),
            resources=self.has_resources,
            server_info=self.server_info,
            connect_ms=self.connect_ms,
        )


def _def_key(definition: McpToolDef) -> str:
    """Identity of a tool definition: an unchanged tool keeps its McpTool object."""
    return json.dumps(
        [
            definition.name,
            definition.description,
            definition.title,
            definition.input_schema,
            definition.annotations,
            definition.meta,
        ],
        sort_keys=True,
        default=str,
    )


class _WithStderr(Exception):
    def __init__(self, cause: BaseException, stderr: str) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.stderr = stderr


def _tail(errlog: IO[str] | None) -> str:
    if errlog is None:
        return ""
    try:
        errlog.flush()
        errlog.seek(0)
        text = errlog.read()
    except (OSError, ValueError):
        return ""
    text = text.strip()
    return text[-STDERR_TAIL:] if len(text) > STDERR_TAIL else text


@contextlib.asynccontextmanager
async def _streamable_http(url: str, headers: Mapping[str, str]) -> AsyncGenerator[Any]:
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client  # pyright: ignore[reportPrivateUsage]

    async with create_mcp_http_client(headers=dict(headers) or None) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            yield streams


def _single(exc: BaseException) -> BaseException:
    """The one exception inside nested single-member exception groups."""
    current: Any = exc
    while isinstance(current, BaseExceptionGroup):
        members = cast(tuple[BaseException, ...], cast(Any, current).exceptions)
        if len(members) != 1:
            break
        current = members[0]
    return cast(BaseException, current)


def describe_failure(config: McpServerConfig, exc: BaseException) -> str:
    """Why a server could not connect, in words a person can act on."""
    stderr = ""
    for _ in range(5):
        exc = _single(exc)
        if isinstance(exc, _WithStderr):
            stderr, exc = exc.stderr, exc.cause
            continue
        break
    if isinstance(exc, FileNotFoundError) and config.transport == "stdio":
        text = (
            f'command not found: {config.command!r} (install it, or fix "command" in '
            f"{config.source})"
        )
    elif isinstance(exc, PermissionError) and config.transport == "stdio":
        text = f"command not executable: {config.command!r}"
    elif isinstance(exc, TimeoutError):
        text = str(exc)
    else:
        message = str(exc) or type(exc).__name__
        if message == "Connection closed":
            message = "the server closed the connection during start-up"
        text = message if len(message) < 400 else message[:400] + "…"
        if config.transport != "stdio" and config.url not in text:
            text = f"cannot connect to {config.url}: {text}"
    if stderr:
        text += f"; server output: {stderr}"
    return text


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("hands")
    except Exception:
        return "0"


class McpManager:
    """All configured servers: background connections, calls, status, shutdown."""

    def __init__(
        self,
        servers: Iterable[McpServerConfig] = (),
        *,
        settings: McpSettings | None = None,
        extra_status: Iterable[ServerStatus] = (),
        tool_cache: ToolListCache | None = None,
    ) -> None:
        self.settings = settings or McpSettings.from_env()
        self.tool_cache = tool_cache
        """Where tool lists are kept between sessions (None: no cache, no lazy start)."""
        self.connections: dict[str, McpConnection] = {}
        for config in servers:
            self.connections.setdefault(config.name, McpConnection(config, self))
        self._by_key = {c.key: c for c in self.connections.values()}
        self._extra_status = tuple(extra_status)
        self.version = 0
        self._slots: anyio.Semaphore | None = None
        self._started = False

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

    async def wait_always_load(self, limit: float = 5.0) -> None:
        """Wait (briefly) for ``alwaysLoad`` servers before the first model request."""
        names = [n for n, c in self.connections.items() if c.config.always_load]
        if names:
            await self.wait_ready(names, limit)

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
        if conn is None or conn.state in ("failed", "closed"):
            return None
        if conn.state == "connected" and not conn._dead:  # pyright: ignore[reportPrivateUsage]
            return None  # connected and it has no such tool
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
        """Call ``tool`` on ``server``; failures become ToolError with a next step."""
        from mcp.shared.exceptions import MCPError
        from mcp_types import CONNECTION_CLOSED

        conn = self.connection(server)
        session = await conn.ensure_connected()
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


def _is_transport_error(exc: BaseException) -> bool:
    module = type(exc).__module__
    return module.startswith(("httpx", "httpcore", "httpx2"))


def convert_result(result: Any, server: str) -> McpCallResult:
    """An SDK ``CallToolResult`` → :class:`McpCallResult` of hands blocks."""
    blocks: list[TextBlock | ImageBlock] = []
    for item in cast(Sequence[Any], result.content):
        kind = getattr(item, "type", None)
        if kind == "text":
            blocks.append(TextBlock(text=item.text))
        elif kind == "image":
            if item.mime_type in IMAGE_TYPES:
                blocks.append(ImageBlock(media_type=item.mime_type, data=item.data))
            else:
                blocks.append(TextBlock(text=f"[image of type {item.mime_type} not shown]"))
        elif kind == "audio":
            size = len(item.data) * 3 // 4
            blocks.append(TextBlock(text=f"[audio ({item.mime_type}, {size:,} bytes) not shown]"))
        elif kind == "resource":
            res = item.resource
            mime = getattr(res, "mime_type", None) or ""
            text = getattr(res, "text", None)
            if isinstance(text, str):
                blocks.append(TextBlock(text=f"[Resource from {server} at {res.uri}]\n{text}"))
            elif mime in IMAGE_TYPES:
                blocks.append(ImageBlock(media_type=mime, data=res.blob))
            else:
                size = len(base64.b64decode(res.blob or "", validate=False))
                blocks.append(
                    TextBlock(
                        text=f"[Binary resource from {server} at {res.uri} "
                        f"({mime or 'unknown type'}, {size:,} bytes); read it with "
                        "ReadMcpResourceTool]"
                    )
                )
        elif kind == "resource_link":
            desc = f": {item.description}" if getattr(item, "description", None) else ""
            blocks.append(TextBlock(text=f"[Resource link {item.name} at {item.uri}{desc}]"))
        else:
            blocks.append(TextBlock(text=str(item)))
    return McpCallResult(
        content=tuple(blocks),
        structured=result.structured_content,
        is_error=bool(result.is_error),
    )


def pending_tool(manager: McpManager, name: str) -> PendingMcpTool | None:
    """A stand-in for ``name`` when its server is still connecting."""
    conn = manager.waiting_server(name)
    if conn is None:
        return None
    return PendingMcpTool(backend=manager, name=name, server=conn.config.name)


def session_dir_file(session: Session, folder: str, name: str) -> Path:
    """A path under the session directory (made on demand)."""
    directory = session.directory / folder
    directory.mkdir(parents=True, exist_ok=True)
    return directory / name
