"""Chat Completions over plain HTTP: one streamed ``POST {base_url}/chat/completions`` a turn.

:func:`chat_client` sends the request as an
:class:`~hands.models.event_stream.EventStreamClient` and reads the stream's chunks into
dicts, the shape :class:`~hands.models.openai.ChunkAssembler` takes, up to ``[DONE]``. A
chunk carrying an ``error`` raises :class:`~hands.models.event_stream.ApiStatusError`
with that error as its body, like an HTTP error status.

Settings are read as the ``openai`` SDK reads them: ``OPENAI_API_KEY`` (unless a
``base_url`` is given, whose server may need none), ``OPENAI_BASE_URL``,
``OPENAI_ORG_ID`` and ``OPENAI_PROJECT_ID``. What only the SDK knows (a missing key,
``OPENAI_CUSTOM_HEADERS``, workload identities) is left to it: see :func:`wire_key`.
"""

from __future__ import annotations

import os
from collections.abc import AsyncGenerator, Mapping
from typing import Any, cast

import httpx2

from hands.models.event_stream import (
    ApiStatusError,
    EventStreamClient,
    drain,
    events,
    json_object,
)

DEFAULT_BASE_URL = "https://api.openai.com/v1"
NO_KEY = "no-key-required"
"""The API key sent to a local server that needs none."""


def wire_key(api_key: str | None, base_url: str | None, env: Mapping[str, str]) -> str | None:
    """The key :func:`chat_client` sends, or None when the SDK must build the client."""
    if "OPENAI_CUSTOM_HEADERS" in env:
        return None
    return api_key or (NO_KEY if base_url else env.get("OPENAI_API_KEY") or None)


def chat_client(
    *,
    api_key: str,
    base_url: str | None = None,
    timeout: float,
    default_headers: Mapping[str, str] | None,
) -> EventStreamClient:
    """A client of ``{base_url}/chat/completions``; settings missing are the environment's."""
    env = os.environ
    base = base_url or env.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
    headers = {
        "accept": "application/json",
        "content-type": "application/json",
        "authorization": f"Bearer {api_key}",
    }
    for name, variable in (("openai-organization", "OPENAI_ORG_ID"),
                           ("openai-project", "OPENAI_PROJECT_ID")):  # fmt: skip
        if env.get(variable):
            headers[name] = env[variable]
    headers.update({name.lower(): value for name, value in (default_headers or {}).items()})
    url = base.rstrip("/") + "/chat/completions"
    return EventStreamClient(url=url, headers=headers, timeout=timeout, read=_chunks)


async def _chunks(response: httpx2.Response) -> AsyncGenerator[Mapping[str, Any]]:
    stream = events(response)
    async for sse in stream:
        if sse.data.startswith("[DONE]"):
            await drain(stream)
            return
        chunk = json_object(sse.data, sse.event)
        error: object = chunk.get("error")
        if error:
            detail: Mapping[str, object] = (
                cast(Mapping[str, object], error) if isinstance(error, Mapping) else {}
            )
            message = detail.get("message")
            raise ApiStatusError(
                message if isinstance(message, str) and message else "an error in the stream",
                status=response.status_code,
                body=chunk["error"],
                headers=response.headers,
            )
        yield chunk
