"""The Messages API over plain HTTP: one streamed ``POST /v1/messages`` per model turn.

:class:`MessagesClient` sends the request with an ``httpx2.AsyncClient`` (made on the first
request, its connections kept alive across turns) and reads the server-sent events into
dicts, the shape :class:`~hands.models.anthropic.StreamAssembler` takes. Failures come out
as :class:`ApiStatusError` (an HTTP error status, or an ``error`` event in the stream) and
:class:`ApiConnectionError` (the request never got an answer); an error while reading the
stream is the HTTP library's own exception, and invalid event data a ``ValueError``.

The credentials, base URL and extra headers are read as the ``anthropic`` SDK reads them:
an explicit ``api_key`` or ``auth_token`` wins, else ``ANTHROPIC_API_KEY``, else
``ANTHROPIC_AUTH_TOKEN``; ``ANTHROPIC_BASE_URL``; ``ANTHROPIC_CUSTOM_HEADERS`` (one
``Name: value`` a line), under ``default_headers``. Proxies come from the environment.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from contextlib import AbstractAsyncContextManager, aclosing, asynccontextmanager, suppress
from typing import Any, Protocol, cast

import anyio
import anyio.lowlevel
import httpx2

API_VERSION = "2023-06-01"
DEFAULT_BASE_URL = "https://api.anthropic.com"
_LIMITS = httpx2.Limits(max_connections=1000, max_keepalive_connections=100)
_DRAIN_SECONDS = 5.0


class ApiStatusError(Exception):
    """The API answered an error: an HTTP status of 400 or more, or an ``error`` event.

    ``body`` is the answer's JSON (``{"type": "error", "error": {"type", "message"}}``)
    or its text; ``headers`` are the response's.
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
    """An event's data is JSON, but not the object every Messages API event is."""


class MessagesTransport(Protocol):
    """Sends one streaming Messages request per :meth:`open`; :meth:`close` frees it."""

    def open(
        self, params: Mapping[str, Any]
    ) -> AbstractAsyncContextManager[AsyncIterator[Mapping[str, Any]]]:
        """Send the request (``messages.create``'s keyword arguments); yield its events."""
        ...

    async def close(self) -> None:
        """Close the connections."""
        ...


def _error(body: object) -> Mapping[str, Any]:
    if not isinstance(body, Mapping):
        return {}
    error = cast(Mapping[str, Any], body).get("error")
    return cast(Mapping[str, Any], error) if isinstance(error, Mapping) else {}


def static_credential(
    api_key: str | None, auth_token: str | None, env: Mapping[str, str]
) -> tuple[str | None, str | None]:
    """``(api_key, auth_token)``, at most one set: the explicit one, else the environment's."""
    if api_key or auth_token:
        return (api_key, None) if api_key else (None, auth_token)
    api_key = env.get("ANTHROPIC_API_KEY") or None
    return (api_key, None) if api_key else (None, env.get("ANTHROPIC_AUTH_TOKEN") or None)


def custom_headers(env: Mapping[str, str]) -> dict[str, str]:
    """The ``Name: value`` lines of ``ANTHROPIC_CUSTOM_HEADERS``."""
    headers: dict[str, str] = {}
    for line in env.get("ANTHROPIC_CUSTOM_HEADERS", "").split("\n"):
        name, colon, value = line.partition(":")
        if colon:
            headers[name.strip()] = value.strip()
    return headers


class MessagesClient:
    """Streams Messages API turns from one base URL with one credential."""

    def __init__(
        self,
        *,
        api_key: str | None = None,
        auth_token: str | None = None,
        base_url: str | None = None,
        timeout: float = 600.0,
        default_headers: Mapping[str, str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        """Resolve the settings now (``env`` defaults to ``os.environ``); connect later."""
        env = os.environ if env is None else env
        api_key, auth_token = static_credential(api_key, auth_token, env)
        base = base_url or env.get("ANTHROPIC_BASE_URL") or DEFAULT_BASE_URL
        self.url = base.rstrip("/") + "/v1/messages"
        self.headers: dict[str, str] = {
            "accept": "application/json",
            "content-type": "application/json",
            "anthropic-version": API_VERSION,
            "x-stainless-retry-count": "0",
        }
        if api_key:
            self.headers["x-api-key"] = api_key
        elif auth_token:
            self.headers["authorization"] = f"Bearer {auth_token}"
        for name, value in {**custom_headers(env), **(default_headers or {})}.items():
            self.headers[name.lower()] = value
        self.timeout = timeout
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
    async def open(
        self, params: Mapping[str, Any]
    ) -> AsyncGenerator[AsyncIterator[Mapping[str, Any]]]:
        """Send one streaming request; yields its events, each the JSON object of one.

        ``params`` are ``messages.create``'s keyword arguments; an ``extra_body`` among
        them is merged into the JSON body.
        """
        body = {k: v for k, v in params.items() if k != "extra_body"}
        body.update(params.get("extra_body") or {})
        http = self._client()
        request = http.build_request("POST", self.url, json=body, headers=self.headers)
        try:
            response = await http.send(request, stream=True)
        except Exception as exc:
            raise ApiConnectionError(_describe(exc)) from exc
        try:
            if response.is_error:
                raise await _status_error(response)
            async with aclosing(_events(response)) as events:
                yield events
        finally:
            await response.aclose()

    async def close(self) -> None:
        """Close the connections (a later request opens new ones)."""
        http, self._http = self._http, None
        if http is not None and self._loop is anyio.lowlevel.current_token().native_token:
            await http.aclose()


async def _status_error(response: httpx2.Response) -> Exception:
    status = response.status_code
    try:
        text = (await response.aread()).decode(errors="replace").strip()
    except Exception as exc:
        return ApiConnectionError(f"the {status} answer was cut off ({_describe(exc)})")
    body: object = text
    try:
        body = json.loads(text)
        message = f"Error code: {status} - {body}"
    except ValueError:
        message = text or f"Error code: {status}"
    return ApiStatusError(message, status=status, body=body, headers=response.headers)


async def _events(response: httpx2.Response) -> AsyncGenerator[Mapping[str, Any]]:
    """The JSON objects of the stream's events; ``ping`` and unnamed events are skipped."""
    async for sse in httpx2.EventSource(response, max_event_size=None):
        if sse.event in ("ping", "message"):
            continue
        if sse.event == "error":
            try:
                body: object = json.loads(sse.data)
                message = f"{body}"
            except ValueError:
                body = sse.data
                message = sse.data or f"Error code: {response.status_code}"
            raise ApiStatusError(
                message, status=response.status_code, body=body, headers=response.headers
            )
        if not sse.data:
            continue
        data = json.loads(sse.data)
        if not isinstance(data, dict):
            raise InvalidEventError(
                f"a {sse.event} event's data is not a JSON object: {sse.data[:200]}"
            )
        yield cast(dict[str, Any], data)


async def drain(events: AsyncIterator[object]) -> None:
    """Read the rest of a finished message's stream, so its connection serves the next turn.

    A server that keeps the stream open past ``message_stop`` gets a few seconds; the
    connection is then closed instead. Errors here are ignored: the message is complete.
    """
    with anyio.move_on_after(_DRAIN_SECONDS), suppress(Exception):
        async for _ in events:
            pass


def _describe(exc: Exception) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
