"""Which tools a sub-agent gets: the caller's, filtered for sub-agents and by its type."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from hands.agent.subagents.definition import AgentDefinition
from hands.core.context import PermissionMode
from hands.core.tool import Tool
from hands.permissions.plan_mode import planning
from hands.pipeline.pool import ToolPool


@dataclass(frozen=True, kw_only=True, slots=True)
class Toolset:
    """The sub-agent's pool, and the allowlist entries that named no usable tool."""

    pool: ToolPool
    unresolved: tuple[str, ...] = ()


def usable(tool: Tool[Any, Any], mode: PermissionMode) -> bool:
    """Whether a sub-agent running in ``mode`` may be given ``tool`` at all."""
    use = tool.subagent_use
    return use == "always" or (use == "in_plan_mode" and planning(mode))


def _entry_name(entry: str) -> str:
    """``Bash(git *)`` → ``Bash``: an allowlist entry's tool name."""
    return entry.split("(", 1)[0].strip()


def _matches(entry: str, tools: Iterable[Tool[Any, Any]]) -> list[Tool[Any, Any]]:
    name = _entry_name(entry)
    if name.startswith("mcp__") and (name.endswith("*") or name.count("__") == 1):
        prefix = name.rstrip("*")
        prefix = prefix if prefix.endswith("__") else prefix + "__"
        return [t for t in tools if t.name.startswith(prefix)]
    return [t for t in tools if t.name == name or name in t.aliases]


def select_tools(
    parent: ToolPool,
    agent: AgentDefinition,
    *,
    mode: PermissionMode,
    may_spawn: bool,
    spawner: type[Tool[Any, Any]],
    background: bool = False,
) -> Toolset:
    """The sub-agent's tools. ``may_spawn`` False (the depth limit) removes ``spawner``.

    ``background``: only the tools declared for background agents
    (:attr:`~hands.core.tool.Tool.in_background_agents`) are kept, as in Claude Code.
    """
    tools = [t for t in parent if usable(t, mode)]
    if background:
        tools = [t for t in tools if t.in_background_agents]
    if not may_spawn or agent.read_only:
        tools = [t for t in tools if not isinstance(t, spawner)]
    if agent.read_only:
        tools = [t for t in tools if not t.edits_files]
    unresolved: list[str] = []
    if agent.tools is not None:
        kept: dict[str, Tool[Any, Any]] = {}
        for entry in agent.tools:
            found = _matches(entry, tools)
            if not found:
                unresolved.append(entry)
            kept.update((t.name, t) for t in found)
        tools = list(kept.values())
    denied = {t.name for entry in agent.disallowed_tools for t in _matches(entry, tools)}
    tools = [t for t in tools if t.name not in denied]
    return Toolset(pool=ToolPool(tools, serves_unlisted=False), unresolved=tuple(unresolved))
