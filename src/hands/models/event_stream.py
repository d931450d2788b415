"""A JSON POST answered with server-sent events: the HTTP side of the streaming providers.

:class:`EventStreamClient` keeps one ``httpx2.AsyncClient`` per event loop, made on the
first request, so a model's turns reuse their connection. A request that gets no answer
raises :class:`ApiConnectionError`; an HTTP error status, :class:`ApiStatusError` with the
answer's JSON (or text). Proxies come from the environment, as ``httpx2`` reads them.
Inside :func:`on_request_sent`, each request written out whole is reported.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Generator, Mapping
from contextlib import (
    AbstractAsyncContextManager,
    aclosing,
    asynccontextmanager,
    contextmanager,
    suppress,
)
from contextvars import ContextVar
from typing import Any, Protocol, cast

import anyio
import anyio.lowlevel
import httpx2

_LIMITS = httpx2.Limits(max_connections=1000, max_keepalive_connections=100)
_DRAIN_SECONDS = 5.0

Reader = Callable[[httpx2.Response], AsyncGenerator[Mapping[str, Any]]]
"""Reads a success response's events into the JSON objects a provider assembles."""

_SENT: ContextVar[Callable[[], None] | None] = ContextVar("hands_request_sent", default=None)


@contextmanager
def on_request_sent(callback: Callable[[], None]) -> Generator[None]:
    """Call ``callback`` when a request made in this context has been written out whole.

    The HTTP client's ``trace`` extension reports it (its body sent, before any answer).
    """
    token = _SENT.set(callback)
    try:
        yield
    finally:
        _SENT.reset(token)


def _tracer(callback: Callable[[], None]) -> Callable[[str, Mapping[str, Any]], Any]:
    async def trace(event: str, info: Mapping[str, Any]) -> None:
        if event.endswith(".send_request_body.complete"):
            callback()

    return trace


class ApiStatusError(Exception):
    """The API answered an error: an HTTP status of 400 or more, or an error in the stream.

    ``body`` is the answer's JSON (Anthropic's ``{"type": "error", "error": {"type",
    "message"}}``) or its text; ``headers`` are the response's.
    """

    def __init__(
        self, message: str, *, status: int, body: object, headers: Mapping[str, str]
    ) -> None:
        super().__init__(message)
        self.status = status
        self.body = body
        self.headers = headers

    @property
    def kind(self) -> str:
        """The API's error type (``overloaded_error``, ...), or ``""``."""
        return str(_error(self.body).get("type") or "")

    @property
    def api_message(self) -> str:
        """The API's explanation, or this error's own message."""
        return str(_error(self.body).get("message") or self)


class ApiConnectionError(Exception):
    """The request got no answer: the connection failed or timed out."""


class InvalidEventError(ValueError):
    """An event's data is JSON, but not the object every event of these APIs is."""


class StreamTransport(Protocol):
    """Sends one streaming request per :meth:`open`; :meth:`close` frees its connections.

    A provider's own HTTP client and the adapter of a vendor SDK's client both fit.
    """

    def open(
        self, params: Mapping[str, Any]
    ) -> AbstractAsyncContextManager[AsyncIterator[Mapping[str, Any]]]:
        """Send the request (the SDK method's keyword arguments); yield its events as dicts."""
        ...

    async def close(self) -> None:
        """Close the connections."""
        ...


def _error(body: object) -> Mapping[str, Any]:
    if not isinstance(body, Mapping):
        return {}
    error = cast(Mapping[str, Any], body).get("error")
    return cast(Mapping[str, Any], error) if isinstance(error, Mapping) else {}


