"""The loop's hook points, kept out of the loop: session start and prompt, batch, stop.

Each function takes the :class:`~hands.core.hooks.LoopHooks` the query was given and
returns plain values the loop acts on (a message to send, a reason to end the run).
What ``async`` hooks left for the model (and SessionStart context from
:func:`start_session`) is delivered on the next turn: next to the next prompt, or with
the next tool results.

A caller that keeps one session over several queries (the interactive CLI) fires
SessionStart and SessionEnd itself with :func:`start_session` and :func:`end_session`,
and runs its queries with ``session_start=None, session_end=None``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from hands.core.hooks import (
    NO_LOOP,
    DeferringHooks,
    LoopHookOutcome,
    LoopHooks,
    PendingContext,
    SessionEndReason,
    SessionStartSource,
)
from hands.core.messages import ContentBlock, Message, TextBlock

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.orchestration.events import ToolResultEvent

MAX_STOP_BLOCKS = 8
"""Stop hooks may keep the loop going this many times in a row, then the run ends."""


def _reminder(event: str, text: str) -> TextBlock:
    return TextBlock(text=f"<system-reminder>\n{event} hook context: {text}\n</system-reminder>")


def _pending(hooks: object) -> list[ContentBlock]:
    if not isinstance(hooks, PendingContext):
        return []
    return [TextBlock(text=text) for text in hooks.take_pending()]


async def open_session(
    hooks: LoopHooks,
    ctx: ToolContext,
    prompt: Message,
    *,
    resumed: bool = False,
    source: SessionStartSource | Literal["auto"] | None = "auto",
) -> tuple[Message, str]:
    """SessionStart (unless ``source`` is ``None``), then UserPromptSubmit.

    ``source="auto"``: ``resume`` when ``resumed``, else ``startup``. Returns the prompt
    with any hook context added (and what background hooks left), and the reason the run
    must end before the first request ("" to go on).
    """
    before: list[ContentBlock] = []
    if source is not None:
        if source == "auto":
            source = "resume" if resumed else "startup"
        start = await hooks.session_start(ctx, source=source)
        if start.context:
            before.append(_reminder("SessionStart", start.context))
        if start.stop:
            return prompt, f"a SessionStart hook stopped the session: {start.stop_reason}"
    before[:0] = _pending(hooks)
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
    hooks: LoopHooks, ctx: ToolContext, results: list[ToolResultEvent]
) -> tuple[tuple[TextBlock, ...], str]:
    """PostToolBatch: context blocks for the results message, and why the run must end.

    First, a call a PreToolUse hook deferred in a turn of several calls runs now through
    the normal flow, and its result replaces the deferral in ``results`` (deferring is
    for a turn's single call). Background hooks' context joins the results message.
    """
    await run_held(hooks, results)
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
    if isinstance(hooks, PendingContext):
        extra = (*(TextBlock(text=t) for t in hooks.take_pending()), *extra)
    if outcome.stop:
        return extra, f"a PostToolBatch hook stopped the run: {outcome.stop_reason}"
    if outcome.block:
        return extra, f"a PostToolBatch hook ended the run: {outcome.reason}"
    return extra, ""


async def run_held(hooks: object, results: list[ToolResultEvent]) -> None:
    """Run deferred calls normally, unless one was its turn's only call.

    That one stays deferred, and :func:`why_end` ends the run with it.
    """
    if not isinstance(hooks, DeferringHooks):
        return
    if len(results) == 1 and isinstance(hooks, LoopHooks):
        if results[0].tool_use.id in hooks.deferred:
            return
    held = hooks.take_held()
    if not held:
        return
    from hands.orchestration.events import ToolResultEvent

    for i, event in enumerate(results):
        run_normally = held.get(event.tool_use.id)
        if run_normally is not None:
            results[i] = ToolResultEvent(tool_use=event.tool_use, outcome=await run_normally())


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


async def start_session(
    hooks: LoopHooks | None, ctx: ToolContext, *, source: SessionStartSource
) -> LoopHookOutcome:
    """SessionStart outside a query (an interactive session starting, or after /clear).

    Its context waits for the next prompt (delivered by :func:`open_session`). Returns
    the outcome, whose ``stop``/``stop_reason`` say whether a hook asked to stop.
    """
    if hooks is None:
        return NO_LOOP
    outcome = await hooks.session_start(ctx, source=source)
    if outcome.context and isinstance(hooks, PendingContext):
        hooks.add_pending(_reminder("SessionStart", outcome.context).text)
    return outcome


async def end_session(
    hooks: LoopHooks | None, ctx: ToolContext, reason: SessionEndReason | None
) -> None:
    """SessionEnd with ``reason`` (``None``: not fired; the caller fires it later)."""
    if hooks is not None and reason is not None:
        await hooks.session_end(ctx, reason=reason)
