"""The lines hands writes for the SDK: system init, messages, partials and the result.

Built on :mod:`hands.cli.output` (print mode's stream-json) with what the SDKs read
besides: a ``uuid`` on every message, the assistant message's id and usage, the
result's cost, API time, per-model usage, permission denials and structured output.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hands.agent.events import ResultEvent
from hands.cli.output import result_message
from hands.models.base import (
    BlockComplete,
    InputJsonDelta,
    MessageStart,
    MessageStop,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolUseStart,
    Usage,
)
from hands.models.ledger import ModelUsage

PROTOCOL_VERSION = "2.1.332"
"""The Claude Code release whose SDK protocol hands speaks (``claude_code_version``)."""

RESULT_SUBTYPES = {"interrupted": "error_during_execution"}
"""hands' result subtypes the SDKs do not know, as the nearest one they do."""


def stamp(obj: dict[str, Any]) -> dict[str, Any]:
    """The message with a fresh ``uuid`` (every SDK message has one)."""
    return {**obj, "uuid": str(uuid.uuid4())}


@dataclass(frozen=True, kw_only=True, slots=True)
class InitFacts:
    """What the ``system``/``init`` line reports about the session."""

    session_id: str
    cwd: str
    tools: Sequence[str]
    model: str
    """The model's name as the SDKs show it (a Claude model by its id alone)."""
    permission_mode: str
    mcp_servers: Sequence[tuple[str, str, str]] = ()
    """Each server's name, status and source (the scope its configuration came from)."""
    slash_commands: Sequence[str] = ()
    agents: Sequence[str] = ()
    skills: Sequence[str] = ()
    plugins: Sequence[Mapping[str, str]] = ()
    """``name``, ``path`` (and ``version``) of each plugin loaded."""
    hands_version: str = ""
    api_key_source: str = "none"
    """The variable the provider's key came from (``ANTHROPIC_API_KEY``), or ``none``."""


def init_line(facts: InitFacts) -> dict[str, Any]:
    """The ``system``/``init`` line that opens each turn."""
    return stamp(
        {
            "type": "system",
            "subtype": "init",
            "cwd": facts.cwd,
            "session_id": facts.session_id,
            "tools": list(facts.tools),
            "mcp_servers": [
                {"name": n, "status": s, "source": src} for n, s, src in facts.mcp_servers
            ],
            "model": facts.model,
            "permissionMode": facts.permission_mode,
            "slash_commands": list(facts.slash_commands),
            "apiKeySource": facts.api_key_source,
            "claude_code_version": PROTOCOL_VERSION,
            "hands_version": facts.hands_version,
            "output_style": "default",
            "agents": list(facts.agents),
            "skills": list(facts.skills),
            "plugins": [dict(p) for p in facts.plugins],
        }
    )


def model_usage(usage: Mapping[str, ModelUsage], windows: Mapping[str, int]) -> dict[str, Any]:
    """``modelUsage``: tokens and cost per model (by its facts' id), in the SDKs' camelCase."""
    return {
        share.facts.id: {
            **share.to_wire(context_window=windows.get(name, 0)),
            "webSearchRequests": 0,
        }
        for name, share in usage.items()
    }


@dataclass(frozen=True, kw_only=True, slots=True)
class ResultFacts:
    """What the result line adds to the query's own result."""

    api_ms: float
    usage_by_model: Mapping[str, ModelUsage]
    windows: Mapping[str, int] = field(default_factory=lambda: dict[str, int]())
    denials: Sequence[dict[str, Any]] = ()
    structured_output: Any = None
    subtype: str | None = None
    """Replaces the query's subtype (``error_max_budget_usd``)."""
    error: str = ""


