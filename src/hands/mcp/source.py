"""The tool pool with MCP tools in it, rebuilt whenever a server's tools change.

:class:`McpToolSource` is a :class:`hands.agent.loop.ToolSource`: the loop asks it for the pool
before every model request, so servers that finish connecting and
``notifications/tools/list_changed`` show up on the next turn. A name of a server still
connecting resolves to a stand-in that waits for the server (up to its startup timeout).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from hands.core.tool import Tool
from hands.pipeline.pool import ToolPool, merge

if TYPE_CHECKING:
    from hands.core.decision import PermissionPolicy
    from hands.core.messages import Message
    from hands.mcp.manager import McpManager


class McpToolPool(ToolPool):
    """A pool that resolves MCP names against the servers' tools at call time.

    A tool that appeared after the pool was built (its server finished connecting during
    the model's turn, or ``notifications/tools/list_changed`` added it) is found; a name
    of a server still connecting or re-listing its tools resolves to a stand-in that
    waits for it.
    """

    def __init__(self, tools: Iterable[Tool[Any, Any]], manager: McpManager) -> None:
        super().__init__(tools)
        self._manager = manager

    def find(self, name: str) -> Tool[Any, Any] | None:
        found = super().find(name)
        if found is not None or not name.startswith("mcp__"):
            return found
        live = self._manager.live_tool(name)
        if live is not None:
            return live
        from hands.mcp.manager import pending_tool

        return pending_tool(self._manager, name)


class McpToolSource:
    """Built-in tools plus every connected server's tools (built-ins win name clashes).

    ``base`` is the pool without MCP (default: :func:`hands.pipeline.pool.assemble_pool`);
    ``policy`` removes tools a blanket deny rule names (``mcp__server``, ``mcp__*``).
    The resource tools are offered only while a connected server has resources.
    """

    def __init__(
        self,
        manager: McpManager,
        *,
        base: ToolPool | Sequence[Tool[Any, Any]] | None = None,
        policy: PermissionPolicy | None = None,
    ) -> None:
        if base is None:
            from hands.pipeline.pool import pool_for

            base = pool_for()
        self.manager = manager
        self.base: tuple[Tool[Any, Any], ...] = tuple(base)
        self.policy = policy
        self._version = -1
        self._pool: ToolPool = ToolPool(self.base)
        self._resource_tools: tuple[Tool[Any, Any], ...] | None = None

    def current_pool(self) -> ToolPool:
        """The pool for the next model request (the same object while nothing changed)."""
        version = self.manager.version
        if version != self._version:
            self._version = version
            self._pool = self._build()
        return self._pool

    async def ready(self) -> None:
        """Wait for the servers the first request must list (see ``wait_blocking``)."""
        await self.manager.wait_blocking()

    def reminder_message(self, messages: Sequence[Message]) -> Message | None:
        """Nothing to announce: the pool itself shows the tools."""
        return None

    def warm(self, names: Sequence[str]) -> None:
        """Start the (lazily started) servers behind ``names`` in the background."""
        self.manager.warm(names)

    def _build(self) -> ToolPool:
        extra: list[Tool[Any, Any]] = list(self.manager.tools())
        if self.manager.resource_servers():
            if self._resource_tools is None:
                from hands.mcp.resources import resource_tools

                self._resource_tools = resource_tools(self.manager)
            extra.extend(self._resource_tools)
        policy = self.policy
        if policy is not None:
            extra = [t for t in extra if not policy.denies_tool(t)]
        return McpToolPool(merge(self.base, extra), self.manager)
