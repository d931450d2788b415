"""What executors emit: progress at once, results in request order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

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


ExecutorEvent: TypeAlias = ToolProgressEvent | ToolResultEvent
