"""The Messages API over plain HTTP: one streamed ``POST /v1/messages`` per model turn.

A :func:`messages_client` sends the request as an
:class:`~hands.models.event_stream.EventStreamClient` and reads the server-sent events
into dicts, the shape :class:`~hands.models.anthropic.StreamAssembler` takes. An
``error`` event raises :class:`~hands.models.event_stream.ApiStatusError`, like an HTTP
error status; an error while reading the stream is the HTTP library's own exception, and
invalid event data a ``ValueError``.

The credentials, base URL and extra headers are read as the ``anthropic`` SDK reads them:
an explicit ``api_key`` or ``auth_token`` wins, else ``ANTHROPIC_API_KEY``, else
``ANTHROPIC_AUTH_TOKEN``; ``ANTHROPIC_BASE_URL``; ``ANTHROPIC_CUSTOM_HEADERS`` (one
``Name: value`` a line), under ``default_headers``.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncGenerator, Mapping
from typing import Any

import httpx2

from hands.models.event_stream import ApiStatusError, EventStreamClient, events, json_object

API_VERSION = "2023-06-01"
DEFAULT_BASE_URL = "https://api.anthropic.com"


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


def messages_client(
    *,
    api_key: str | None = None,
    auth_token: str | None = None,
    base_url: str | None = None,
    timeout: float,
    default_headers: Mapping[str, str] | None,
) -> EventStreamClient:
    """A client of ``{base_url}/v1/messages``; settings missing are the environment's."""
    env = os.environ
    api_key, auth_token = static_credential(api_key, auth_token, env)
    base = base_url or env.get("ANTHROPIC_BASE_URL") or DEFAULT_BASE_URL
    headers: dict[str, str] = {
        "accept": "application/json",
        "content-type": "application/json",
        "anthropic-version": API_VERSION,
        "x-stainless-retry-count": "0",
    }
    if api_key:
        headers["x-api-key"] = api_key
    elif auth_token:
        headers["authorization"] = f"Bearer {auth_token}"
    for name, value in {**custom_headers(env), **(default_headers or {})}.items():
        headers[name.lower()] = value
    url = base.rstrip("/") + "/v1/messages"
    return EventStreamClient(url=url, headers=headers, timeout=timeout, read=_events)


async def _events(response: httpx2.Response) -> AsyncGenerator[Mapping[str, Any]]:
    """The JSON objects of the stream's events; ``ping`` and unnamed events are skipped."""
    async for sse in events(response):
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
        if sse.data:
            yield json_object(sse.data, sse.event)
