"""The control requests an SDK program sends, and hands' answers.

Each handler returns the ``response`` object of a success answer or raises
:class:`ControlRefused` with a message for the program; a subtype hands does not know
is refused the same way, so an SDK newer than hands gets an error answer, never a
silent success or a crash.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

from hands.core.context import PERMISSION_MODES

if TYPE_CHECKING:
    from hands.cli.sdk.session import SdkSession


class ControlRefused(Exception):
    """A control request hands cannot carry out; the message says why."""


Handler = Callable[["SdkSession", dict[str, Any]], Awaitable[dict[str, Any]]]


async def _initialize(session: SdkSession, request: dict[str, Any]) -> dict[str, Any]:
    hooks = request.get("hooks")
    if isinstance(hooks, dict):
        session.add_hooks(cast(dict[str, Any], hooks))
    agents = request.get("agents")
    if isinstance(agents, dict):
        session.add_agents(cast(dict[str, Any], agents))
    return session.initialize_response()


async def _interrupt(session: SdkSession, request: dict[str, Any]) -> dict[str, Any]:
    session.interrupt()
    return {}


async def _set_permission_mode(session: SdkSession, request: dict[str, Any]) -> dict[str, Any]:
    mode = request.get("mode")
    if mode not in PERMISSION_MODES:
        raise ControlRefused(
            f"unknown permission mode {mode!r}; choose one of {', '.join(PERMISSION_MODES)}"
        )
    session.set_mode(str(mode))
    return {}


async def _set_model(session: SdkSession, request: dict[str, Any]) -> dict[str, Any]:
    model = request.get("model")
    if model is not None and not isinstance(model, str):
        raise ControlRefused("model must be a string, or null for the default")
    session.set_model(model)
    return {}


async def _mcp_status(session: SdkSession, request: dict[str, Any]) -> dict[str, Any]:
    return {"mcpServers": session.mcp_status()}


async def _mcp_reconnect(session: SdkSession, request: dict[str, Any]) -> dict[str, Any]:
    await session.mcp_switch(_server_name(request), on=True, reconnect=True)
    return {}


async def _mcp_toggle(session: SdkSession, request: dict[str, Any]) -> dict[str, Any]:
    enabled = request.get("enabled")
    if not isinstance(enabled, bool):
        raise ControlRefused("mcp_toggle needs enabled: true or false")
    await session.mcp_switch(_server_name(request), on=enabled, reconnect=False)
    return {}


def _server_name(request: dict[str, Any]) -> str:
    name = request.get("serverName", request.get("server_name"))
    if not isinstance(name, str) or not name:
        raise ControlRefused("the request names no MCP server (serverName)")
    return name


async def _get_context_usage(session: SdkSession, request: dict[str, Any]) -> dict[str, Any]:
    return session.context_usage()


async def _stop_task(session: SdkSession, request: dict[str, Any]) -> dict[str, Any]:
    task_id = request.get("task_id")
    if not isinstance(task_id, str) or not task_id:
        raise ControlRefused("stop_task needs a task_id")
    await session.stop_task(task_id)
    return {}


async def _rewind_files(session: SdkSession, request: dict[str, Any]) -> dict[str, Any]:
    return session.checkpoints.rewind(request)


async def _set_max_thinking_tokens(session: SdkSession, request: dict[str, Any]) -> dict[str, Any]:
    session.set_thinking(request)
    return {}


async def _end_session(session: SdkSession, request: dict[str, Any]) -> dict[str, Any]:
    session.end_input()
    return {}


HANDLERS: dict[str, Handler] = {
    "initialize": _initialize,
    "interrupt": _interrupt,
    "set_permission_mode": _set_permission_mode,
    "set_model": _set_model,
    "mcp_status": _mcp_status,
    "mcp_reconnect": _mcp_reconnect,
    "mcp_toggle": _mcp_toggle,
    "get_context_usage": _get_context_usage,
    "stop_task": _stop_task,
    "rewind_files": _rewind_files,
    "set_max_thinking_tokens": _set_max_thinking_tokens,
    "end_session": _end_session,
}
"""Every subtype hands answers; ``docs/agent-sdk.md`` lists them with the others."""


async def answer(session: SdkSession, message: dict[str, Any]) -> None:
    """Answer one ``control_request`` line: success with a response, or an error."""
    request_id = str(message.get("request_id", ""))
    raw = message.get("request")
    request = cast(dict[str, Any], raw) if isinstance(raw, dict) else {}
    subtype = request.get("subtype")
    handler = HANDLERS.get(subtype) if isinstance(subtype, str) else None
    if handler is None:
        session.channel.respond_error(
            request_id, f"hands does not support the control request {subtype!r}"
        )
        return
    try:
        response = await handler(session, request)
    except ControlRefused as exc:
        session.channel.respond_error(request_id, str(exc))
        return
    except Exception as exc:  # a failure of one request must not end the session
        session.channel.respond_error(request_id, f"{subtype} failed: {type(exc).__name__}: {exc}")
        return
    session.channel.respond(request_id, response)
