"""What a committed project settings file would run or loosen, for the trust question.

A project's ``.claude/settings.json`` (or ``.hands/settings.json``) comes with the code.
Until the workspace is trusted, everything in it that runs programs or loosens
permissions waits: hook commands and URLs, ``env`` variables, approvals of the
project's ``.mcp.json`` servers, allow rules, ``additionalDirectories`` and a loosening
``defaultMode``. :func:`untrusted_parts` lists them per file, so the user can see what
trusting would start.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from hands.core.words import plural

LOOSENING_MODES = frozenset({"acceptEdits", "bypassPermissions"})
"""Default modes an untrusted project file may not set."""
_MODE_ALIASES = {"manual": "default"}
MCP_APPROVAL_KEYS = ("enabledMcpjsonServers", "enableAllProjectMcpServers")
"""Settings keys that approve a project's ``.mcp.json`` servers."""
ALL_SERVERS = "*"
"""Stands for ``enableAllProjectMcpServers: true`` in :attr:`UntrustedFile.mcp_servers`."""


@dataclass(frozen=True, kw_only=True, slots=True)
class UntrustedFile:
    """One project settings file's entries that wait for trust."""

    label: str
    hooks: tuple[str, ...] = ()
    """``Event: command`` (or ``Event: url``) for each hook handler."""
    env: tuple[str, ...] = ()
    """Names of the ``env`` variables."""
    mcp_servers: tuple[str, ...] = ()
    """Project MCP servers it approves (:data:`ALL_SERVERS` for every one)."""
    allow: tuple[str, ...] = ()
    directories: tuple[str, ...] = ()
    mode: str = ""

    @property
    def empty(self) -> bool:
        """Whether nothing in the file waits for trust."""
        return (
            not (self.hooks or self.env or self.mcp_servers or self.allow or self.directories)
            and not self.mode
        )

    def summary(self) -> str:
        """A short count of what waits, for one-line warnings."""
        parts: list[str] = []
        if self.hooks:
            parts.append(plural(len(self.hooks), "hook command"))
        if self.env:
            parts.append(plural(len(self.env), "env variable"))
        if self.mcp_servers:
            servers = self.mcp_servers
            parts.append(
                "its approval of every .mcp.json server"
                if ALL_SERVERS in servers
                else f"its approval of {plural(len(servers), 'MCP server')}"
            )
        if self.allow:
            parts.append(plural(len(self.allow), "permissions.allow rule"))
        if self.directories:
            parts.append(
                plural(
                    len(self.directories),
                    "additionalDirectories entry",
                    "additionalDirectories entries",
                )
            )
        if self.mode:
            parts.append(f"defaultMode {self.mode}")
        return ", ".join(parts)


def untrusted_parts(
    label: str,
    data: Mapping[str, Any],
    *,
    allow: Sequence[object],
    directories: Sequence[str],
    mode: str | None,
) -> UntrustedFile:
    """What in one project file waits for trust (``allow`` … ``mode``: its permissions)."""
    loosening = mode is not None and _MODE_ALIASES.get(mode, mode) in LOOSENING_MODES
    return UntrustedFile(
        label=label,
        hooks=hook_commands(data.get("hooks")),
        env=tuple(env_names(data.get("env"))),
        mcp_servers=_mcp_approvals(data),
        allow=tuple(str(r) for r in allow),
        directories=tuple(directories),
        mode=str(mode) if loosening else "",
    )


def combined(files: Sequence[UntrustedFile]) -> UntrustedFile:
    """Every file's entries in one (labels joined), for a single warning."""
    return UntrustedFile(
        label=" and ".join(f.label for f in files),
        hooks=tuple(h for f in files for h in f.hooks),
        env=tuple(dict.fromkeys(e for f in files for e in f.env)),
        mcp_servers=tuple(dict.fromkeys(n for f in files for n in f.mcp_servers)),
        allow=tuple(r for f in files for r in f.allow),
        directories=tuple(d for f in files for d in f.directories),
        mode=next((f.mode for f in files if f.mode), ""),
    )


def hook_commands(raw: object) -> tuple[str, ...]:
    """``Event: command`` for every handler of a raw ``hooks`` object (shape not checked)."""
    if not isinstance(raw, Mapping):
        return ()
    out: list[str] = []
    for event, groups in cast(Mapping[object, object], raw).items():
        for group in _items(groups):
            if not isinstance(group, Mapping):
                continue
            for handler in _items(cast(Mapping[str, object], group).get("hooks")):
                if not isinstance(handler, Mapping):
                    continue
                entry = cast(Mapping[str, object], handler)
                what = entry.get("command") or entry.get("url")
                if isinstance(what, str) and what.strip():
                    out.append(f"{event}: {what.strip()}")
    return tuple(out)


def env_names(raw: object) -> list[str]:
    """The variable names of a raw ``env`` object."""
    if not isinstance(raw, Mapping):
        return []
    return [k for k in cast(Mapping[object, object], raw) if isinstance(k, str)]


def _items(value: object) -> list[Any]:
    return list(cast(list[Any], value)) if isinstance(value, list) else []


def _mcp_approvals(data: Mapping[str, Any]) -> tuple[str, ...]:
    if data.get("enableAllProjectMcpServers") is True:
        return (ALL_SERVERS,)
    return tuple(n for n in _items(data.get("enabledMcpjsonServers")) if isinstance(n, str))
