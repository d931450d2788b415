"""What executors emit: progress at once, results in request order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from hands.core.frozen import builder
from hands.core.messages import ToolUseBlock
from hands.core.outcome import ToolCallOutcome


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolProgressEvent:
    """A tool reported progress (emitted immediately)."""

    tool_use: ToolUseBlock
    data: Any


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolResultEvent:
    """A call finished; emitted in the order the calls were requested."""

    tool_use: ToolUseBlock
    outcome: ToolCallOutcome


build_result_event = builder(ToolResultEvent, "tool_use", "outcome")
"""``ToolResultEvent`` from its fields, in this order (once per call)."""


ExecutorEvent: TypeAlias = ToolProgressEvent | ToolResultEvent
