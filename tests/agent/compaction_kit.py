"""A scripted model for compaction tests: summary requests get a summary of their own."""

from __future__ import annotations

from collections.abc import AsyncIterator

from hands.agent.compaction.summary import SUMMARY_SYSTEM
from hands.models.base import ModelRequest, StreamEvent
from hands.models.facts import ModelFacts
from hands.testing import ScriptedModel


class Summaries:
    """The scripted model for the session; summary requests get a summary of their own."""

    def __init__(self, inner: ScriptedModel) -> None:
        self.inner = inner
        self.requests: list[ModelRequest] = []

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def facts(self) -> ModelFacts:
        return self.inner.facts

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        self.requests.append(request)
        if request.system == SUMMARY_SYSTEM:
            summary = ScriptedModel.from_turns([{"type": "text", "text": "SUMMARY: read."}])
            async for event in summary.stream(request):
                yield event
            return
        async for event in self.inner.stream(request):
            yield event
