"""ListAgents: the session's background agents, with their ids, types, tasks and states."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from pydantic import Field
from pydantic.json_schema import SkipJsonSchema

from hands.core.context import ToolContext
from hands.core.decision import PermissionDecision, allow
from hands.core.schema import ToolInput
from hands.core.tool import Progress, ReadOnlyTool, ToolResult
from hands.tools.agent.background import BackgroundAgents

PAGE = 50
"""Agents listed per call; ``cursor`` gives the next page."""


class ListAgentsInput(ToolInput):
    """Input of ListAgents."""

    ignored_fields: ClassVar[Mapping[str, str]] = {
        "channel": "hands has no agent channels; every background agent is listed",
        "q": "every background agent is listed; there are few enough to read",
    }

    cursor: str | None = Field(
        default=None,
        description="The cursor the end of a long listing gave, for its next page",
        max_length=256,
    )
    channel: SkipJsonSchema[str | None] = Field(default=None, max_length=256, exclude=True)
    q: SkipJsonSchema[str | None] = Field(default=None, max_length=256, exclude=True)


@dataclass(frozen=True, kw_only=True, slots=True)
class AgentLine:
    """One agent as listed."""

    id: str
    agent_type: str
    description: str
    status: str
    parent_id: str | None


@dataclass(frozen=True, kw_only=True, slots=True)
class ListAgentsResult:
    """A page of the session's background agents."""

    agents: tuple[AgentLine, ...]
    next_cursor: str | None


class ListAgentsTool(ReadOnlyTool[ListAgentsInput, ListAgentsResult]):
    """List the background agents of this session."""

    name = "ListAgents"
    description = (
        "List this session's background agents: id, type, task and state (running, "
        "completed, failed, stopped). Address one with SendMessage (its id or its task as "
        "name), read its output with TaskOutput, stop it with TaskStop."
    )
    input_model = ListAgentsInput
    should_defer = True
    in_background_agents = True
    search_hint = "list background agents and their state"

    async def check_permissions(
        self, input: ListAgentsInput, ctx: ToolContext
    ) -> PermissionDecision:
        return allow("the session's own agents")

    async def call(
        self, input: ListAgentsInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[ListAgentsResult]:
        everyone = BackgroundAgents.for_session(ctx.session).all()
        start = int(input.cursor) if input.cursor and input.cursor.isdigit() else 0
        page = everyone[start : start + PAGE]
        more = start + PAGE < len(everyone)
        lines = tuple(
            AgentLine(
                id=a.id,
                agent_type=a.agent_type,
                description=a.description,
                status=a.status,
                parent_id=a.parent_id,
            )
            for a in page
        )
        return ToolResult(
            output=ListAgentsResult(agents=lines, next_cursor=str(start + PAGE) if more else None)
        )

    def to_content(self, output: ListAgentsResult) -> str:
        if not output.agents:
            return "No background agents in this session."
        rows = [
            f"{a.id}  {a.status:<9}  {a.agent_type}: {a.description}"
            + (f"  (started by {a.parent_id})" if a.parent_id else "")
            for a in output.agents
        ]
        if output.next_cursor is not None:
            rows.append(f"(more: call again with cursor {output.next_cursor!r})")
        return "\n".join(rows)
