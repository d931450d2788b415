"""A scripted model for compaction tests: summary requests get a summary of their own."""

from __future__ import annotations

from collections.abc import AsyncIterator

from hands.agent.compaction.summary import SUMMARY_SYSTEM
from hands.models.base import ModelRequest, StreamEvent, WrappedModel
from hands.testing import ScriptedModel


class Summaries(WrappedModel):
    """The scripted model for the session; summary requests get a summary of their own."""

    def __init__(self, inner: ScriptedModel) -> None:
        super().__init__(inner)
        self.requests: list[ModelRequest] = []

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        self.requests.append(request)
        if request.system == SUMMARY_SYSTEM:
            summary = ScriptedModel.from_turns([{"type": "text", "text": "SUMMARY: read."}])
            async for event in summary.stream(request):
                yield event
            return
        async for event in self.inner.stream(request):
            yield event
