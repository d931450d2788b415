"""``initialize``'s ``agents``: sub-agent types an SDK program defines in code."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from hands.agent.subagents.catalog import AgentCatalog
from hands.agent.subagents.definition import AgentDefinition
from hands.agent.subagents.tool import AgentTool
from hands.core.context import PERMISSION_MODES
from hands.pipeline.pool import ToolPool


def definition(name: str, raw: Mapping[str, Any]) -> AgentDefinition | str:
    """The agent type of one entry (``description``, ``prompt``, ``tools``...), or why not."""
    description = raw.get("description")
    prompt = raw.get("prompt")
    if not isinstance(description, str) or not description.strip():
        return f"the agent {name!r} has no description"
    if not isinstance(prompt, str):
        return f"the agent {name!r} has no prompt"
    tools = _names(raw.get("tools"))
    mode = raw.get("permissionMode")
    turns = raw.get("maxTurns")
    model = raw.get("model")
    return AgentDefinition(
        name=name,
        description=description,
        system_prompt=prompt,
        tools=tools,
        disallowed_tools=_names(raw.get("disallowedTools")) or (),
        model=model if isinstance(model, str) and model else "inherit",
        permission_mode=mode if mode in PERMISSION_MODES else None,
        max_turns=turns if isinstance(turns, int) and turns > 0 else None,
        scope="project",
    )


def _names(value: object) -> tuple[str, ...] | None:
    if not isinstance(value, list):
        return None
    return tuple(str(v) for v in cast(list[object], value))


def add_sdk_agents(pool: ToolPool, agents: Mapping[str, Any]) -> list[str]:
    """Add the agent types to the pool's Agent tool; a note per entry not used."""
    tool = pool.find("Agent")
    if not isinstance(tool, AgentTool):
        return ["the session has no Agent tool (--tools leaves it out), so agents are unused"]
    notes: list[str] = []
    added: list[AgentDefinition] = []
    for name, raw in agents.items():
        found = (
            definition(name, cast(Mapping[str, Any], raw))
            if isinstance(raw, dict)
            else f"the agent {name!r} is not an object"
        )
        if isinstance(found, str):
            notes.append(found)
        else:
            added.append(found)
    kept = [a for a in tool.catalog.agents if a.scope != "builtin"]
    tool.use_catalog(AgentCatalog((*kept, *added), warnings=tool.catalog.warnings))
    return notes
