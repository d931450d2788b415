"""One connection to an MCP server: its transport, start-up, reconnects and stderr.

An :class:`McpConnection` lives in its own background task (spawn or dial,
``initialize``, ``tools/list``, then wait), so a slow or broken server never holds up
another. When the server dies, the calls in flight get an error and the connection is
re-established in the background. The SDK is imported only when a connection starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import tempfile
import time
from collections.abc import AsyncGenerator, Callable, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any, Protocol, cast

import anyio

from hands.errors import ToolError
from hands.mcp.client_features import LogLevel, McpLogMessage, log_to_python, root_entries
from hands.mcp.config import McpServerConfig, McpSettings
from hands.mcp.exit_status import ended_with, transport_process
from hands.mcp.naming import normalize
from hands.mcp.results import WithStderr, describe_failure
from hands.mcp.server_process import KILL_WAIT_S, kill_server
from hands.mcp.status import ServerStatus as ServerStatus  # also its old home
from hands.mcp.status import State
from hands.mcp.tools import (
    McpBackend,
    McpTool,
    McpToolDef,
)

if TYPE_CHECKING:
    from pathlib import Path
    from types import TracebackType

    from hands.mcp.elicitation import ElicitationHandler
    from hands.mcp.oauth import LoginFlow
    from hands.mcp.prompts import McpPromptDef
    from hands.mcp.sampling import SamplingHandler
    from hands.mcp.sdk_transport import SdkLink
    from hands.mcp.tool_cache import ToolListCache
    from mcp import ClientSession


CLIENT_NAME = "hands"
STDERR_TAIL = 1_500
STOP_WAIT_S = 10.0
"""How long a stop waits for the connection to close before it kills a stdio server."""


class ConnectionOwner(McpBackend, Protocol):
    """What a connection needs of the manager that owns it (which also runs its tools)."""

    settings: McpSettings
    tool_cache: ToolListCache | None
    roots: tuple[Path, ...]
    log_level: LogLevel | None
    elicit: ElicitationHandler | None
    sample: SamplingHandler | None
    sample_can_ask: bool
    login: LoginFlow | None
    """The interactive authorization of ``hands mcp login`` (None: never ask anyone)."""
    sdk_link: SdkLink | None
    """Carries JSON-RPC to ``"type": "sdk"`` servers (None: no SDK program hosts any)."""

    def connect_slot(self) -> anyio.Semaphore:
        """Bounds how many servers start at once."""
        ...

    def changed(self) -> None:
        """A connection's state or tools changed."""
        ...


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

    def __init__(self, config: McpServerConfig, manager: ConnectionOwner) -> None:
        self.config = config
        self.manager = manager
        self.key = normalize(config.name)
        self.state: State = "failed" if config.error else "pending"
        self.error = (
            f"configuration error in {config.source}: {config.error}" if config.error else ""
        )
        self.definitions: tuple[McpToolDef, ...] = ()
        self.tools: tuple[McpTool, ...] = ()
        self.has_resources = False
        self.has_logging = False
        self.has_prompts = False
        self.prompts: tuple[McpPromptDef, ...] = ()
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
        self._listed = asyncio.Event()
        """Set while ``tools`` are what the server last listed (no re-list pending)."""
        self._listed.set()
        self._stopping = False
        self._scope: anyio.CancelScope | None = None
        self._errlog: IO[str] | None = None
        """A stdio server's stderr file while an attempt runs (it finds the server's processes)."""
        self._task: asyncio.Task[None] | None = None
        self._ever_connected = False
        self._pausing = False
        self._came_up = False
        self._poke = asyncio.Event()
        self.session_lost = False
        """The server answered 404 to this session's id: it must be initialised anew."""
        self._auth: object = None
        """The OAuth handler of the current remote connection."""
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
        if self.state in ("failed", "needs-auth"):
            self.state = "reconnecting"
        self._task = asyncio.get_running_loop().create_task(
            self._run(), name=f"mcp:{self.config.name}"
        )

    def restart(self) -> None:
        """Connect again after :meth:`stop` (a server switched back on)."""
        self._stopping = False
        self.start()

    async def stop(self) -> None:
        """Close the connection (and end the server process)."""
        self._stopping = True
        task = self._task
        if self._scope is not None:
            self._scope.cancel()
        elif task is not None:
            task.cancel()  # between attempts: nothing to close gracefully
        if task is not None and not task.done():
            with anyio.CancelScope(shield=True):
                with anyio.move_on_after(STOP_WAIT_S):
                    await asyncio.wait({task})
                errlog = self._errlog
                if not task.done() and errlog is not None:
                    # Stuck: on Python < 3.12 a spawn cancelled mid-start waits for pipes
                    # that the server's children still hold (CPython gh-125502).
                    await kill_server(errlog)
                    with anyio.move_on_after(KILL_WAIT_S):
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

        A connection still starting is waited for up to the startup timeout; a remote
        server between reconnect attempts is tried again at once. Anything else raises
        ToolError with a message for the model.
        """
        if self.state == "connected" and self.session is not None and not self._dead:
            return self.session
        if self.state == "closed":
            raise ToolError(f'The MCP server "{self.config.name}" has been shut down.')
        if self.state == "needs-auth" and self._authorized_since():
            self.start()  # a login in another terminal stored a token meanwhile
        if self._task is None or self._task.done():
            if self.state == "pending" or (self.state == "failed" and self._ever_connected):
                self.start()  # not started yet, or it worked before: try again now
        else:
            self._retry_now()
        startup = self.manager.settings.startup_timeout_s
        if not self._settled.is_set() or self._dead:
            await self.wait_settled(startup)
        if self.state == "connected" and self.session is not None and not self._dead:
            return self.session
        name = self.config.name
        if self.state == "needs-auth":
            from hands.mcp.oauth import login_hint

            raise ToolError(
                f'The MCP server "{name}" needs authorization before its tools can be used. '
                f"Tell the user to {login_hint(name)}; continue without its tools for now."
            )
        if self.retrying:
            raise ToolError(
                f'The MCP server "{name}" is unavailable (reconnecting, attempt {self.attempt}): '
                f"{self.error or 'no answer'}. hands keeps trying in the background and its "
                "tools come back when it does; continue without it for now or try again later."
            )
        if self.state in ("pending", "reconnecting"):
            raise ToolError(
                f'The MCP server "{name}" is still connecting after '
                f"{startup:g} s. Try again later, or continue without its tools."
            )
        raise ToolError(
            f'The MCP server "{name}" is not connected: '
            f"{self.error or 'unknown error'}. Its tools cannot be used now; continue "
            "without them, or tell the user to fix the server (`hands mcp list` shows "
            "its status)."
        )

    @property
    def remote(self) -> bool:
        """A server reached over the network (HTTP or SSE), retried for the whole session."""
        return self.config.transport != "stdio"

    @property
    def retrying(self) -> bool:
        """Between two attempts of a reconnect loop that has not given up."""
        return self._pausing and not self._stopping

    def _retry_now(self) -> None:
        """Cut the pause between two attempts short: the next one starts at once."""
        if self._pausing:
            self._begin_attempt()
            self._poke.set()

    def _begin_attempt(self) -> None:
        if self._settled.is_set():
            self._settled = asyncio.Event()

    @property
    def busy(self) -> bool:
        """The connection dropped or its tools are being listed again."""
        return self._dead or not self._listed.is_set()

    async def wait_listed(self, limit: float) -> None:
        """Wait (up to ``limit`` s) for a re-list that ``list_changed`` asked for."""
        with anyio.move_on_after(limit):
            await self._listed.wait()

    def mark_dead(self) -> None:
        """The transport failed under a call: drop this connection and reconnect."""
        if self.state == "connected":
            self._dead = True
            if self._settled.is_set():
                self._settled = asyncio.Event()
        self._wake.set()

    # -- the background task ---------------------------------------------------------

    async def _run(self) -> None:
        failures = 0
        while not self._stopping:
            self._came_up = False
            try:
                async with self.manager.connect_slot():
                    self.attempt += 1
                    await self._connect_once()
            except Exception as exc:  # anything the transport or SDK raises
                if self._wants_auth(exc):
                    self._needs_auth()
                    return
                if not self._came_up:
                    failures += 1
                    self.error = describe_failure(self.config, exc)
            if self._came_up:
                failures = 0  # it was up and then went away: reconnect at once
                self.error = "the server closed the connection"
            self._scope = None
            self.session = None
            if self._stopping:
                break
            if failures and not self._keeps_trying(failures):
                self._give_up()
                return
            if not failures:
                self.state = "reconnecting"
                self._begin_attempt()
                self.manager.changed()
                continue
            # A failed attempt: waiters learn it now; the next one follows a pause.
            self.state = "reconnecting" if self._ever_connected else "failed"
            if not self._ever_connected:
                self._drop_tools()
            self._settled.set()
            self.manager.changed()
            await self._pause(_backoff(failures, self.manager.settings.reconnect_cap_s))
            self._begin_attempt()

    def _wants_auth(self, exc: BaseException) -> bool:
        from hands.mcp.oauth import find_needs_auth

        flagged = getattr(self._auth, "needs_auth", False) is True
        return flagged or find_needs_auth(exc) is not None

    def _needs_auth(self) -> None:
        """No usable token: report it and stop (retrying cannot help until a login)."""
        from hands.mcp.oauth import login_hint

        self._scope = None
        self.session = None
        self.state = "needs-auth"
        self.error = f"needs authorization: {login_hint(self.config.name)}"
        self._drop_tools()
        self.manager.changed()
        self._settled.set()

    def _authorized_since(self) -> bool:
        """Whether a token was stored after this server was found to need one."""
        from hands.mcp.auth_store import AuthRecord

        return AuthRecord(self.manager.settings.auth_dir, self.config).has_tokens

    def _keeps_trying(self, failures: int) -> bool:
        """Remote servers are retried for the whole session; a stdio one a few times."""
        if self.remote:
            return True
        return self._ever_connected and failures <= self.manager.settings.reconnect_attempts

    def _give_up(self) -> None:
        self.state = "failed"
        self._drop_tools()
        self.manager.changed()
        self._settled.set()

    def _drop_tools(self) -> None:
        self.tools = ()
        self.definitions = ()
        self.cached = False
        if self.manager.tool_cache is not None:
            self.manager.tool_cache.invalidate(self.config)

    async def _pause(self, seconds: float) -> None:
        self._poke = asyncio.Event()
        self._pausing = True
        try:
            with anyio.move_on_after(seconds):
                await self._poke.wait()
        finally:
            self._pausing = False

    async def _connect_once(self) -> None:
        """One connection, from spawn (or dial) to its end; raises when it cannot start."""
        started = time.perf_counter()
        startup = self.manager.settings.startup_timeout_s
        self._dead = False
        self._refresh = False
        self.session_lost = False
        self._listed.set()
        self._wake = asyncio.Event()
        errlog: IO[str] | None = None
        if self.config.transport == "stdio":
            errlog = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        self._errlog = errlog
        try:
            await self._connect_with(errlog, started, startup)
        finally:
            self._errlog = None
            if errlog is not None:
                errlog.close()

    async def _connect_with(self, errlog: IO[str] | None, started: float, startup: float) -> None:
        from mcp_types import Implementation

        from mcp import ClientSession

        def on_end() -> None:
            self._dead = True
            self._begin_attempt()  # callers wait for the reconnection
            self._wake.set()

        with anyio.CancelScope(deadline=anyio.current_time() + startup) as scope:
            self._scope = scope
            if self._stopping:
                scope.cancel()
            async with contextlib.AsyncExitStack() as stack:
                process = None
                if errlog is not None:
                    transport = self._stdio(errlog)
                    streams = await stack.enter_async_context(transport)
                    process = transport_process(transport)
                elif self.config.transport == "sdk":
                    streams = await stack.enter_async_context(self._sdk())
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
                        list_roots_callback=self._list_roots,
                        logging_callback=self._on_log,
                        elicitation_callback=(
                            self._elicit if self.manager.elicit is not None else None
                        ),
                        sampling_callback=self._sample if self._offers_sampling() else None,
                    )
                )
                try:
                    init = await session.initialize()
                    tools = await self._list_tools(session)
                    await self._after_initialize(session, init.capabilities)
                except BaseException as exc:
                    if errlog is None:
                        raise
                    if isinstance(exc, anyio.get_cancelled_exc_class()):
                        # stopped, or out of time, before it finished starting: nothing to
                        # close gracefully, and the transport's stop would wait its grace
                        await kill_server(errlog)
                        raise
                    status = await ended_with(process)
                    raise WithStderr(exc, _tail(errlog), exit_status=status) from exc
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
                self._came_up = True
                self.connect_ms = (time.perf_counter() - started) * 1000
                self.manager.changed()
                self._settled.set()
                while not self._dead:
                    if self._refresh:
                        self._refresh = False
                        try:
                            with contextlib.suppress(Exception):
                                self._set_tools(await self._list_tools(session))
                                self._save_tools()
                                self.manager.changed()
                        finally:
                            if not self._refresh:
                                self._listed.set()
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

    def _sdk(self) -> contextlib.AbstractAsyncContextManager[Any]:
        from hands.mcp.sdk_transport import sdk_streams

        link = self.manager.sdk_link
        if link is None:
            raise ConnectionError("no SDK program is attached to host this server")
        return sdk_streams(self.config.name, link)

    def _remote(self, headers: dict[str, str]) -> contextlib.AbstractAsyncContextManager[Any]:
        from hands.mcp.oauth import connection_auth

        config = self.config
        auth = connection_auth(config, self.manager.settings.auth_dir, self.manager.login)
        self._auth = auth
        if config.transport == "sse":
            from mcp.client.sse import sse_client

            return sse_client(config.url, headers=headers or None, auth=auth)
        return _streamable_http(config.url, headers, self._lost_session, auth)

    def _lost_session(self) -> None:
        """HTTP 404 for this session's id: the server forgot it (restarted)."""
        self.session_lost = True
        self.mark_dead()

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
            self._listed.clear()
            self._wake.set()
        elif method == "notifications/resources/list_changed":
            self.manager.changed()
        elif method == "notifications/prompts/list_changed" and self.session is not None:
            with contextlib.suppress(Exception):
                await self._list_prompts(self.session)

    async def _after_initialize(self, session: ClientSession, caps: Any) -> None:
        """Prompts listed, and the log level sent when one is asked for."""
        self.has_logging = caps.logging is not None
        self.has_prompts = caps.prompts is not None
        if self.has_prompts:
            await self._list_prompts(session)
        level = self.manager.log_level
        if self.has_logging and level is not None:
            await session.set_logging_level(level)  # pyright: ignore[reportDeprecated]

    async def _list_prompts(self, session: ClientSession) -> None:
        from hands.mcp.prompts import prompt_defs

        result = await session.list_prompts()
        self.prompts = tuple(prompt_defs(self.config.name, result))

    async def _list_roots(self, context: Any) -> Any:
        from mcp_types import ListRootsResult, Root

        roots = [Root.model_validate(r) for r in root_entries(self.manager.roots)]
        return ListRootsResult(roots=roots)

    async def _elicit(self, context: Any, params: Any) -> Any:
        from mcp_types import ElicitResult

        from hands.mcp.elicitation import request_from_params, with_defaults

        handler = self.manager.elicit
        if handler is None:
            return ElicitResult(action="decline")
        request = request_from_params(self.config.name, params)
        answer = with_defaults(request, await handler(request))
        content = dict(answer.content) if answer.content is not None else None
        return ElicitResult(action=answer.action, content=content)

    def _offers_sampling(self) -> bool:
        """Whether to advertise sampling to this server.

        When something serves it and the entry does not say ``off``; when nobody can
        approve a request (print mode), only to servers whose entry says ``auto``.
        """
        if self.manager.sample is None or self.config.sampling == "off":
            return False
        return self.config.sampling == "auto" or self.manager.sample_can_ask

    async def _sample(self, context: Any, params: Any) -> Any:
        from mcp_types import CreateMessageResult, ErrorData, TextContent

        from hands.mcp.sampling import SamplingDeclined, request_from_params

        handler = self.manager.sample
        try:
            if handler is None or self.config.sampling == "off":
                raise SamplingDeclined("sampling is not offered to this server")
            request = request_from_params(
                self.config.name, params, auto=self.config.sampling == "auto"
            )
            reply = await handler(request)
        except SamplingDeclined as exc:
            return ErrorData(code=-1, message=f"Sampling request declined: {exc}")
        except Exception as exc:
            return ErrorData(code=-32603, message=f"Sampling failed: {type(exc).__name__}: {exc}")
        return CreateMessageResult(
            role="assistant",
            content=TextContent(type="text", text=reply.text),
            model=reply.model,
            stop_reason=reply.stop_reason,
        )

    async def _on_log(self, params: Any) -> None:
        log_to_python(
            McpLogMessage(
                server=self.config.name,
                level=str(params.level),
                data=params.data,
                logger=params.logger,
            )
        )

    def status(self) -> ServerStatus:
        """The line for ``hands mcp list``."""
        config = self.config
        return ServerStatus(
            name=config.name,
            scope=config.scope,
            transport=config.transport,
            target=config.target,
            state=self.state,
            error=self._status_error(),
            tools=tuple(d.name for d in self.definitions) if self.state == "connected" else (),
            resources=self.has_resources,
            server_info=self.server_info,
            connect_ms=self.connect_ms,
        )

    def _status_error(self) -> str:
        if self.idle:
            return "not started: its tools are deferred and cached; it starts when one is needed"
        if self.retrying:
            return f"{self.error}; reconnecting (attempt {self.attempt + 1} next)"
        return self.error


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


def _backoff(failures: int, cap: float) -> float:
    """Seconds before attempt ``failures + 1``: 0.25 s doubling, at most ``cap``."""
    return min(cap, 0.25 * 2 ** min(failures - 1, 16))


@contextlib.asynccontextmanager
async def _streamable_http(
    url: str, headers: Mapping[str, str], on_lost: Callable[[], None], auth: Any
) -> AsyncGenerator[Any]:
    from mcp.client.streamable_http import MCP_SESSION_ID, streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client  # pyright: ignore[reportPrivateUsage]

    async def watch(response: Any) -> None:
        if response.status_code == 404 and MCP_SESSION_ID in response.request.headers:
            on_lost()

    async with create_mcp_http_client(headers=dict(headers) or None, auth=auth) as http:
        http.event_hooks = {**http.event_hooks, "response": [watch]}
        async with streamable_http_client(url, http_client=http) as streams:
            yield streams


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("hands")
    except Exception:
        return "0"
