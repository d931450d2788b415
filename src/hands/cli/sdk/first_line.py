"""What the SDK's first line (``initialize``) says that must be known before the session is built.

The TypeScript SDK names its in-process MCP servers (``sdkMcpServers``) and passes the
system prompt (``systemPrompt``, ``appendSystemPrompt``) in ``initialize`` rather than on
the command line; a host started with ``--managed-settings-in-initialize`` delivers the
policy settings there (``managedSettings``). The line is read before the session is
assembled, so those servers join the pool like any other and the prompt is the session's
from the start; the line is then answered as usual.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, cast


@dataclass(frozen=True, kw_only=True, slots=True)
class EarlyInitialize:
    """The parts of ``initialize`` the session is built with."""

    sdk_servers: tuple[str, ...] = ()
    system_prompt: str | None = None
    append_system_prompt: str = ""
    managed_settings: dict[str, Any] | None = None
    """``managedSettings``: the policy settings a host delivers
    (``--managed-settings-in-initialize``)."""


def read_early(line: bytes) -> EarlyInitialize:
    """The build-time parts of ``line`` when it is an ``initialize`` request, else none."""
    try:
        data: object = json.loads(line.decode("utf-8", errors="replace")) if line.strip() else None
    except json.JSONDecodeError:
        return EarlyInitialize()
    if not isinstance(data, dict):
        return EarlyInitialize()
    request = cast(dict[str, Any], data).get("request")
    if cast(dict[str, Any], data).get("type") != "control_request" or not isinstance(request, dict):
        return EarlyInitialize()
    body = cast(dict[str, Any], request)
    if body.get("subtype") != "initialize":
        return EarlyInitialize()
    servers = body.get("sdkMcpServers")
    names = tuple(str(n) for n in cast(list[object], servers)) if isinstance(servers, list) else ()
    prompt = body.get("systemPrompt")
    if isinstance(prompt, list):
        prompt = "\n\n".join(str(p) for p in cast(list[object], prompt))
    append = body.get("appendSystemPrompt")
    managed = body.get("managedSettings")
    return EarlyInitialize(
        sdk_servers=names,
        system_prompt=prompt if isinstance(prompt, str) else None,
        append_system_prompt=append if isinstance(append, str) else "",
        managed_settings=cast(dict[str, Any], managed) if isinstance(managed, dict) else None,
    )
