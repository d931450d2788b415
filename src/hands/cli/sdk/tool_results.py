"""Tool results as the SDKs read them: one ``user`` line per result, with its output.

hands' conversation keeps a turn's tool results in one user message; the SDK lines
carry one result each (in the order of the message), and each line's
``tool_use_result`` is the tool's structured output (the JSON of its output model, as
a PostToolUse hook reads it) or, for a call that failed or was refused, the text the
model was sent. Blocks after a result (hooks' added context) go on its line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from hands.core.outcome import ToolCallOutcome


def output_of(outcome: ToolCallOutcome) -> Any:
    """What ``tool_use_result`` says for one call."""
    from hands.hooks.events import jsonable

    if outcome.status == "ok" and outcome.output is not None:
        return jsonable(outcome.output)
    return outcome.block.text


def split(line: dict[str, Any], outcomes: Mapping[str, ToolCallOutcome]) -> list[dict[str, Any]]:
    """``line`` (a user line of tool results) as one line per result."""
    message = cast(dict[str, Any], line.get("message", {}))
    content = message.get("content")
    if not isinstance(content, list):
        return [line]
    groups: list[list[dict[str, Any]]] = []
    for block in cast(list[dict[str, Any]], content):
        if block.get("type") == "tool_result" or not groups:
            groups.append([])
        groups[-1].append(block)
    lines: list[dict[str, Any]] = []
    for blocks in groups:
        one = {**line, "message": {**message, "content": blocks}}
        outcome = outcomes.get(str(blocks[0].get("tool_use_id", "")))
        if outcome is not None:
            one["tool_use_result"] = output_of(outcome)
        lines.append(one)
    return lines
