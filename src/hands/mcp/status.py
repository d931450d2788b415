"""What ``hands mcp list`` shows for one server, without loading the connection code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

State: TypeAlias = Literal["pending", "connected", "reconnecting", "failed", "needs-auth", "closed"]
"""A connection's state."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ServerStatus:
    """What ``hands mcp list`` shows for one server."""

    name: str
    scope: str
    transport: str
    target: str
    state: State | Literal["needs-approval", "disabled"]
    error: str = ""
    tools: tuple[str, ...] = ()
    resources: bool = False
    server_info: str = ""
    connect_ms: float | None = None

    @property
    def source(self) -> str:
        """Where the server's definition came from, as stream-json's lines say it.

        ``sdk`` (an Agent SDK program's own), ``plugin``, or the configuration's scope.
        """
        if self.transport == "sdk":
            return "sdk"
        if self.name.startswith("plugin:"):
            return "plugin"
        return self.scope

    @property
    def wire_status(self) -> str:
        """The status word of stream-json's ``system/init`` ``mcp_servers`` entries."""
        return _WIRE_STATUS.get(self.state, "failed")

    def to_json(self) -> dict[str, Any]:
        """A plain dict for ``--json``."""
        return {
            "name": self.name,
            "scope": self.scope,
            "transport": self.transport,
            "target": self.target,
            "state": self.state,
            "error": self.error,
            "tools": list(self.tools),
            "tool_count": len(self.tools),
            "resources": self.resources,
            "server_info": self.server_info,
            "connect_ms": self.connect_ms,
        }


_WIRE_STATUS: dict[str, str] = {
    "connected": "connected",
    "pending": "pending",
    "reconnecting": "pending",
    "failed": "failed",
    "closed": "failed",
    "needs-auth": "needs-auth",
    "needs-approval": "disabled",
    "disabled": "disabled",
}
