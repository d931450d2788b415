"""Collecting a provider's stream in the provider tests."""

from __future__ import annotations

from typing import Any

import pytest

from hands.models.base import BlockComplete, Model, ModelRequest, StreamEvent


async def collect(model: Model, request: ModelRequest) -> list[StreamEvent]:
    """Every event of one streamed turn."""
    return [event async for event in model.stream(request)]


async def collect_until_error(
    model: Model, request: ModelRequest, exc_type: type[Exception]
) -> tuple[list[StreamEvent], Exception]:
    """The events before the stream fails with ``exc_type``, and that error."""
    seen: list[StreamEvent] = []
    with pytest.raises(exc_type) as info:
        async for event in model.stream(request):
            seen.append(event)
    return seen, info.value


def completed(events: list[StreamEvent]) -> list[Any]:
    """The blocks of the BlockComplete events."""
    return [e.block for e in events if isinstance(e, BlockComplete)]
