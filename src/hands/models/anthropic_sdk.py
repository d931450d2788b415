"""A caller's own ``AsyncAnthropic`` client behind the interface of :class:`MessagesClient`.

The SDK's exceptions are translated into :mod:`hands.models.anthropic_wire`'s, and its
event objects into dicts, so :class:`~hands.models.anthropic.AnthropicModel` handles both
paths alike. The ``anthropic`` package is imported only here, when such a client is used.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, cast

from hands.models.event_stream import ApiConnectionError, ApiStatusError

if TYPE_CHECKING:
    from anthropic import APIStatusError, AsyncAnthropic, AsyncStream
    from anthropic.types import RawMessageStreamEvent


class SdkMessages:
    """Streams Messages API turns through an ``anthropic.AsyncAnthropic`` client."""

    def __init__(self, client: AsyncAnthropic) -> None:
        self.client = client

    @asynccontextmanager
    async def open(
        self, params: Mapping[str, Any]
    ) -> AsyncGenerator[AsyncIterator[Mapping[str, Any]]]:
        """Send one streaming request through the SDK; yields its events as dicts."""
        import anthropic

        try:
            stream = cast(
                "AsyncStream[RawMessageStreamEvent]",
                await self.client.messages.create(**params),
            )
        except anthropic.APIStatusError as exc:
            raise _status_error(exc) from exc
        except anthropic.APIConnectionError as exc:
            raise ApiConnectionError(str(exc)) from exc
        async with stream:
            yield _events(stream)

    async def close(self) -> None:
        """Close the SDK client's connections."""
        await self.client.close()


async def _events(
    stream: AsyncStream[RawMessageStreamEvent],
) -> AsyncIterator[Mapping[str, Any]]:
    import anthropic

    try:
        async for raw in stream:
            yield raw.to_dict(mode="json", warnings=False)
    except anthropic.APIStatusError as exc:  # an ``error`` event inside the stream
        raise _status_error(exc) from exc


def _status_error(exc: APIStatusError) -> ApiStatusError:
    return ApiStatusError(
        str(exc), status=exc.status_code, body=exc.body, headers=exc.response.headers
    )
