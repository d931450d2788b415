"""The JSON a hook receives (stdin of a command hook, body of an HTTP hook).

Field names are Claude Code's: ``session_id``, ``transcript_path``, ``cwd``,
``hook_event_name``, ``permission_mode``, then the event's own fields (``tool_name``,
``tool_input``, ``tool_use_id``, ``tool_response``, ``error``, ``duration_ms``, ...).
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.core.tool import Tool

MAX_ERROR_CHARS = 10_000


def common(
    event: str, ctx: ToolContext, *, with_mode: bool = True, **fields: Any
) -> dict[str, Any]:
    """The fields every event carries, then the event's own ``fields`` in order."""
    session = ctx.session
    data: dict[str, Any] = {
        "session_id": session.id,
        "transcript_path": os.path.join(session.directory, "transcript.jsonl"),  # noqa: PTH118
        "cwd": str(ctx.cwd),
        "hook_event_name": event,
    }
    if with_mode:
        data["permission_mode"] = ctx.permission_mode
    if ctx.agent_id is not None:
        data["agent_id"] = ctx.agent_id
        if ctx.agent_type is not None:
            data["agent_type"] = ctx.agent_type
    data.update(fields)
    return data


def _tool_event(
    event: str, tool: Tool[Any, Any], tool_input: Mapping[str, Any], ctx: ToolContext
) -> dict[str, Any]:
    """The common fields, the tool's name and its input as hooks see it."""
    return common(
        event,
        ctx,
        tool_name=tool.name,
        tool_input=tool_input_for_hooks(tool, tool_input, ctx),
    )


def tool_input_for_hooks(
    tool: Tool[Any, Any], tool_input: Mapping[str, Any], ctx: ToolContext
) -> dict[str, Any]:
    """The input as hooks see it: the path a tool declares it reads or writes made absolute."""
    data = dict(tool_input)
    declared = tool.subject
    if declared is not None and declared.kind in ("read", "write"):
        key = declared.field
        value = data.get(key)
        if isinstance(value, str) and value and not os.path.isabs(value):  # noqa: PTH117
            data[key] = str(ctx.resolve(value))
    return data


def pre_tool_use(
    tool: Tool[Any, Any], tool_input: Mapping[str, Any], ctx: ToolContext
) -> dict[str, Any]:
    """PreToolUse: before the permission decision."""
    data = _tool_event("PreToolUse", tool, tool_input, ctx)
    data["tool_use_id"] = ctx.tool_use_id
    return data


def permission_request(
    tool: Tool[Any, Any],
    tool_input: Mapping[str, Any],
    ctx: ToolContext,
    suggestions: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """PermissionRequest: a prompt would be shown (no ``tool_use_id``)."""
    data = _tool_event("PermissionRequest", tool, tool_input, ctx)
    data["permission_suggestions"] = [dict(s) for s in suggestions]
    return data


def post_tool_use(
    tool: Tool[Any, Any],
    tool_input: Mapping[str, Any],
    response: Any,
    ctx: ToolContext,
    duration_ms: float,
) -> dict[str, Any]:
    """PostToolUse: the tool's structured output as ``tool_response``."""
    data = _tool_event("PostToolUse", tool, tool_input, ctx)
    data["tool_response"] = jsonable(response)
    data["tool_use_id"] = ctx.tool_use_id
    data["duration_ms"] = round(duration_ms)
    return data


def post_tool_use_failure(
    tool: Tool[Any, Any],
    tool_input: Mapping[str, Any],
    error: str,
    ctx: ToolContext,
    duration_ms: float,
    *,
    is_interrupt: bool = False,
) -> dict[str, Any]:
    """PostToolUseFailure: the error text (middle-truncated past 10,000 characters)."""
    data = _tool_event("PostToolUseFailure", tool, tool_input, ctx)
    data["tool_use_id"] = ctx.tool_use_id
    if len(error) > MAX_ERROR_CHARS:
        half = MAX_ERROR_CHARS // 2
        cut = len(error) - MAX_ERROR_CHARS
        error = f"{error[:half]}\n... [{cut} characters] ...\n{error[-half:]}"
    data["error"] = error
    data["is_interrupt"] = is_interrupt
    data["duration_ms"] = round(duration_ms)
    return data


def post_tool_batch(calls: Sequence[Mapping[str, Any]], ctx: ToolContext) -> dict[str, Any]:
    """PostToolBatch: every call of the batch with the content the model sees."""
    return common("PostToolBatch", ctx, tool_calls=[dict(c) for c in calls])


def user_prompt_submit(prompt: str, ctx: ToolContext) -> dict[str, Any]:
    """UserPromptSubmit: the prompt text."""
    return common("UserPromptSubmit", ctx, prompt=prompt)


def stop(
    ctx: ToolContext,
    *,
    stop_hook_active: bool,
    last_assistant_message: str,
    event: str = "Stop",
    agent_type: str | None = None,
    agent_transcript_path: str | None = None,
) -> dict[str, Any]:
    """Stop / SubagentStop: the end of a turn."""
    data = common(
        event,
        ctx,
        stop_hook_active=stop_hook_active,
        last_assistant_message=last_assistant_message,
        background_tasks=[],
        session_crons=[],
    )
    if event == "SubagentStop":
        data["agent_type"] = agent_type or ""
        data["agent_transcript_path"] = agent_transcript_path or data["transcript_path"]
    return data


def session_start(ctx: ToolContext, *, source: str, model: str | None = None) -> dict[str, Any]:
    """SessionStart: ``startup``, ``resume``, ``clear``, ``compact`` or ``fork``."""
    data = common("SessionStart", ctx, with_mode=False, source=source)
    if model:
        data["model"] = model
    return data


def session_end(ctx: ToolContext, *, reason: str) -> dict[str, Any]:
    """SessionEnd: why the session ended."""
    return common("SessionEnd", ctx, with_mode=False, reason=reason)


def notification(ctx: ToolContext, *, message: str, notification_type: str) -> dict[str, Any]:
    """Notification: e.g. ``permission_prompt`` when a permission prompt is shown."""
    return common(
        "Notification", ctx, with_mode=False, message=message, notification_type=notification_type
    )


def subagent_start(ctx: ToolContext, *, agent_id: str, agent_type: str) -> dict[str, Any]:
    """SubagentStart: a sub-agent begins."""
    return common("SubagentStart", ctx, with_mode=False, agent_id=agent_id, agent_type=agent_type)


def pre_compact(ctx: ToolContext, *, trigger: str, custom_instructions: str) -> dict[str, Any]:
    """PreCompact: ``manual`` or ``auto``."""
    return common(
        "PreCompact",
        ctx,
        with_mode=False,
        trigger=trigger,
        custom_instructions=custom_instructions,
    )


def post_compact(ctx: ToolContext, *, trigger: str, compact_summary: str) -> dict[str, Any]:
    """PostCompact: the conversation was summarised (``manual`` or ``auto``)."""
    return common(
        "PostCompact", ctx, with_mode=False, trigger=trigger, compact_summary=compact_summary
    )


def jsonable(value: Any) -> Any:
    """A JSON-compatible copy of a tool's output (pydantic models and dataclasses too)."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            return dump(mode="json", by_alias=True)
        except Exception:  # a model that cannot dump itself: fall back to str
            return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    try:
        return json.loads(json.dumps(value, default=str))
    except (TypeError, ValueError):
        return str(value)
