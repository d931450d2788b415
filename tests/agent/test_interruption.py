"""An interrupted turn: the reply cut short is kept, the interruption is marked, and a call
refused with an interrupt keeps its refusal."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands import QueryOptions, query, tool
from hands.agent.events import BlockEvent, MessageEvent, ResultEvent, TextDeltaEvent
from hands.agent.interruption import STOPPED_CALLS, STOPPED_REPLY
from hands.agent.transcript import prompts
from hands.core.decision import AskRequest, PermissionDecision, deny
from hands.core.messages import TextBlock, ToolResultBlock
from hands.models.base import MessageStart, ModelRequest, StreamEvent, TextDelta
from hands.models.facts import facts_for
from hands.orchestration.streaming import NOT_STARTED_INTERRUPTED
from hands.testing import ScriptedModel

pytestmark = pytest.mark.anyio

ran: list[str] = []


@tool
def change(label: str) -> str:
    """Not read-only: asked for outside bypass mode."""
    ran.append(label)
    return f"{label} changed"


@tool(read_only=True)
def look(label: str) -> str:
    """Read-only."""
    ran.append(label)
    return f"{label} seen"


class HalfReply:
    """A model that streams half a sentence, then waits forever."""

    name = "half"
    facts = facts_for("half")

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        yield MessageStart(id="m", model="half")
        yield TextDelta(index=0, text="The answer begins ")
        yield TextDelta(index=0, text="and is cut")
        await anyio.sleep_forever()


async def test_a_reply_cut_short_is_kept_and_the_interruption_marked(tmp_path: Path) -> None:
    q = query("explain", QueryOptions(model=HalfReply(), tools=[look], cwd=tmp_path))
    events: list[Any] = []
    with anyio.fail_after(5):
        async for event in q:
            events.append(event)
            if isinstance(event, TextDeltaEvent) and event.text == "and is cut":
                q.interrupt()
    blocks = [e.block for e in events if isinstance(e, BlockEvent)]
    assert blocks == [TextBlock(text="The answer begins and is cut")]
    result = events[-1]
    assert isinstance(result, ResultEvent) and result.subtype == "interrupted"
    assert [m.role for m in q.messages] == ["user", "assistant", "user"]
    assert q.messages[1].text == "The answer begins and is cut"
    assert q.messages[2].text == STOPPED_REPLY
    recorded = [e.message for e in events if isinstance(e, MessageEvent)]
    assert recorded == q.messages[1:]  # what a transcript records is the conversation
    assert [m.text for m in prompts(q.messages)] == ["explain"]  # the record is no prompt


async def test_a_call_refused_with_an_interrupt_keeps_its_refusal(tmp_path: Path) -> None:
    ran.clear()
    model = ScriptedModel.from_turns(
        [
            {"type": "tool_use", "name": "change", "input": {"label": "a"}},
            {"type": "tool_use", "name": "look", "input": {"label": "b"}},
        ],
        [{"type": "text", "text": "never"}],
    )
    refusal = "The user refused this change and stopped the turn."

    async def ask(request: AskRequest) -> PermissionDecision:
        q.interrupt()  # from inside the call, as the REPL's Esc at the question does
        await anyio.sleep(0)
        return deny(refusal, "refused")

    q = query("go", QueryOptions(model=model, tools=[change, look], cwd=tmp_path, ask=ask))
    with anyio.fail_after(5):
        events = [event async for event in q]
    assert ran == []
    results = [b for b in q.messages[2].content if isinstance(b, ToolResultBlock)]
    assert [r.is_error for r in results] == [True, True]
    assert refusal in results[0].text
    assert results[1].text == NOT_STARTED_INTERRUPTED
    assert q.messages[3].text == STOPPED_CALLS
    assert isinstance(events[-1], ResultEvent) and events[-1].subtype == "interrupted"
    assert model.turns_left == 1  # the model was not asked again
