"""``on_request_sent``: a request made inside it is reported once written out, before any
of its answer has come; one made outside it is not reported."""

from __future__ import annotations

import threading

import anyio
import pytest

from hands.core.messages import user_text
from hands.models.anthropic import AnthropicModel
from hands.models.base import ModelRequest, StreamEvent, TextDelta
from hands.models.event_stream import on_request_sent
from models.loopback import LoopbackServer, Wait, sse_reply
from models.wire import a_end, a_start, a_text

pytestmark = pytest.mark.anyio


async def test_a_request_is_reported_when_written_out_before_its_answer(
    server: LoopbackServer,
) -> None:
    gate = threading.Event()  # holds the answer's events back until the test opens it
    server.queue(sse_reply(Wait(gate=gate, timeout=30), a_start(), *a_text(0, "ok"), *a_end()))
    server.queue(sse_reply(a_start(), *a_text(0, "again"), *a_end()))
    model = server.adopt(AnthropicModel("claude-sonnet-4-6", api_key="k", base_url=server.url))
    request = ModelRequest(messages=(user_text("hi"),))
    written = anyio.Event()
    reports: list[int] = []
    received: list[StreamEvent] = []

    def report() -> None:
        reports.append(len(received))
        written.set()

    async def first() -> None:
        with on_request_sent(report):
            async for event in model.stream(request):
                received.append(event)

    async with anyio.create_task_group() as tg:
        tg.start_soon(first)
        with anyio.fail_after(30):
            await written.wait()
        assert reports == [0] and not received  # written out; nothing of the answer yet
        gate.set()
    assert any(isinstance(e, TextDelta) and e.text == "ok" for e in received)

    async for event in model.stream(request):  # outside the context: not reported
        received.append(event)
    assert reports == [0]
    assert any(isinstance(e, TextDelta) and e.text == "again" for e in received)
