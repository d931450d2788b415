"""The first, lossless-enough step: clear the bodies of the oldest tool results.

The calls stay (the model sees what it ran), the newest results keep their bodies, and
each cleared one says how to get it back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from hands.core.messages import ContentBlock, Message, ToolReferenceBlock, ToolResultBlock

CLEARED = "[result cleared to save context; re-run the tool if needed]"


@dataclass(frozen=True, kw_only=True, slots=True)
class Cleared:
    """The conversation with old results cleared, and how many were."""

    messages: list[Message]
    count: int


def clear_old_results(messages: Sequence[Message], *, keep: int) -> Cleared:
    """Clear every tool result's body but the newest ``keep`` (short ones stay as they are)."""
    places = [
        (i, j)
        for i, message in enumerate(messages)
        if message.role == "user"
        for j, block in enumerate(message.content)
        if isinstance(block, ToolResultBlock)
    ]
    old = set(places[: max(0, len(places) - keep)])
    out: list[Message] = []
    count = 0
    for i, message in enumerate(messages):
        if not any((i, j) in old for j in range(len(message.content))):
            out.append(message)
            continue
        content: list[ContentBlock] = []
        for j, block in enumerate(message.content):
            if (i, j) in old and isinstance(block, ToolResultBlock) and _worth_clearing(block):
                content.append(replace(block, content=CLEARED))
                count += 1
            else:
                content.append(block)
        out.append(Message(role=message.role, content=tuple(content)))
    return Cleared(messages=out, count=count)


def _worth_clearing(block: ToolResultBlock) -> bool:
    if not isinstance(block.content, str):
        # a tool reference is what keeps a found tool loaded: never cleared
        return not any(isinstance(part, ToolReferenceBlock) for part in block.content)
    return block.content != CLEARED and len(block.content) > len(CLEARED) * 2
