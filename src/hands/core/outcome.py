"""What one tool call came to: the result block and what the loop and the screen need.

Below the pipeline, so hooks, tools and the executor can name an outcome without
importing the pipeline that makes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from hands.core.frozen import builder
from hands.core.messages import ToolResultBlock, ToolUseBlock, build_result_block

if TYPE_CHECKING:
    from pydantic import BaseModel

    from hands.core.tool import ContextModifier, Tool

Status: TypeAlias = Literal["ok", "error", "rejected", "cancelled"]

MAX_ERROR_CHARS = 10_000


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolCallOutcome:
    """The result block plus what the UI and the loop need to know about the call."""

    block: ToolResultBlock
    """The ``tool_result`` block sent back to the model."""
    status: Status
    """``ok``; ``error`` (invalid input, a failure, a timeout); ``rejected`` (by the
    permission policy or a hook); ``cancelled`` (interrupt, sibling failure, discard)."""
    tool: Tool[Any, Any] | None = None
    """The tool that ran; ``None`` when the name matched no tool."""
    input: BaseModel | None = None
    """The parsed input (after hooks' rewrites); ``None`` when it did not parse."""
    output: Any = None
    """The tool's output before ``to_content``; ``None`` unless the call succeeded."""
    context_modifier: ContextModifier | None = None
    """The tool's change to the context, applied in request order after the call."""
    extra_context: tuple[str, ...] = ()
    """Text from hooks, sent to the model as blocks after the results."""
    spillable: bool = True
    """Whether the turn's message budget may spill this result to a file."""
    duration_ms: float = 0.0
    """How long the call took, from lookup to result."""

    @property
    def is_error(self) -> bool:
        """Whether the model sees this result as an error."""
        return self.block.is_error


build_outcome = builder(
    ToolCallOutcome,
    "block",
    "status",
    "tool",
    "input",
    "output",
    "context_modifier",
    "extra_context",
    "spillable",
    "duration_ms",
)
"""``ToolCallOutcome`` from every field, in this order (the pipeline's hot path)."""


def tool_use_error(message: str) -> str:
    """Wrap a message in the ``<tool_use_error>`` tag models are trained on."""
    return f"<tool_use_error>{message}</tool_use_error>"


def error_message(text: str) -> str:
    """A tool error as people read it: the message without the tags meant for the model."""
    return text.replace("<tool_use_error>", "").replace("</tool_use_error>", "").strip()


def error_outcome(
    block: ToolUseBlock,
    text: str,
    *,
    status: Status = "error",
    tool: Tool[Any, Any] | None = None,
    input: BaseModel | None = None,
    extra_context: tuple[str, ...] = (),
) -> ToolCallOutcome:
    """An ``is_error`` outcome with ``text`` as its content."""
    result = build_result_block(block.id, truncate_middle(text), True, "tool_result")
    return build_outcome(result, status, tool, input, None, None, extra_context, True, 0.0)


ECHO_CHARS = 200
"""How much of a value the model sent is repeated back in an error message."""


def echo(value: object, limit: int = ECHO_CHARS) -> str:
    """``value`` as text for an error message, cut to ``limit`` characters with its length.

    A 10 MB path or old_string the model sent is not sent back to it whole.
    """
    text = str(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def left_out_marker(count: int, unit: str = "characters") -> str:
    """The line put where ``count`` ``unit`` of a text were dropped from its middle."""
    return f"[… {count:,} {unit} left out here …]"


LEFT_OUT = re.compile(r"\[… ([\d,]+) (characters|bytes of output) left out here …\]")
"""Finds a :func:`left_out_marker` in a text (the count, the unit)."""


def truncate_middle(text: str, limit: int = MAX_ERROR_CHARS) -> str:
    """Keep the head and tail of an over-long error message."""
    if len(text) <= limit:
        return text
    half = limit // 2
    dropped = len(text) - 2 * half
    return f"{text[:half]}\n\n{left_out_marker(dropped)}\n\n{text[-half:]}"
