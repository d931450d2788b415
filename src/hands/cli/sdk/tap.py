"""The model as the SDK front end sees it: time in requests, usage per model, raw events.

``duration_api_ms``, ``modelUsage`` and the ``stream_event`` partials of
``--include-partial-messages`` come from here, one wrapper around the session's model.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from hands.models.base import MessageStop, Model, ModelRequest, StreamEvent, WrappedModel
from hands.models.facts import facts_of
from hands.models.ledger import UsageLedger


@dataclass(kw_only=True)
class ModelTally:
    """What the session's requests cost: time in the model, usage and cost per model."""

    api_ms: float = 0.0
    ledger: UsageLedger = field(default_factory=UsageLedger)


class TappedModel(WrappedModel):
    """Forwards every request to ``inner``; counts time and usage; shows each event."""

    def __init__(
        self,
        inner: Model,
        tally: ModelTally,
        on_event: Callable[[StreamEvent], None] | None = None,
    ) -> None:
        super().__init__(inner)
        self.tally = tally
        self.on_event = on_event

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """The inner model's stream, timed."""
        started = time.perf_counter()
        try:
            async for event in self.inner.stream(request):
                if isinstance(event, MessageStop):  # a fallback's usage under its own facts
                    served: Model = getattr(self.inner, "serving", self.inner)
                    self.tally.ledger.add(facts_of(served), event.usage)
                if self.on_event is not None:
                    self.on_event(event)
                yield event
        finally:
            self.tally.api_ms += (time.perf_counter() - started) * 1000
