"""The agent types a session offers: the built-ins and the custom ones, found by name."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from hands.agent.subagents.builtin import BUILTIN_AGENTS, GENERAL_PURPOSE
from hands.agent.subagents.definition import AgentDefinition
from hands.agent.subagents.files import load_agents

_SEPARATORS = re.compile(r"[\s_\-]+")
MAX_LISTED_DESCRIPTION = 300
GENERAL_NAMES = frozenset({"claude"})
"""Other names of the general agent type (Claude Code's ``claude``), unless a custom type
takes one."""


def normalized(name: str) -> str:
    """A type name compared case- and separator-insensitively (``general_purpose``...)."""
    return _SEPARATORS.sub("", name).lower()


class AgentCatalog:
    """Agent types by name; a custom type replaces a built-in one of the same name."""

    def __init__(
        self, agents: Iterable[AgentDefinition] = (), *, warnings: Iterable[str] = ()
    ) -> None:
        merged = {normalized(a.name): a for a in (*BUILTIN_AGENTS, *agents)}
        self._by_key = merged
        self.warnings = tuple(warnings)
        """One line per agent file that could not be used."""

    @classmethod
    def load(
        cls, *, cwd: Path, home: Path | None = None, trusted: bool | None = None
    ) -> AgentCatalog:
        """Built-ins plus the agent files of the user and of the project in ``cwd``.

        ``trusted``: see :func:`~hands.agent.subagents.files.load_agents`.
        """
        loaded = load_agents(cwd=cwd, home=home, trusted=trusted)
        return cls(loaded.agents, warnings=loaded.warnings)

    @property
    def agents(self) -> tuple[AgentDefinition, ...]:
        """Every type, built-ins first, then the custom ones by name."""
        values = list(self._by_key.values())
        builtin = [a for a in values if a.scope == "builtin"]
        custom = sorted((a for a in values if a.scope != "builtin"), key=lambda a: a.name)
        return (*builtin, *custom)

    def find(self, name: str | None) -> AgentDefinition | None:
        """The type called ``name``; empty or ``None``: general-purpose."""
        if (
            not name
            or not name.strip()
            or (normalized(name) in GENERAL_NAMES and normalized(name) not in self._by_key)
        ):
            return self._by_key.get(normalized(GENERAL_PURPOSE.name), GENERAL_PURPOSE)
        return self._by_key.get(normalized(name))

    @property
    def names(self) -> tuple[str, ...]:
        """Every type's name."""
        return tuple(a.name for a in self.agents)

    def listing(self) -> str:
        """One line per type for the Agent tool's description: name, what it is for, tools."""
        lines: list[str] = []
        for agent in self.agents:
            about = " ".join(agent.description.split())
            if len(about) > MAX_LISTED_DESCRIPTION:
                about = about[: MAX_LISTED_DESCRIPTION - 1] + "…"
            tools = _tools_note(agent)
            lines.append(f"- {agent.name}: {about}{tools}")
        return "\n".join(lines)


def _tools_note(agent: AgentDefinition) -> str:
    if agent.read_only:
        return " (Tools: read-only)"
    if agent.tools is not None:
        shown = [t for t in agent.tools if t not in agent.disallowed_tools]
        return f" (Tools: {', '.join(shown)})"
    if agent.disallowed_tools:
        return f" (Tools: all but {', '.join(agent.disallowed_tools)})"
    return " (Tools: all)"
