"""A vendor SDK's client behind :class:`~hands.models.event_stream.StreamTransport`.

The SDK's exceptions become :mod:`hands.models.event_stream`'s, and its event objects
dicts, so a provider handles its own HTTP client and a caller's SDK client alike. Both
``anthropic`` and ``openai`` name their errors ``APIError``, ``APIStatusError`` and
``APIConnectionError``; the SDK is imported only when its client is used.
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any, cast

from hands.models.event_stream import ApiConnectionError, ApiStatusError

Create = Callable[[Any, Mapping[str, Any]], Awaitable[Any]]
"""Sends one request with an SDK client; returns the SDK's stream (an async context manager)."""


class SdkTransport:
    """Streams through the client of the SDK named ``sdk``, translating what it raises."""

    def __init__(self, client: Any, *, sdk: str, create: Create) -> None:
        self.client = client
        self.sdk = sdk
        self._create = create

    @asynccontextmanager
    async def open(
        self, params: Mapping[str, Any]
    ) -> AsyncGenerator[AsyncIterator[Mapping[str, Any]]]:
        """Send one streaming request through the SDK; yields its events as dicts."""
        errors = cast(Any, importlib.import_module(self.sdk))
        try:
            stream = await self._create(self.client, params)
        except errors.APIStatusError as exc:
            raise _status_error(exc) from exc
        except errors.APIConnectionError as exc:
            raise ApiConnectionError(str(exc)) from exc
        async with stream:
            yield _dicts(stream, errors)

    async def close(self) -> None:
        """Close the SDK client's connections."""
        await self.client.close()


async def _dicts(stream: AsyncIterator[Any], errors: Any) -> AsyncIterator[Mapping[str, Any]]:
    try:
        async for item in stream:
            yield item.to_dict(mode="json", warnings=False)
    except errors.APIConnectionError:
        raise
    except errors.APIError as exc:  # an error event (or object) inside the stream
        raise _status_error(exc) from exc


def _status_error(exc: Any) -> ApiStatusError:
    response = getattr(exc, "response", None)
    return ApiStatusError(
        str(exc),
        status=getattr(exc, "status_code", 200),  # in a stream: the 200 it began with
        body=exc.body,
        headers=getattr(response, "headers", {}),
    )


def anthropic_messages(client: Any, params: Mapping[str, Any]) -> Awaitable[Any]:
    """``AsyncAnthropic.messages.create``."""
    return client.messages.create(**params)


def openai_chat(client: Any, params: Mapping[str, Any]) -> Awaitable[Any]:
    """``AsyncOpenAI.chat.completions.create``."""
    return client.chat.completions.create(**params)
