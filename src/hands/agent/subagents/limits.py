"""How deep sub-agents nest and how many run at once (read when a sub-agent starts)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from hands.core.env import count

DEFAULT_MAX_DEPTH = 3
DEFAULT_MAX_CONCURRENT = 20
MAX_OUTPUT_CHARS = 32_000
"""A sub-agent's result above this is saved to a file; the caller gets a preview."""


def max_depth(env: Mapping[str, str] | None = None) -> int:
    """``HANDS_MAX_SUBAGENT_DEPTH`` (default 3): sub-agents of sub-agents, this deep."""
    return count("HANDS_MAX_SUBAGENT_DEPTH", env) or DEFAULT_MAX_DEPTH


def max_concurrent(env: Mapping[str, str] | None = None) -> int:
    """``HANDS_MAX_CONCURRENT_SUBAGENTS`` (default 20): running at once in a session."""
    return count("HANDS_MAX_CONCURRENT_SUBAGENTS", env) or DEFAULT_MAX_CONCURRENT


@dataclass(kw_only=True, slots=True)
class Running:
    """The sub-agents of a session running now (a session service)."""

    depth: dict[str, int] = field(default_factory=lambda: dict[str, int]())

    def depth_of(self, agent_id: str | None) -> int:
        """0 for the main agent, 1 for its sub-agents..."""
        return 0 if agent_id is None else self.depth.get(agent_id, 1)

    @property
    def count(self) -> int:
        """How many run now."""
        return len(self.depth)

    def enter(self, agent_id: str, depth: int) -> None:
        """A sub-agent started."""
        self.depth[agent_id] = depth

    def leave(self, agent_id: str) -> None:
        """It ended."""
        self.depth.pop(agent_id, None)
