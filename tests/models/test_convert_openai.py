"""Canonical blocks ↔ OpenAI Chat Completions messages."""

from __future__ import annotations

import pytest

from hands.core.messages import (
    ImageBlock,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    user_text,
)
from hands.core.tool import ToolSpec
from hands.models.convert_openai import messages_from_openai, messages_to_openai, tools_to_openai

PNG = ImageBlock(media_type="image/png", data="iVBORw0KGgo=")


def conversation() -> list[Message]:
    return [
        Message(role="user", content=(TextBlock(text="Look at these."), PNG)),
        Message(
            role="assistant",
            content=(
                ThinkingBlock(thinking="two calls", signature="sig"),
                TextBlock(text="Reading both."),
                ToolUseBlock(id="call_1", name="Read", input={"file_path": "a.py"}),
                ToolUseBlock(id="call_2", name="Read", input={"file_path": "shot.png"}),
            ),
        ),
        Message(
            role="user",
            content=(
                ToolResultBlock(tool_use_id="call_1", content="no such file", is_error=True),
                ToolResultBlock(tool_use_id="call_2", content=(TextBlock(text="an image"), PNG)),
                TextBlock(text="Also check the README."),
            ),
        ),
        Message(role="assistant", content=(TextBlock(text="Done."),)),
    ]


def test_to_openai() -> None:
    wire = messages_to_openai("Be terse.", conversation())
    data_url = "data:image/png;base64,iVBORw0KGgo="
    assert wire == [
        {"role": "system", "content": "Be terse."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Look at these."},
                {"type": "image_url", "image_url": {"url": data_url}},
            ],
        },
        {
            "role": "assistant",
            "content": "Reading both.",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "Read", "arguments": '{"file_path": "a.py"}'},
                },
                {
                    "id": "call_2",
                    "type": "function",
                    "function": {"name": "Read", "arguments": '{"file_path": "shot.png"}'},
                },
            ],
        },
        # every call answered by a tool message, in order, right after the assistant
        {"role": "tool", "tool_call_id": "call_1", "content": "Error: no such file"},
        {
            "role": "tool",
            "tool_call_id": "call_2",
            "content": "an image\n[1 image(s) from this result follow in the next message]",
        },
        # images from results (tool messages are text only), then the user's own text
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Images returned by tool call call_2:"},
                {"type": "image_url", "image_url": {"url": data_url}},
                {"type": "text", "text": "Also check the README."},
            ],
        },
        {"role": "assistant", "content": "Done."},
    ]


def test_plain_text_user_messages_are_strings() -> None:
    wire = messages_to_openai("", [user_text("hi"), Message(role="assistant", content=())])
    assert wire == [{"role": "user", "content": "hi"}, {"role": "assistant", "content": ""}]


def test_round_trip() -> None:
    messages = conversation()
    system, back = messages_from_openai(messages_to_openai("Be terse.", messages))
    assert system == "Be terse."
    assert back[0] == messages[0]
    # thinking is not sent to OpenAI, so it does not come back
    assert back[1] == Message(role="assistant", content=messages[1].content[1:])
    results = back[2].content
    assert results[0] == ToolResultBlock(
        tool_use_id="call_1", content="no such file", is_error=True
    )
    assert isinstance(results[1], ToolResultBlock) and results[1].tool_use_id == "call_2"
    assert PNG in results and TextBlock(text="Also check the README.") in results
    assert back[3] == messages[3]


def test_from_openai_refuses_unknown_roles() -> None:
    with pytest.raises(ValueError, match="role"):
        messages_from_openai([{"role": "narrator", "content": "once upon a time"}])


def test_tools_sorted_as_functions() -> None:
    specs = [
        ToolSpec(name="Write", description="w", input_schema={"type": "object"}),
        ToolSpec(name="Bash", description="b", input_schema={"type": "object", "required": ["c"]}),
    ]
    assert tools_to_openai(specs) == [
        {
            "type": "function",
            "function": {
                "name": "Bash",
                "description": "b",
                "parameters": {"type": "object", "required": ["c"]},
            },
        },
        {
            "type": "function",
            "function": {"name": "Write", "description": "w", "parameters": {"type": "object"}},
        },
    ]
