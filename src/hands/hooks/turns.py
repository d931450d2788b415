"""The loop's hook points, kept out of the loop: session start and prompt, batch, stop.

Each function takes the :class:`~hands.hooks.base.LoopHooks` the query was given and
returns plain values the loop acts on (a message to send, a reason to end the run).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hands.hooks.base import LoopHooks
from hands.messages import ContentBlock, Message, TextBlock

if TYPE_CHECKING:
    from hands.context import ToolContext
    from hands.orchestration.events import ToolResultEvent

MAX_STOP_BLOCKS = 8
"""Stop hooks may keep the loop going this many times in a row, then the run ends."""


def _reminder(event: str, text: str) -> TextBlock:
    return TextBlock(text=f"<system-reminder>\n{event} hook context: {text}\n</system-reminder>")


async def open_session(
    hooks: LoopHooks, ctx: ToolContext, prompt: Message, *, resumed: bool
) -> tuple[Message, str]:
    """SessionStart, then UserPromptSubmit.

    Returns the prompt with any hook context added, and the reason the run must end
    before the first request ("" to go on).
    """
    start = await hooks.session_start(ctx, source="resume" if resumed else "startup")
    before: list[ContentBlock] = [_reminder("SessionStart", start.context)] if start.context else []
    if start.stop:
        return prompt, f"a SessionStart hook stopped the session: {start.stop_reason}"
    gate = await hooks.user_prompt_submit(ctx, prompt.text)
    if gate.stop:
        return prompt, f"a UserPromptSubmit hook stopped the session: {gate.stop_reason}"
    if gate.block:
        return prompt, (
            f"the prompt was blocked by a UserPromptSubmit hook and not sent: {gate.reason}"
        )
    after: list[ContentBlock] = (
        [_reminder("UserPromptSubmit", gate.context)] if gate.context else []
    )
    if not before and not after:
        return prompt, ""
    return Message(role=prompt.role, content=(*before, *prompt.content, *after)), ""


async def after_batch(
    hooks: LoopHooks, ctx: ToolContext, results: Sequence[ToolResultEvent]
) -> tuple[tuple[TextBlock, ...], str]:
    """PostToolBatch: context blocks for the results message, and why the run must end."""
    calls: list[dict[str, Any]] = [
        {
            "tool_name": r.tool_use.name,
            "tool_input": dict(r.tool_use.input),
            "tool_use_id": r.tool_use.id,
            "tool_response": r.outcome.block.text,
        }
        for r in results
    ]
    outcome = await hooks.post_tool_batch(ctx, calls)
    extra = (_reminder("PostToolBatch", outcome.context),) if outcome.context else ()
    if outcome.stop:
        return extra, f"a PostToolBatch hook stopped the run: {outcome.stop_reason}"
    if outcome.block:
        return extra, f"a PostToolBatch hook ended the run: {outcome.reason}"
    return extra, ""


def why_end(hooks: LoopHooks, results: Sequence[ToolResultEvent]) -> tuple[str, Any]:
    """After a turn: the reason to end (``continue: false``) and the deferred tool_use.

    A deferral ends the run only when the deferred call was the turn's single call.
    """
    deferred = hooks.take_deferred()
    if deferred and len(results) == 1 and results[0].tool_use.id in deferred:
        return "", results[0].tool_use
    if hooks.stop_reason is not None:
        return f"a hook stopped the run: {hooks.stop_reason}", None
    return "", None


async def on_stop(
    hooks: LoopHooks, ctx: ToolContext, *, blocks_so_far: int, last_text: str
) -> Message | None:
    """Stop: the user message that makes the loop go on, or ``None`` to stop."""
    if blocks_so_far >= MAX_STOP_BLOCKS:
        return None
    outcome = await hooks.stop(
        ctx, stop_hook_active=blocks_so_far > 0, last_assistant_message=last_text
    )
    if outcome.stop:
        return None
    if outcome.block:
        return Message(
            role="user", content=(TextBlock(text=f"Stop hook feedback:\n{outcome.reason}"),)
        )
    if outcome.context:
        return Message(role="user", content=(_reminder("Stop", outcome.context),))
    return None
