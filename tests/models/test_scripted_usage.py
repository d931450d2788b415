"""The scripted model's usage counts the whole request's JSON, turn after turn."""

from __future__ import annotations

import json

import pytest

from hands.core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock, user_text
from hands.core.tool import ToolSpec
from hands.models.base import MessageStop, ModelRequest
from hands.testing import ScriptedModel

pytestmark = pytest.mark.anyio


def request_chars(request: ModelRequest) -> int:
    return (
        sum(len(json.dumps(m.to_wire())) for m in request.messages)
        + len(request.system)
        + sum(len(json.dumps(t.to_wire())) for t in request.tools)
    )


async def usage_of(model: ScriptedModel, request: ModelRequest) -> int:
    stops = [e async for e in model.stream(request) if isinstance(e, MessageStop)]
    return stops[0].usage.input_tokens


async def test_each_turn_counts_every_message_sent_whether_seen_before_or_not() -> None:
    model = ScriptedModel.from_turns(*([{"type": "text", "text": "ok"}] for _ in range(5)))
    tools = (ToolSpec(name="add", description="Add.", input_schema={"type": "object"}),)
    conversation = [user_text("add 2 and 3")]
    for turn in range(4):
        request = ModelRequest(messages=tuple(conversation), tools=tools, system="be brief")
        assert await usage_of(model, request) == request_chars(request) // 4 + 1
        use = ToolUseBlock(id=f"toolu_{turn}", name="add", input={"a": turn, "b": "é"})
        conversation.append(Message(role="assistant", content=(TextBlock(text="x"), use)))
        result = ToolResultBlock(tool_use_id=f"toolu_{turn}", content=str(turn) * (turn + 1))
        conversation.append(Message(role="user", content=(result,)))
    # a conversation rewritten (compacted): new messages, other tools, no system
    shorter = ModelRequest(messages=(user_text("summary: " + "y" * 50), conversation[-1]))
    assert await usage_of(model, shorter) == request_chars(shorter) // 4 + 1
