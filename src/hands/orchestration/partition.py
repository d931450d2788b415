"""Greedy batches: consecutive concurrency-safe calls share one, anything else is alone."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from hands.core.messages import ToolUseBlock
from hands.core.tool import Tool
from hands.pipeline.pool import ToolPool, resolve


@dataclass(frozen=True, kw_only=True, slots=True)
class Batch:
    """Calls that run together (``concurrent``) or one alone."""

    calls: tuple[ToolUseBlock, ...]
    concurrent: bool
    classified: tuple[tuple[bool, BaseModel | None], ...] = ()
    """Each call's (safe, parsed input), so running the batch need not parse again."""


def classify(block: ToolUseBlock, tools: ToolPool) -> tuple[bool, BaseModel | None]:
    """Whether the call is concurrency-safe, and its parsed input when it parsed.

    An unknown tool, an input that fails to parse, or a flag that raises: not safe.
    """
    tool = resolve(block.name, tools)
    if tool is None:
        return False, None
    return classify_call(tool, block)


def classify_call(tool: Tool[Any, Any], block: ToolUseBlock) -> tuple[bool, BaseModel | None]:
    """:func:`classify` for a tool already found."""
    try:
        parsed = tool.parse_input(block.input)
    except ValidationError:
        return False, None
    try:
        return bool(tool.is_concurrency_safe(parsed)), parsed
    except Exception:
        return False, parsed


def partition(calls: Sequence[ToolUseBlock], tools: ToolPool) -> list[Batch]:
    """``[Read a, Read b, Edit x, Read c]`` → ``[a, b] [x] [c]``."""
    batches: list[Batch] = []
    current: list[tuple[ToolUseBlock, tuple[bool, BaseModel | None]]] = []

    def close_run() -> None:
        if current:
            batches.append(
                Batch(
                    calls=tuple(b for b, _ in current),
                    concurrent=True,
                    classified=tuple(c for _, c in current),
                )
            )
            current.clear()

    for block in calls:
        found = classify(block, tools)
        if found[0]:
            current.append((block, found))
            continue
        close_run()
        batches.append(Batch(calls=(block,), concurrent=False, classified=(found,)))
    close_run()
    return batches
