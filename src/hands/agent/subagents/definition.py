"""What an agent type is: its prompt, its tools, its model and its limits."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeAlias

from hands.agent.subagents.servers import ServerSpec
from hands.core.context import PermissionMode

Isolation: TypeAlias = Literal["worktree"]


@dataclass(frozen=True, kw_only=True, slots=True)
class AgentDefinition:
    """One agent type: built in, or read from a Markdown file with frontmatter."""

    name: str
    description: str
    system_prompt: str
    tools: tuple[str, ...] | None = None
    """The allowlist (tool names, aliases, ``mcp__server__*``); ``None``: every tool a
    sub-agent may have."""
    disallowed_tools: tuple[str, ...] = ()
    """The denylist; wins over ``tools``."""
    read_only: bool = False
    """Every call must be read-only (Explore, Plan, Review); the rest are refused."""
    model: str = "inherit"
    permission_mode: PermissionMode | None = None
    """The mode the sub-agent runs in; ``None``: the caller's."""
    max_turns: int | None = None
    mcp_servers: tuple[ServerSpec, ...] = ()
    """Servers added for it: configured servers' names, or ``{name: config}`` of its own."""
    hooks: Mapping[str, Any] = field(default_factory=lambda: dict[str, Any]())
    initial_prompt: str = ""
    """Text put before the caller's prompt."""
    isolation: Isolation | None = None
    background: bool = False
    source: Path | None = None
    """The file it was read from; ``None``: built in."""
    scope: Literal["builtin", "user", "project"] = "builtin"
    trusted: bool = True
    """Whether its ``hooks`` and inline ``mcpServers`` may run: built-in and user files'
    may; a project file's only in a trusted workspace (:mod:`hands.config.trust`)."""