class EventStreamClient:
    """POSTs JSON to one URL with fixed headers; each answer's events are read by ``read``."""

    def __init__(
        self, *, url: str, headers: Mapping[str, str], timeout: float, read: Reader
    ) -> None:
        """Nothing connects before the first request."""
        self.url = url
        self.headers = dict(headers)
        self.timeout = timeout
        self.read = read
        self._http: httpx2.AsyncClient | None = None
        self._loop: object = None

    def _client(self) -> httpx2.AsyncClient:
        """The HTTP client of the running event loop, made on its first request.

        Connections belong to the loop that opened them: a model used again under a new
        loop (another ``anyio.run``) drops the old client, whose loop is gone, unclosed.
        """
        loop = anyio.lowlevel.current_token().native_token
        if self._http is None or self._loop is not loop:
            self._http = httpx2.AsyncClient(
                timeout=httpx2.Timeout(self.timeout), limits=_LIMITS, follow_redirects=True
            )
            self._loop = loop
        return self._http

    @asynccontextmanager
    async def post(
        self, body: Mapping[str, Any], headers: Mapping[str, str] | None = None
    ) -> AsyncGenerator[httpx2.Response]:
        """Send ``body``; yields the response of a success status, its body unread.

        ``headers`` go over the client's own.
        """
        http = self._client()
        sent = {**self.headers, **{k.lower(): v for k, v in (headers or {}).items()}}
        reported = _SENT.get()
        extensions = None if reported is None else {"trace": _tracer(reported)}
        request = http.build_request(
            "POST", self.url, json=body, headers=sent, extensions=extensions
        )
        try:
            response = await http.send(request, stream=True)
        except Exception as exc:
            raise ApiConnectionError(describe(exc)) from exc
        try:
            if response.is_error:
                raise await _status_error(response)
            yield response
        finally:
            await response.aclose()

    @asynccontextmanager
    async def open(
        self, params: Mapping[str, Any]
    ) -> AsyncGenerator[AsyncIterator[Mapping[str, Any]]]:
        """Send one streaming request; yields its events, each a JSON object.

        ``params`` are the SDK method's keyword arguments; an ``extra_body`` among them
        is merged into the JSON body, ``extra_headers`` go over the client's headers.
        """
        body = {k: v for k, v in params.items() if k not in ("extra_body", "extra_headers")}
        body.update(params.get("extra_body") or {})
        headers = params.get("extra_headers")
        async with (
            self.post(body, headers) as response,
            aclosing(self.read(response)) as stream,
        ):
            yield stream

    async def close(self) -> None:
        """Close the connections (a later request opens new ones)."""
        http, self._http = self._http, None
        if http is not None and self._loop is anyio.lowlevel.current_token().native_token:
            await http.aclose()


def events(response: httpx2.Response) -> AsyncIterator[httpx2.ServerSentEvent]:
    """The server-sent events of ``response``, of any size."""
    return aiter(httpx2.EventSource(response, max_event_size=None))


def json_object(data: str, event: str) -> dict[str, Any]:
    """An event's data as a JSON object (``json.JSONDecodeError`` for invalid JSON)."""
    parsed = json.loads(data)
    if not isinstance(parsed, dict):
        raise InvalidEventError(f"a {event} event's data is not a JSON object: {data[:200]}")
    return cast(dict[str, Any], parsed)


async def _status_error(response: httpx2.Response) -> Exception:
    status = response.status_code
    try:
        text = (await response.aread()).decode(errors="replace").strip()
    except Exception as exc:
        return ApiConnectionError(f"the {status} answer was cut off ({describe(exc)})")
    body: object = text
    try:
        body = json.loads(text)
        message = f"Error code: {status} - {body}"
    except ValueError:
        message = text or f"Error code: {status}"
    return ApiStatusError(message, status=status, body=body, headers=response.headers)


async def drain(stream: AsyncIterator[object]) -> None:
    """Read the rest of a finished answer, so its connection serves the next request.

    A server that keeps the stream open past its end gets a few seconds; the connection
    is then closed instead. Errors here are ignored: the answer is complete.
    """
    with anyio.move_on_after(_DRAIN_SECONDS), suppress(Exception):
        async for _ in stream:
            pass


def describe(exc: BaseException) -> str:
    """``Type: message``, or the type alone for an exception without a message."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
