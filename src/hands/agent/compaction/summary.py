"""The summary request: the conversation so far and instructions, to the session's model.

When that request would not fit the model's context window itself, the conversation is
summarised in parts, oldest first, each request carrying the notes so far
(:func:`summarize_within`); a single message too large for any request is left out, and
counted. The outcome says which was done.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hands.agent.compaction.tokens import estimate, estimate_request
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

NOTES_SO_FAR = """\
<system-reminder>
The conversation was too long to summarise at once, so it is summarised in parts. These \
are the notes on the parts before the one that follows; carry them into your notes.

{notes}
</system-reminder>"""
LEFT_OUT = (
    "<system-reminder>\n(An earlier part of the conversation was left out.)\n</system-reminder>"
)


@dataclass(frozen=True, kw_only=True, slots=True)
class Summary:
    """A summary, and how it was made."""

    text: str
    parts: int = 1
    """How many requests it took (1: the conversation was summarised at once)."""
    left_out: int = 0
    """Messages too large for any summary request, left out of it."""


class SummaryFailedError(Exception):
    """The model answered the summary request with an error, or with no text."""


async def summarize(
    model: Model,
    messages: Sequence[Message],
    *,
    tools: Sequence[ToolSpec],
    instructions: str = "",
    max_tokens: int = SUMMARY_MAX_TOKENS,
) -> str:
    """The model's summary of ``messages``; SummaryFailedError when there is none.

    The tools of the session go with the request (a conversation holding tool calls needs
    their definitions), so the model may answer with a call: only its text counts.
    """
    request = ModelRequest(
        messages=(*messages, user_text(_asked(instructions))),
        tools=tuple(tools),
        system=SUMMARY_SYSTEM,
        max_tokens=max_tokens,
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


def _asked(instructions: str) -> str:
    return INSTRUCTIONS + (
        f"\n\nAlso follow these instructions for the summary:\n{instructions}"
        if instructions.strip()
        else ""
    )


async def summarize_within(
    model: Model,
    messages: Sequence[Message],
    *,
    tools: Sequence[ToolSpec],
    window: int,
    instructions: str = "",
) -> Summary:
    """A summary of ``messages`` made of requests that each fit ``window`` tokens.

    At once when it fits; else in parts cut before assistant messages (so each tool call
    keeps its result), each request carrying the notes so far. SummaryFailedError when
    any part fails, or nothing fits at all.
    """
    out_tokens = max(256, min(SUMMARY_MAX_TOKENS, window // 4))
    fixed = estimate_request([user_text(_asked(instructions))], SUMMARY_SYSTEM, tools)
    if fixed + estimate(messages) + out_tokens <= window:
        text = await summarize(
            model, messages, tools=tools, instructions=instructions, max_tokens=out_tokens
        )
        return Summary(text=text)
    room = window - fixed - 2 * out_tokens  # the notes so far take up to one answer
    parts, left_out = _parts(messages, room)
    if not parts:
        raise SummaryFailedError(
            f"no part of the conversation fits a summary request in a {window:,}-token window"
        )
    notes = ""
    for part in parts:
        lead: list[Message] = []
        if notes:
            lead.append(user_text(NOTES_SO_FAR.format(notes=notes)))
        elif part[0].role == "assistant":
            lead.append(user_text(LEFT_OUT))
        if lead and part[0].role == "user":
            lead = [Message(role="user", content=(*lead[0].content, *part[0].content))]
            part = part[1:]
        notes = await summarize(
            model, [*lead, *part], tools=tools, instructions=instructions, max_tokens=out_tokens
        )
    return Summary(text=notes, parts=len(parts), left_out=left_out)


def _parts(messages: Sequence[Message], room: int) -> tuple[list[list[Message]], int]:
    """``messages`` in runs of at most ``room`` tokens, cut before assistant messages.

    A run that alone is larger is left out; how many messages were is returned too.
    """
    runs: list[list[Message]] = []
    for message in messages:
        if message.role == "assistant" or not runs:
            runs.append([message])
        else:
            runs[-1].append(message)
    parts: list[list[Message]] = []
    size = 0
    left_out = 0
    for run in runs:
        tokens = estimate(run)
        if tokens > room:
            left_out += len(run)
            continue
        if parts and size + tokens <= room:
            parts[-1].extend(run)
            size += tokens
        else:
            parts.append(list(run))
            size = tokens
    return parts, left_out
