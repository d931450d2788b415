"""Machine-readable output of ``hands -p``: Claude Code's json and stream-json shapes."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hands.agent.events import BlockEvent, CompactionEvent, MessageEvent, QueryEvent, ResultEvent
from hands.agent.subagents.progress import SubagentUpdate
from hands.core.messages import Message, ToolResultBlock
from hands.core.terminal_text import json_escaped
from hands.orchestration.events import ToolProgressEvent


def init_message(
    *,
    session_id: str,
    cwd: Path,
    tools: Sequence[str],
    model: str,
    permission_mode: str,
    mcp_servers: Sequence[tuple[str, str, str]] = (),
    api_key_source: str = "none",
) -> dict[str, Any]:
    """The ``system``/``init`` line that opens a stream-json transcript.

    ``mcp_servers``: each server's name, status (``connected``, ``pending``,
    ``failed``, ``needs-auth``, ``disabled``) and source, the scope its configuration
    came from (``dynamic`` for ``--mcp-config``, ``project``, ``local``, ``user``).
    ``api_key_source``: the variable the model's credential came from
    (:meth:`hands.models.facts.ModelFacts.key_source`).
    """
    return {
        "type": "system",
        "subtype": "init",
        "session_id": session_id,
        "cwd": str(cwd),
        "tools": list(tools),
        "mcp_servers": [
            {"name": name, "status": status, "source": source}
            for name, status, source in mcp_servers
        ],
        "model": model,
        "permissionMode": permission_mode,
        "apiKeySource": api_key_source,
    }


def result_message(event: ResultEvent) -> dict[str, Any]:
    """The ``result`` object (the whole output of ``--output-format json``).

    A run a PreToolUse hook deferred carries ``"stop_reason": "tool_deferred"`` and the
    call as ``deferred_tool_use: {id, name, input}``.
    """
    out: dict[str, Any] = {
        "type": "result",
        "subtype": event.subtype,
        "is_error": event.is_error,
        "duration_ms": round(event.duration_ms),
        "num_turns": event.num_turns,
        "result": event.result if not event.is_error else (event.error or event.result),
        "stop_reason": event.stop_reason,
        "session_id": event.session_id,
        "total_cost_usd": event.total_cost_usd,
        "usage": event.usage.to_wire(),
        "modelUsage": model_usage_wire(event),
    }
    deferred = event.deferred_tool_use
    if deferred is not None:
        out["deferred_tool_use"] = {
            "id": deferred.id,
            "name": deferred.name,
            "input": dict(deferred.input),
        }
    return out


def model_usage_wire(event: ResultEvent) -> dict[str, Any]:
    """The result's ``modelUsage``: per model id, tokens, cost and context window.

    Each model's id and window are what its facts say.
    """
    return {share.facts.id: share.to_wire() for share in event.model_usage.values()}


def stream_json_lines(event: QueryEvent, *, session_id: str, model: str) -> list[dict[str, Any]]:
    """The stream-json objects for one event (none for deltas and progress)."""
    if isinstance(event, BlockEvent):
        return [
            {
                "type": "assistant",
                "message": {
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [event.block.to_wire()],
                },
                "parent_tool_use_id": None,
                "session_id": session_id,
            }
        ]
    if isinstance(event, MessageEvent) and event.message.role == "user":
        if any(isinstance(b, ToolResultBlock) for b in event.message.content):
            return [
                {
                    "type": "user",
                    "message": event.message.to_wire(),
                    "parent_tool_use_id": None,
                    "session_id": session_id,
                }
            ]
        from hands.core.inbox import notice_fields

        return [
            {"type": "system", "subtype": "task_notification", **fields, "session_id": session_id}
            for fields in notice_fields(event.message.text)
        ]
    if isinstance(event, ResultEvent):
        return [result_message(event)]
    if isinstance(event, ToolProgressEvent) and isinstance(event.data, SubagentUpdate):
        update = event.data
        if update.message is not None:
            return [_subagent_line(update.message, update, session_id=session_id)]
    if isinstance(event, CompactionEvent):
        return [compaction_message(event, session_id=session_id)]
    return []


def _subagent_line(message: Message, update: SubagentUpdate, *, session_id: str) -> dict[str, Any]:
    """A sub-agent's message, under the Agent call that runs it (``parent_tool_use_id``)."""
    wire = message.to_wire()
    if message.role == "assistant":
        wire = {"type": "message", "model": update.model, **wire}
    return {
        "type": message.role,
        "message": wire,
        "parent_tool_use_id": update.parent_tool_use_id,
        "session_id": session_id,
    }


def compaction_message(event: CompactionEvent, *, session_id: str) -> dict[str, Any]:
    """The ``system``/``compact_boundary`` line: the conversation was compacted (or not)."""
    outcome = event.outcome
    return {
        "type": "system",
        "subtype": "compact_boundary",
        "session_id": session_id,
        "compact_metadata": {
            "trigger": outcome.trigger,
            "status": outcome.status,
            "pre_tokens": outcome.tokens_before,
            "post_tokens": outcome.tokens_after,
            "cleared_results": outcome.cleared,
            "summarized_messages": outcome.summarized,
            **({"summary_method": outcome.method} if outcome.method else {}),
            **({"summary_parts": outcome.summary_parts} if outcome.summary_parts else {}),
            **({"left_out_messages": outcome.left_out} if outcome.left_out else {}),
            **({"error": outcome.error} if outcome.error else {}),
        },
    }


def dumps(obj: dict[str, Any]) -> str:
    """One compact JSON line, with no character a terminal would act on."""
    return json_escaped(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
