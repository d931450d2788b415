"""``opusplan``: one model while planning, another for the rest of the session."""

from __future__ import annotations

from collections.abc import AsyncIterator

from hands.models.base import Model, ModelRequest, StreamEvent
from hands.models.facts import ModelFacts, facts_of


class PlanModeModel:
    """Streams with ``plan`` while the session is in plan mode, ``other`` otherwise.

    The agent loop asks :func:`model_in_mode` for the model of each request, so a session
    that leaves plan mode mid-turn implements the plan on ``other``.
    """

    def __init__(self, *, label: str, plan: Model, other: Model) -> None:
        self.label = label
        self.plan = plan
        self.other = other

    @property
    def name(self) -> str:
        """``PROVIDER:LABEL`` (``anthropic:opusplan``)."""
        return f"{self.other.name.partition(':')[0]}:{self.label}"

    @property
    def facts(self) -> ModelFacts:
        """The facts of the model for the rest of the session (whose window the session has)."""
        return facts_of(self.other)

    def for_mode(self, mode: str) -> Model:
        """The model for a request made in permission mode ``mode``."""
        return self.plan if mode == "plan" else self.other

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """A request made without a mode goes to the model for the rest of the session."""
        return self.other.stream(request)

    async def aclose(self) -> None:
        """Close both models' connections."""
        for model in (self.plan, self.other):
            close = getattr(model, "aclose", None)
            if close is not None:
                await close()


def model_in_mode(model: Model, mode: str) -> Model:
    """The model that serves a request made in permission mode ``mode``."""
    return model.for_mode(mode) if isinstance(model, PlanModeModel) else model
