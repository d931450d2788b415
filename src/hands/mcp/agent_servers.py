"""The MCP servers of an agent file (``mcpServers``), opened for one sub-agent.

A name refers to a server of the session (its connection is shared and stays up); an
inline ``{name: config}`` gets a manager of its own, started now and closed with the
sub-agent. Entries that give no tools become warnings, never a failed spawn.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hands.core.tool import Tool
from hands.errors import ToolError
from hands.mcp.config import McpServerConfig, configs_from
from hands.mcp.manager import McpManager
from hands.mcp.naming import normalize


@dataclass(kw_only=True, slots=True)
class OpenedServers:
    """What one sub-agent got: the tools, the warnings, and its own manager to close."""

    tools: list[Tool[Any, Any]] = field(default_factory=lambda: list[Tool[Any, Any]]())
    warnings: list[str] = field(default_factory=lambda: list[str]())
    own: McpManager | None = None

    async def aclose(self) -> None:
        """Stop the sub-agent's own servers."""
        if self.own is not None:
            await self.own.aclose()


class AgentMcpServers:
    """Opens agent files' ``mcpServers`` against the session's servers."""

    def __init__(
        self,
        session_servers: Callable[[], McpManager | None],
        *,
        cwd: Path,
        env: Mapping[str, str] | None = None,
        blocked: Callable[[McpServerConfig], str | None] | None = None,
    ) -> None:
        self.session_servers = session_servers
        """The session's manager now (it is rebuilt when project servers are approved)."""
        self.cwd = cwd
        self.env = env
        self.blocked = blocked
        """Managed policy (``deniedMcpServers``...) for inline servers."""

    async def open(
        self, specs: Sequence[str | Mapping[str, Any]], *, agent: str, own_allowed: bool
    ) -> OpenedServers:
        """Connect the servers ``specs`` name; see the module docstring."""
        out = OpenedServers()
        own: list[McpServerConfig] = []
        for spec in specs:
            if isinstance(spec, str):
                await self._shared(spec, agent, out)
                continue
            if not own_allowed:
                names = ", ".join(map(str, spec))
                out.warnings.append(
                    f"agent {agent}: its own MCP server {names} was not started because the "
                    "agent file's workspace is not trusted"
                )
                continue
            for config in configs_from(dict(spec), env=self.env or os.environ, cwd=self.cwd):
                why = config.error or (self.blocked(config) if self.blocked else None)
                if why:
                    out.warnings.append(f"agent {agent}: MCP server {config.name}: {why}")
                else:
                    own.append(config)
        if own:
            shared = self.session_servers()
            manager = McpManager(own, settings=shared.settings if shared else None)
            out.own = manager.start()
            await manager.wait_ready()
            for name, conn in manager.connections.items():
                if conn.state != "connected":
                    out.warnings.append(
                        f"agent {agent}: MCP server {name} did not connect: "
                        f"{conn.error or 'no answer'}"
                    )
            out.tools.extend(manager.tools())
        return out

    async def _shared(self, name: str, agent: str, out: OpenedServers) -> None:
        manager = self.session_servers()
        found = None
        if manager is not None:
            found = manager.connections.get(name) or next(
                (c for c in manager.connections.values() if c.key == normalize(name)), None
            )
        if manager is None or found is None:
            out.warnings.append(
                f"agent {agent}: no MCP server named {name} is configured; it was skipped"
            )
            return
        try:
            await found.ensure_connected()
        except ToolError as exc:
            out.warnings.append(f"agent {agent}: {exc}")
            return
        out.tools.extend(found.tools)
