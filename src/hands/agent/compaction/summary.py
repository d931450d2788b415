"""The summary request: the conversation so far and instructions, to the session's model."""

from __future__ import annotations

from collections.abc import Sequence

from hands.core.messages import Message, TextBlock, user_text
from hands.core.tool import ToolSpec
from hands.models.base import BlockComplete, Model, ModelRequest

SUMMARY_SYSTEM = (
    "You write the working notes that let an agent go on with a coding session after its "
    "earlier conversation is dropped to save context. Answer with the notes only, as plain "
    "text; call no tools."
)

INSTRUCTIONS = """\
The conversation above is about to be replaced by your summary. Write notes from which the \
work can go on without it. Cover, in this order:
1. What the user asked for, in their own words where they matter, and every later change \
to it.
2. Decisions taken and facts learned: how the code is laid out, commands that work, \
constraints the user set.
3. Files read, created or changed, with what matters about each (short code excerpts only \
where they are needed to go on).
4. Errors met and how they were fixed, or that they were not.
5. What is done, what is in progress, and what is still to do.
6. The very next step, tied to the most recent request.
Be complete about the user's requests and the unfinished work; be brief about the rest."""

SUMMARY_MAX_TOKENS = 8192


class SummaryFailedError(Exception):
    """The model answered the summary request with an error, or with no text."""


async def summarize(
    model: Model,
    messages: Sequence[Message],
    *,
    tools: Sequence[ToolSpec],
    instructions: str = "",
) -> str:
    """The model's summary of ``messages``; SummaryFailedError when there is none.

    The tools of the session go with the request (a conversation holding tool calls needs
    their definitions), so the model may answer with a call: only its text counts.
    """
    asked = INSTRUCTIONS + (
        f"\n\nAlso follow these instructions for the summary:\n{instructions}"
        if instructions.strip()
        else ""
    )
    request = ModelRequest(
        messages=(*messages, user_text(asked)),
        tools=tuple(tools),
        system=SUMMARY_SYSTEM,
        max_tokens=SUMMARY_MAX_TOKENS,
    )
    parts: list[str] = []
    try:
        async for event in model.stream(request):
            if isinstance(event, BlockComplete) and isinstance(event.block, TextBlock):
                parts.append(event.block.text)
    except Exception as exc:  # any provider failure: the caller keeps the conversation
        raise SummaryFailedError(f"the summary request failed: {exc}") from exc
    text = "\n".join(p for p in parts if p.strip()).strip()
    if not text:
        raise SummaryFailedError("the model answered the summary request with no text")
    return text
