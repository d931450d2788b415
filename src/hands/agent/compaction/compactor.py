"""Compaction, step by step: clear old results, ask the PreCompact hooks, summarise, go on.

:func:`compact_conversation` does it once (``/compact``, or auto-compaction);
:class:`Compactor` is a query's part: it counts tokens from the provider's usage and
compacts before a request that would pass the threshold. A summary that fails (an error,
or no text) leaves the conversation as it was after clearing, says why, and is not tried
again in the same query; no message is ever lost without a summary taking its place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeAlias, runtime_checkable

from hands.agent.compaction.carry import summary_message
from hands.agent.compaction.clearing import clear_old_results
from hands.agent.compaction.settings import CompactionSettings
from hands.agent.compaction.summary import Summary, SummaryFailedError, summarize_within
from hands.agent.compaction.tokens import TokenCounter, estimate, estimate_request
from hands.core.context import ToolContext
from hands.core.hooks import LoopHookOutcome
from hands.core.messages import Message
from hands.core.tool import ToolSpec
from hands.models.base import Model, Usage

Trigger: TypeAlias = Literal["auto", "manual"]
Status: TypeAlias = Literal["compacted", "cleared", "failed", "blocked", "unchanged"]


@runtime_checkable
class CompactHooks(Protocol):
    """Hooks that fire around compaction (the hook engine is one)."""

    async def pre_compact(
        self, ctx: ToolContext, *, trigger: str, custom_instructions: str = ""
    ) -> LoopHookOutcome:
        """PreCompact: may block, or add instructions for the summary."""
        ...

    async def session_start(self, ctx: ToolContext, *, source: str) -> LoopHookOutcome:
        """SessionStart, here with the ``compact`` source."""
        ...


@runtime_checkable
class PostCompactHooks(Protocol):
    """Hooks told the summary once it is written."""

    async def post_compact(
        self, ctx: ToolContext, *, trigger: str, compact_summary: str
    ) -> LoopHookOutcome:
        """PostCompact."""
        ...


@dataclass(frozen=True, kw_only=True, slots=True)
class CompactOutcome:
    """What compaction came to, and the conversation to go on with."""

    trigger: Trigger
    status: Status
    messages: tuple[Message, ...]
    tokens_before: int
    tokens_after: int
    cleared: int = 0
    """How many tool results had their bodies cleared."""
    summarized: int = 0
    """How many messages the summary replaced."""
    summary: str = ""
    error: str = ""
    """Why the summary is missing (failed or blocked)."""
    summary_parts: int = 0
    """How many requests the summary took: 1 at once; more when the conversation did
    not fit one summary request and was summarised in parts, oldest first."""
    left_out: int = 0
    """Messages too large for any summary request, dropped without being summarised."""

    @property
    def method(self) -> str:
        """How the summary was made, for the boundary: ``whole``, ``parts`` or ""."""
        if not self.summary_parts:
            return ""
        return "whole" if self.summary_parts == 1 and not self.left_out else "parts"

    @property
    def changed(self) -> bool:
        """Whether the conversation was rewritten."""
        return self.status == "compacted" or self.cleared > 0


async def compact_conversation(
    messages: Sequence[Message],
    *,
    model: Model,
    ctx: ToolContext,
    system: str = "",
    tools: Sequence[ToolSpec] = (),
    hooks: object = None,
    settings: CompactionSettings | None = None,
    trigger: Trigger = "manual",
    instructions: str = "",
    summarize_allowed: bool = True,
    tokens: int | None = None,
) -> CompactOutcome:
    """Compact ``messages`` once.

    Old results are cleared first; ``auto`` stops there when that is enough. Then the
    PreCompact hooks run (a block keeps the cleared conversation), the model summarises
    all but the most recent turns, and SessionStart hooks fire with the ``compact`` source.
    A manual compaction that fails leaves the conversation untouched. ``tokens``: the
    request's size as counted from the provider's usage (default: estimated).
    """
    settings = settings or CompactionSettings()
    before = estimate_request(messages, system, tools) if tokens is None else tokens
    cleared = clear_old_results(messages, keep=settings.keep_results)
    after_clearing = before - (estimate(messages) - estimate(cleared.messages))

    def kept(status: Status, error: str = "") -> CompactOutcome:
        # auto keeps the cleared results; a manual compaction that failed changes nothing
        keep = trigger == "auto"
        return CompactOutcome(
            trigger=trigger,
            status=status,
            messages=tuple(cleared.messages if keep else messages),
            tokens_before=before,
            tokens_after=after_clearing if keep else before,
            cleared=cleared.count if keep else 0,
            error=error,
        )

    if trigger == "auto" and after_clearing < settings.limit_for(model):
        return kept("cleared" if cleared.count else "unchanged")
    if not summarize_allowed:
        return kept("cleared" if cleared.count else "unchanged")
    # the turns kept verbatim leave room: at most a share of the window, and a quarter of
    # the threshold, so the next requests do not compact again at once
    budget = min(
        int(settings.window_for(model) * settings.recent_share),
        settings.limit_for(model) // 4,
    )
    start = _recent_start(cleared.messages, budget)
    older = cleared.messages[:start]
    if not older:  # nothing said yet can be summarised: only the request itself is large
        if trigger == "auto":
            return kept("cleared" if cleared.count else "unchanged")
        return kept("failed", "there is nothing old enough to summarise yet")
    compact_hooks = hooks if isinstance(hooks, CompactHooks) else None
    if compact_hooks is not None:
        gate = await compact_hooks.pre_compact(
            ctx, trigger=trigger, custom_instructions=instructions
        )
        if gate.block:
            return kept("blocked", f"a PreCompact hook blocked compaction: {gate.reason}")
        if gate.context:
            instructions = "\n".join(t for t in (instructions, gate.context) if t.strip())
    try:
        made = await summarize_within(
            model,
            older,
            tools=tools,
            instructions=instructions,
            window=settings.window_for(model),
        )
    except SummaryFailedError as exc:
        return kept("failed", str(exc))
    text = made.text
    if trigger == "manual":
        # a summary no smaller than what it replaces saves nothing: keep the conversation
        trial = summary_message(text, ctx, reattach=settings.reattach_files, how=_how(made))
        size, replaced = estimate([trial]), estimate(older)
        if size >= replaced:
            return kept(
                "unchanged",
                f"nothing to save: the summary (~{size:,} tokens) would not be smaller "
                f"than the {len(older)} messages it replaces (~{replaced:,} tokens)",
            )
    extra = ""
    if isinstance(hooks, PostCompactHooks):
        await hooks.post_compact(ctx, trigger=trigger, compact_summary=text)
    if compact_hooks is not None:
        started = await compact_hooks.session_start(ctx, source="compact")
        if started.context:
            extra = (
                f"<system-reminder>\nSessionStart hook context: {started.context}\n"
                "</system-reminder>"
            )
    opening = summary_message(
        text, ctx, reattach=settings.reattach_files, extra=extra, how=_how(made)
    )
    out = (opening, *cleared.messages[start:])
    return CompactOutcome(
        trigger=trigger,
        status="compacted",
        messages=out,
        tokens_before=before,
        tokens_after=after_clearing - (estimate(cleared.messages) - estimate(out)),
        cleared=cleared.count,
        summarized=len(older),
        summary=text,
        summary_parts=made.parts,
        left_out=made.left_out,
    )


def _how(made: Summary) -> str:
    """A note for the model when the summary was made in parts."""
    if made.parts == 1 and not made.left_out:
        return ""
    said = (
        "The earlier conversation was too long to summarise at once: it was summarised "
        f"in {made.parts} parts, oldest first."
    )
    if made.left_out:
        said += (
            f" {made.left_out} messages too large for any summary request were left out;"
            " re-run a tool if you need what they held."
        )
    return said


def _recent_start(messages: Sequence[Message], budget: int) -> int:
    """Where the turns kept verbatim begin: an assistant message, within ``budget`` tokens.

    The kept part begins with an assistant message so every tool call in it has its
    result in it too; ``len(messages)`` when not even the last turn fits.
    """
    start = len(messages)
    size = 0
    for i in range(len(messages) - 1, 0, -1):
        size += estimate([messages[i]])
        if size > budget:
            break
        if messages[i].role == "assistant":
            start = i
    return start


class Compactor:
    """A query's compaction: token counts from usage, auto-compaction before requests."""

    def __init__(self, *, model: Model, settings: CompactionSettings, hooks: object = None) -> None:
        self.model = model
        self.settings = settings
        self.hooks = hooks
        self.counter = TokenCounter()
        self._summary_failed = False

    def observe(self, usage: Usage, sent: Sequence[Message]) -> None:
        """A request of ``sent`` came back with ``usage``."""
        self.counter.observe(usage, sent)

    def tokens(self, messages: Sequence[Message], system: str, tools: Sequence[ToolSpec]) -> int:
        """The size of a request of ``messages`` now."""
        return self.counter.count(messages, system, tools)

    async def before_request(
        self,
        messages: Sequence[Message],
        ctx: ToolContext,
        *,
        system: str,
        tools: Sequence[ToolSpec],
    ) -> CompactOutcome | None:
        """Compact when the request would pass the threshold; None when nothing changed."""
        if not self.settings.auto:
            return None
        tokens = self.tokens(messages, system, tools)
        if tokens < self.settings.limit_for(self.model):
            return None
        outcome = await compact_conversation(
            messages,
            model=self.model,
            ctx=ctx,
            system=system,
            tools=tools,
            hooks=self.hooks,
            settings=self.settings,
            trigger="auto",
            summarize_allowed=not self._summary_failed,
            tokens=tokens,
        )
        if outcome.status in ("failed", "blocked"):
            self._summary_failed = True
        if outcome.changed:
            self.counter.forget()
        return None if outcome.status == "unchanged" else outcome


def describe(outcome: CompactOutcome) -> str:
    """One line for the user about a compaction."""
    sizes = f"~{outcome.tokens_before:,} → ~{outcome.tokens_after:,} tokens"
    cleared = f"; {outcome.cleared} old tool results cleared" if outcome.cleared else ""
    if outcome.status == "compacted":
        done = f"{outcome.summarized} messages summarised{cleared}"
        if outcome.method == "parts":
            done += f", in {outcome.summary_parts} parts"
            if outcome.left_out:
                done += f" ({outcome.left_out} too large to summarise were dropped)"
        saved = outcome.tokens_before - outcome.tokens_after
        return f"Conversation compacted: {done} ({sizes}, ~{saved:,} saved)."
    if outcome.status == "cleared":
        return f"Context trimmed{cleared} ({sizes})."
    what = "kept as it was" if not outcome.changed else "kept with old results cleared"
    if outcome.status == "unchanged" and outcome.error:
        return f"Compaction skipped: {outcome.error}; the conversation is {what}."
    return f"Compaction did not summarise ({outcome.error}); the conversation is {what} ({sizes})."
