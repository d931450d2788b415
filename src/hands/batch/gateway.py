"""One door to the model APIs for every session of a batch: a limit and a shared back-off.

Each session is a process of its own (on this machine or on another node of a Ray
cluster), so a limit on concurrent model requests cannot live in any one of them. The
gateway is a small HTTP reverse proxy the batch starts beside its driver: the sessions'
``ANTHROPIC_BASE_URL`` / ``OPENAI_BASE_URL`` point at it, it forwards each request to
the real API unchanged (headers, API key and body as the session sent them; the
response streamed back as it arrives) and lets at most ``limit`` be in flight at once.
A rate-limited answer (429, or Anthropic's 529 "overloaded") holds *every* new request
for the delay the API asked for (``retry-after``) or an exponential back-off, and the
request is sent again, up to ``retries`` times; after that the session sees the answer
and its own retry takes over.
"""

from __future__ import annotations

import asyncio
import email.utils
import socket
import threading
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from hands.models.catalog import HTTP_PROVIDERS

_RATE_LIMITED = frozenset({429, 529})
_HOP_BY_HOP = frozenset(
    {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "host",
     "proxy-authorization", "proxy-connection", "content-length"}
)  # fmt: skip


@dataclass(kw_only=True)
class GatewayStats:
    """What went through the gateway."""

    requests: int = 0
    """Requests answered (each counted once, however often it was sent)."""
    peak_in_flight: int = 0
    rate_limited: int = 0
    """Rate-limited answers the gateway waited out and sent again."""
    waited_s: float = 0.0
    """Seconds new requests were held by a back-off."""


@dataclass(kw_only=True)
class ModelGateway:
    """The proxy; :meth:`start` it, give the sessions :meth:`session_env`, :meth:`stop` it."""

    limit: int
    env: Mapping[str, str]
    """The batch's environment: which providers are configured, and their addresses."""
    host: str = "127.0.0.1"
    """Where it listens: an address every worker node can reach."""
    retries: int = 6
    max_backoff_s: float = 60.0
    stats: GatewayStats = field(default_factory=GatewayStats)
    _upstreams: dict[str, str] = field(default_factory=lambda: dict[str, str]())
    _port: int = 0
    _thread: threading.Thread | None = None
    _server: Any = None
    _in_flight: int = 0
    _resume_at: float = 0.0
    _slots: asyncio.Semaphore = field(init=False)
    _client: httpx.AsyncClient = field(init=False)

    def __post_init__(self) -> None:
        if self.limit < 1:
            raise ValueError("the model request limit must be at least 1")
        self._slots = asyncio.Semaphore(self.limit)
        self._client = httpx.AsyncClient(timeout=httpx.Timeout(600.0, connect=30.0))
        for name, api in HTTP_PROVIDERS.items():
            variable = api.base_url_variable
            if any(self.env.get(v) for v in (*api.key_variables, variable)):
                self._upstreams[name] = (self.env.get(variable) or api.api_address).rstrip("/")

    @property
    def providers(self) -> tuple[str, ...]:
        """The providers it forwards to (those the environment configures)."""
        return tuple(self._upstreams)

    def session_env(self) -> dict[str, str]:
        """Base-URL variables that send a session's model requests through the gateway."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return {
            HTTP_PROVIDERS[name].base_url_variable: f"http://{host}:{self._port}/{name}"
            for name in self._upstreams
        }

    def start(self) -> None:
        """Listen (on a free port of ``host``) and serve from a thread of its own."""
        import uvicorn

        sock = socket.create_server((self.host, 0), family=_family(self.host))
        self._port = int(sock.getsockname()[1])
        config = uvicorn.Config(
            self._app(),
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_keep_alive=30,
        )
        server = uvicorn.Server(config)
        self._server = server
        ready = threading.Event()

        def serve() -> None:
            loop = asyncio.new_event_loop()
            loop.call_soon(ready.set)
            try:
                loop.run_until_complete(server.serve(sockets=[sock]))
            finally:
                loop.run_until_complete(self._client.aclose())
                loop.close()

        self._thread = threading.Thread(target=serve, name="hands-model-gateway", daemon=True)
        self._thread.start()
        ready.wait(10)

    def stop(self) -> None:
        """Stop serving; requests still open are cut."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(10)

    def _app(self) -> Any:
        from starlette.applications import Starlette
        from starlette.routing import Route

        methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]
        return Starlette(routes=[Route("/{provider}/{path:path}", self._forward, methods=methods)])

    async def _forward(self, request: Any) -> Any:
        from starlette.responses import JSONResponse, StreamingResponse

        provider = str(request.path_params["provider"])
        upstream = self._upstreams.get(provider)
        if upstream is None:
            return JSONResponse({"error": f"no model API {provider!r} here"}, status_code=404)
        url = f"{upstream}/{request.path_params['path']}"
        if request.url.query:
            url += f"?{request.url.query}"
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP_BY_HOP}
        body = await request.body()
        for attempt in range(self.retries + 1):
            await self._hold()
            await self._slots.acquire()
            self._in_flight += 1
            self.stats.peak_in_flight = max(self.stats.peak_in_flight, self._in_flight)
            try:
                sent = self._client.build_request(
                    request.method, url, headers=headers, content=body
                )
                answer = await self._client.send(sent, stream=True)
            except httpx.HTTPError as exc:
                self._release()
                message = f"the model gateway could not reach {upstream}: {exc}"
                return JSONResponse({"error": message}, status_code=502)
            if answer.status_code in _RATE_LIMITED and attempt < self.retries:
                await answer.aclose()
                self._release()
                self._back_off(answer, attempt)
                continue
            self.stats.requests += 1
            kept = {k: v for k, v in answer.headers.items() if k.lower() not in _HOP_BY_HOP}
            return StreamingResponse(
                self._relay(answer), status_code=answer.status_code, headers=kept
            )
        raise AssertionError("unreachable: the last attempt returns")

    async def _relay(self, answer: httpx.Response) -> AsyncIterator[bytes]:
        try:
            async for chunk in answer.aiter_raw():
                yield chunk
        finally:
            await answer.aclose()
            self._release()

    def _release(self) -> None:
        self._in_flight -= 1
        self._slots.release()

    async def _hold(self) -> None:
        wait = self._resume_at - time.monotonic()
        if wait > 0:
            self.stats.waited_s += wait
            await asyncio.sleep(wait)

    def _back_off(self, answer: httpx.Response, attempt: int) -> None:
        self.stats.rate_limited += 1
        delay = _retry_after(answer.headers) or min(self.max_backoff_s, 0.5 * 2**attempt)
        self._resume_at = max(self._resume_at, time.monotonic() + min(delay, self.max_backoff_s))


def _retry_after(headers: httpx.Headers) -> float | None:
    """The delay a rate-limited answer asks for (seconds, or an HTTP date)."""
    value = headers.get("retry-after-ms")
    if value:
        try:
            return max(0.0, float(value) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET
