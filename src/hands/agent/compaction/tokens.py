"""The next request's size: the provider's count of the last one, plus an estimate since."""

from __future__ import annotations

import json
from collections.abc import Sequence

from hands.core.messages import DocumentBlock, ImageBlock, Message, TextBlock, ToolResultBlock
from hands.core.tool import ToolSpec
from hands.models.base import Usage

CHARS_PER_TOKEN = 4
IMAGE_TOKENS = 1600
_ENCODER = json.JSONEncoder(default=str)
"""``json.dumps(..., default=str)`` without making an encoder per block."""
_quoted = json.encoder.encode_basestring_ascii
"""A string as ``json.dumps`` writes it (quotes and escapes included)."""
_RESULT_FRAME = len('{"type": "tool_result", "tool_use_id": , "content": , "is_error": }')


def estimate_message(message: Message) -> int:
    """A rough token count of one message (characters / 4; images at a flat rate)."""
    chars = 0
    images = 0
    for block in message.content:
        if isinstance(block, TextBlock):
            chars += len(block.text)
        elif isinstance(block, ImageBlock):
            images += 1
        elif isinstance(block, ToolResultBlock):
            content = block.content
            if isinstance(content, str):  # its JSON's length, without building the JSON
                chars += _RESULT_FRAME + len(_quoted(block.tool_use_id)) + len(_quoted(content))
                chars += 4 if block.is_error else 5
                continue
            for part in content:
                if isinstance(part, ImageBlock):
                    images += 1
                elif isinstance(part, DocumentBlock):  # a page costs about an image
                    chars += len(part.text)
                    images += part.pages
                else:
                    chars += len(json.dumps(part.to_wire()))
        else:
            chars += len(_ENCODER.encode(block.to_wire()))
    return chars // CHARS_PER_TOKEN + images * IMAGE_TOKENS + 4


def estimate(messages: Sequence[Message]) -> int:
    """A rough token count of ``messages``."""
    return sum(estimate_message(m) for m in messages)


def estimate_text(text: str) -> int:
    """A rough token count of plain text (a system prompt, or part of one)."""
    return len(text) // CHARS_PER_TOKEN


def estimate_tools(tools: Sequence[ToolSpec]) -> int:
    """A rough token count of tool definitions as they are sent."""
    return sum(len(json.dumps(t.to_wire())) for t in tools) // CHARS_PER_TOKEN


def estimate_request(messages: Sequence[Message], system: str, tools: Sequence[ToolSpec]) -> int:
    """A rough token count of a whole request, for when no usage is known yet."""
    fixed = len(system) + sum(len(json.dumps(t.to_wire())) for t in tools)
    return fixed // CHARS_PER_TOKEN + estimate(messages)


def usage_tokens(usage: Usage) -> int:
    """The tokens a request and its answer took: everything sent plus what came back."""
    return (
        usage.input_tokens
        + usage.cache_creation_input_tokens
        + usage.cache_read_input_tokens
        + usage.output_tokens
    )


class TokenCounter:
    """The size of the conversation, from the last request's usage and estimates since."""

    def __init__(self) -> None:
        self.last_tokens: int | None = None
        """What the last request and its answer took, as the provider counted them."""
        self._sent: tuple[Message, ...] = ()

    def observe(self, usage: Usage, sent: Sequence[Message]) -> None:
        """A request of ``sent`` messages came back with ``usage``."""
        if usage_tokens(usage) > 0:
            self.last_tokens = usage_tokens(usage)
            self._sent = tuple(sent)

    def forget(self) -> None:
        """The conversation was rewritten (cleared or summarised): estimate afresh."""
        self.last_tokens = None
        self._sent = ()

    def count(self, messages: Sequence[Message], system: str, tools: Sequence[ToolSpec]) -> int:
        """The tokens of a request of ``messages`` now."""
        sent = self._sent
        if (
            self.last_tokens is None
            or len(messages) < len(sent)
            or any(a is not b for a, b in zip(sent, messages, strict=False))
        ):
            return estimate_request(messages, system, tools)
        # the answer is in the usage's output tokens; what follows it is new
        return self.last_tokens + estimate(messages[len(sent) + 1 :])