def result_line(event: ResultEvent, facts: ResultFacts) -> dict[str, Any]:
    """The ``result`` line that ends a turn."""
    out = result_message(event)
    subtype = facts.subtype or RESULT_SUBTYPES.get(event.subtype, event.subtype)
    is_error = subtype != "success"
    error = facts.error or event.error
    out.update(
        subtype=subtype,
        is_error=is_error,
        duration_api_ms=round(facts.api_ms),
        total_cost_usd=sum(share.cost_usd for share in facts.usage_by_model.values()),
        modelUsage=model_usage(facts.usage_by_model, facts.windows),
        permission_denials=list(facts.denials),
    )
    if is_error:
        out["errors"] = [error or subtype]
        out["result"] = error or out.get("result") or subtype
    if facts.structured_output is not None:
        out["structured_output"] = facts.structured_output
    return stamp(out)


def error_result(message: str, *, session_id: str) -> dict[str, Any]:
    """A ``result`` for input hands could not use (the session goes on)."""
    return stamp(
        {
            "type": "result",
            "subtype": "error_during_execution",
            "is_error": True,
            "duration_ms": 0,
            "duration_api_ms": 0,
            "num_turns": 0,
            "result": message,
            "errors": [message],
            "stop_reason": None,
            "session_id": session_id,
            "total_cost_usd": 0,
            "usage": Usage().to_wire(),
            "modelUsage": {},
            "permission_denials": [],
        }
    )


class Partials:
    """``--include-partial-messages``: the model's stream as Anthropic stream events."""

    def __init__(self, *, session_id: str, model: str) -> None:
        self.session_id = session_id
        self.model = model
        self.message_id = ""
        self._open: set[int] = set()

    def lines(self, event: StreamEvent) -> list[dict[str, Any]]:
        """The ``stream_event`` lines for one event of the model's stream."""
        return [
            stamp(
                {
                    "type": "stream_event",
                    "event": raw,
                    "session_id": self.session_id,
                    "parent_tool_use_id": None,
                }
            )
            for raw in self._raw(event)
        ]

    def _start(self, index: int, block: dict[str, Any]) -> list[dict[str, Any]]:
        if index in self._open:
            return []
        self._open.add(index)
        return [{"type": "content_block_start", "index": index, "content_block": block}]

    def _raw(self, event: StreamEvent) -> list[dict[str, Any]]:
        if isinstance(event, MessageStart):
            self.message_id = event.id or f"msg_{uuid.uuid4().hex[:24]}"
            self._open.clear()
            message: dict[str, Any] = {
                "id": self.message_id,
                "type": "message",
                "role": "assistant",
                "model": event.model or self.model,
                "content": [],
                "stop_reason": None,
                "usage": Usage().to_wire(),
            }
            return [{"type": "message_start", "message": message}]
        if isinstance(event, TextDelta):
            delta = {"type": "text_delta", "text": event.text}
            start = self._start(event.index, {"type": "text", "text": ""})
            return [*start, {"type": "content_block_delta", "index": event.index, "delta": delta}]
        if isinstance(event, ThinkingDelta):
            delta = {"type": "thinking_delta", "thinking": event.thinking}
            start = self._start(event.index, {"type": "thinking", "thinking": ""})
            return [*start, {"type": "content_block_delta", "index": event.index, "delta": delta}]
        if isinstance(event, ToolUseStart):
            block: dict[str, Any] = {
                "type": "tool_use",
                "id": event.id,
                "name": event.name,
                "input": {},
            }
            return self._start(event.index, block)
        if isinstance(event, InputJsonDelta):
            delta = {"type": "input_json_delta", "partial_json": event.partial_json}
            return [{"type": "content_block_delta", "index": event.index, "delta": delta}]
        if isinstance(event, BlockComplete):
            start = self._start(event.index, event.block.to_wire())
            return [*start, {"type": "content_block_stop", "index": event.index}]
        if isinstance(event, MessageStop):
            delta = {"stop_reason": event.stop_reason, "stop_sequence": None}
            return [
                {"type": "message_delta", "delta": delta, "usage": event.usage.to_wire()},
                {"type": "message_stop"},
            ]
        return []
