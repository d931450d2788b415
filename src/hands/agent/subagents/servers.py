"""An agent file's ``mcpServers``: MCP servers given to its sub-agent, as in Claude Code.

Each entry is the name of a server the session has configured (the sub-agent shares the
session's connection) or ``{name: config}``, a server of its own, started when the
sub-agent starts and stopped when it ends. Their tools are added to what the sub-agent
gets anyway (the caller's tools filtered by ``tools`` and ``disallowedTools``): the
list extends, it does not narrow. An untrusted file's own servers are not started.
The MCP layer provides the implementation (:class:`AgentServers` is its shape), so
sub-agents do not depend on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeAlias

from hands.core.tool import Tool

ServerSpec: TypeAlias = str | Mapping[str, Any]
"""A configured server's name, or ``{name: server config}`` as in ``.mcp.json``."""


class OpenServers(Protocol):
    """The servers opened for one sub-agent."""

    @property
    def tools(self) -> Sequence[Tool[Any, Any]]:
        """Their tools."""
        ...

    @property
    def warnings(self) -> Sequence[str]:
        """One line per entry that gave no tools (unknown, untrusted, failed)."""
        ...

    async def aclose(self) -> None:
        """Stop the servers started for the sub-agent (shared ones keep running)."""
        ...


class AgentServers(Protocol):
    """Opens the servers an agent file names."""

    async def open(
        self, specs: Sequence[ServerSpec], *, agent: str, own_allowed: bool
    ) -> OpenServers:
        """Connect ``specs``; ``own_allowed`` False: inline servers are not started."""
        ...
