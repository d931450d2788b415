"""``--fallback-model``: a request the main model cannot serve goes to the next model listed.

As Claude Code: when the main model is overloaded (529), failing (5xx) or unavailable
(404, e.g. a model the account cannot use) after its own retries, and before it sent
anything, the same request is sent to each fallback in order. Every request tries the
main model first again.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Sequence
from typing import Any

from hands.errors import ModelAPIError
from hands.models.base import Model, ModelRequest, RetryWait, StreamEvent
from hands.models.facts import ModelFacts, facts_of


def unavailable(exc: ModelAPIError) -> bool:
    """Whether the failure says the model is busy or unavailable, not the request wrong."""
    status = exc.status or 0
    return status == 404 or status >= 500 or "overloaded" in str(exc)


class FallbackModel:
    """``primary``, with ``fallbacks`` tried in order when it cannot serve a request."""

    def __init__(self, primary: Model, fallbacks: Sequence[Model]) -> None:
        self.primary = primary
        self.fallbacks = tuple(fallbacks)
        self.serving: Model = primary
        """The model whose stream is being read (its usage is its own)."""

    @property
    def name(self) -> str:
        """The main model's identifier."""
        return self.primary.name

    @property
    def facts(self) -> ModelFacts:
        """The main model's facts (a request's usage is priced by the model that served it)."""
        return facts_of(self.primary)

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.primary, attr)

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """The stream of the first of the main model and the fallbacks that answers."""
        candidates = (self.primary, *self.fallbacks)
        for position, model in enumerate(candidates):
            last = position == len(candidates) - 1
            answered = False
            self.serving = model
            try:
                async for event in model.stream(request):
                    answered = answered or not isinstance(event, RetryWait)
                    yield event
                return
            except ModelAPIError as exc:
                if answered or last or not unavailable(exc):
                    raise
                print(
                    f"hands: warning: {model.name} cannot serve the request ({exc}); "
                    f"trying the fallback model {candidates[position + 1].name}",
                    file=sys.stderr,
                )
