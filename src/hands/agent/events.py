"""What ``query`` yields while it runs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from hands.agent.compaction.compactor import CompactOutcome
from hands.core.frozen import builder
from hands.core.messages import ContentBlock, Message, ToolUseBlock
from hands.models.base import Usage
from hands.models.ledger import ModelUsage
from hands.orchestration.events import ToolProgressEvent, ToolResultEvent


@dataclass(frozen=True, kw_only=True, slots=True)
class TextDeltaEvent:
    """A fragment of assistant text, as it streams."""

    text: str


@dataclass(frozen=True, kw_only=True, slots=True)
class BlockEvent:
    """A complete assistant content block (text, thinking or tool_use)."""

    block: ContentBlock


build_text_delta_event = builder(TextDeltaEvent, "text")
build_block_event = builder(BlockEvent, "block")
"""The events the loop makes for every text fragment and block, from their one field."""


@dataclass(frozen=True, kw_only=True, slots=True)
class MessageEvent:
    """A message appended to the conversation.

    Either the assistant's, or the user message of tool results exactly as it is sent
    back to the model.
    """

    message: Message


@dataclass(frozen=True, kw_only=True, slots=True)
class StreamRetryEvent:
    """The model stream broke mid-way; its partial turn was dropped and the request re-sent."""

    error: str
    retries_left: int


@dataclass(frozen=True, kw_only=True, slots=True)
class RequestRetryEvent:
    """The model request failed before streaming; it is sent again after ``delay_s``."""

    error: str
    attempt: int
    """The attempt about to be made (2 for the first retry)."""
    max_attempts: int
    delay_s: float


@dataclass(frozen=True, kw_only=True, slots=True)
class CompactionEvent:
    """The conversation was shortened to fit the context window, or could not be.

    ``outcome.messages`` is the conversation from here on (a transcript records it as a
    compaction boundary); ``outcome.error`` says why a summary is missing.
    """

    outcome: CompactOutcome


ResultSubtype: TypeAlias = Literal[
    "success", "error_max_turns", "error_during_execution", "interrupted"
]


@dataclass(frozen=True, kw_only=True, slots=True)
class ResultEvent:
    """The end of the query."""

    subtype: ResultSubtype
    result: str
    num_turns: int
    duration_ms: float
    session_id: str
    usage: Usage = field(default_factory=Usage)
    model_usage: Mapping[str, ModelUsage] = field(default_factory=lambda: dict[str, ModelUsage]())
    """Usage and cost per model (``PROVIDER:ID``)."""
    error: str = ""
    stop_reason: str | None = None
    """``"tool_deferred"`` when a PreToolUse hook deferred the last turn's only call;
    ``None`` otherwise."""
    deferred_tool_use: ToolUseBlock | None = None
    """The call a PreToolUse hook deferred (resume the session to run it)."""

    @property
    def is_error(self) -> bool:
        """Whether the query ended in failure."""
        return self.subtype != "success"

    @property
    def total_cost_usd(self) -> float:
        """What the query's requests cost, at list prices (unpriced models as 0)."""
        return sum(share.cost_usd for share in self.model_usage.values())


QueryEvent: TypeAlias = (
    TextDeltaEvent
    | BlockEvent
    | MessageEvent
    | ToolProgressEvent
    | ToolResultEvent
    | StreamRetryEvent
    | RequestRetryEvent
    | CompactionEvent
    | ResultEvent
)

__all__ = [
    "BlockEvent",
    "CompactionEvent",
    "MessageEvent",
    "QueryEvent",
    "RequestRetryEvent",
    "ResultEvent",
    "StreamRetryEvent",
    "TextDeltaEvent",
    "ToolProgressEvent",
    "ToolResultEvent",
]
