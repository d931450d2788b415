"""The policy of a read-only agent (Explore, Plan, Review): the caller's, minus changes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hands.core.decision import PermissionDecision, PermissionPolicy, deny, read_denials

if TYPE_CHECKING:
    from pydantic import BaseModel

    from hands.core.context import ToolContext
    from hands.core.tool import Tool


class ReadOnlyPolicy:
    """Refuses every call that is not read-only; the rest go to the caller's policy."""

    def __init__(self, inner: PermissionPolicy, *, agent_type: str) -> None:
        self.inner = inner
        self.agent_type = agent_type

    def denies_tool(self, tool: Tool[Any, Any] | str) -> bool:
        """As the caller's policy."""
        return self.inner.denies_tool(tool)

    def read_denials(self, ctx: ToolContext) -> tuple[str, ...]:
        """As the caller's policy."""
        return read_denials(self.inner, ctx)

    async def decide(
        self, tool: Tool[Any, Any], input: BaseModel, ctx: ToolContext
    ) -> PermissionDecision:
        """Deny a call that changes something; otherwise the caller's decision."""
        if not tool.is_read_only(input):
            return deny(
                f"The {self.agent_type} agent is read-only: this {tool.name} call would "
                "change something, so it was not run. Use read-only tools and commands, "
                "and report what should change instead."
            )
        return await self.inner.decide(tool, input, ctx)
