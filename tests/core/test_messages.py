from __future__ import annotations

import pytest

from hands.core.messages import (
    ImageBlock,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    message_from_wire,
)


def test_round_trip_through_the_wire_shape() -> None:
    msg = Message(
        role="assistant",
        content=(
            ThinkingBlock(thinking="hmm", signature="sig"),
            TextBlock(text="hi"),
            ToolUseBlock(id="toolu_1", name="Read", input={"file_path": "/a"}),
        ),
    )
    assert message_from_wire(msg.to_wire()) == msg
    user = Message(
        role="user",
        content=(
            ToolResultBlock(
                tool_use_id="toolu_1",
                content=(TextBlock(text="x"), ImageBlock(media_type="image/png", data="AA==")),
            ),
            ToolResultBlock(tool_use_id="toolu_2", content="boom", is_error=True),
        ),
    )
    wire = user.to_wire()
    assert wire["content"][1] == {
        "type": "tool_result",
        "tool_use_id": "toolu_2",
        "content": "boom",
        "is_error": True,
    }
    assert message_from_wire(wire) == user


def test_unknown_blocks_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown content block type"):
        message_from_wire({"role": "user", "content": [{"type": "video"}]})
