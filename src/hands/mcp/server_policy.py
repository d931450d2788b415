"""``allowedMcpServers`` / ``deniedMcpServers``: which configured servers may run at all.

Claude Code's managed settings: each list holds entries that name a server
(``serverName``), its exact command line (``serverCommand``: command and arguments) or
its URL (``serverUrl``, ``*`` matching any run of characters). With ``allowedMcpServers``
set, only servers it matches run (an empty list allows none); a server
``deniedMcpServers`` matches never runs, whatever the allow list says.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from hands.mcp.config import McpServerConfig


@dataclass(frozen=True, kw_only=True, slots=True)
class ServerEntry:
    """One entry of an allow or deny list."""

    name: str | None = None
    command: tuple[str, ...] | None = None
    url: re.Pattern[str] | None = None

    def matches(self, server: McpServerConfig) -> bool:
        """Whether ``server`` is the one this entry names."""
        if self.name is not None:
            return server.name == self.name
        if self.command is not None:
            return server.transport == "stdio" and (server.command, *server.args) == self.command
        if self.url is not None:
            return server.transport != "stdio" and self.url.fullmatch(server.url) is not None
        return False


@dataclass(frozen=True, kw_only=True, slots=True)
class ServerPolicy:
    """The allow and deny lists of the settings (``allowed`` None: no allow list)."""

    allowed: tuple[ServerEntry, ...] | None = None
    denied: tuple[ServerEntry, ...] = ()

    @classmethod
    def from_settings(cls, value: Callable[[str], Any]) -> ServerPolicy:
        """From ``Settings.value`` (the strongest file that sets each key)."""
        allowed: object = value("allowedMcpServers")
        return cls(
            allowed=None if allowed is None else _entries(allowed),  # set but bad: none
            denied=_entries(value("deniedMcpServers")),
        )

    def blocked(self, server: McpServerConfig) -> str | None:
        """Why ``server`` may not run, or None when it may."""
        if any(entry.matches(server) for entry in self.denied):
            return "blocked by deniedMcpServers in the settings"
        if self.allowed is not None and not any(e.matches(server) for e in self.allowed):
            return "not in allowedMcpServers in the settings"
        return None


def _entries(raw: object) -> tuple[ServerEntry, ...]:
    if not isinstance(raw, list):
        return ()
    out: list[ServerEntry] = []
    for item in cast(list[object], raw):
        if not isinstance(item, dict):
            continue
        entry = cast(dict[str, Any], item)
        name = entry.get("serverName")
        command = entry.get("serverCommand")
        url = entry.get("serverUrl")
        if isinstance(name, str):
            out.append(ServerEntry(name=name))
        elif isinstance(command, list):
            parts = cast(Sequence[Any], command)
            if all(isinstance(c, str) for c in parts):
                out.append(ServerEntry(command=tuple(cast(Sequence[str], parts))))
        elif isinstance(url, str):
            pattern = ".*".join(re.escape(part) for part in url.split("*"))
            out.append(ServerEntry(url=re.compile(pattern)))
    return tuple(out)
