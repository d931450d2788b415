"""What a committed project settings file would run or loosen, for the trust question.

A project's ``.claude/settings.json`` (or ``.hands/settings.json``) comes with the code.
Until the workspace is trusted, everything in it that runs programs or loosens
permissions waits: hook commands and URLs, ``env`` variables, approvals of the
project's ``.mcp.json`` servers, allow rules, ``additionalDirectories`` and a loosening
``defaultMode``. :func:`untrusted_parts` lists them per file, so the user can see what
trusting would start.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from hands.core.words import plural

LOOSENING_MODES = frozenset({"acceptEdits", "bypassPermissions"})
"""Default modes an untrusted project file may not set."""
_MODE_ALIASES = {"manual": "default"}
MCP_APPROVAL_KEYS = ("enabledMcpjsonServers", "enableAllProjectMcpServers")
"""Settings keys that approve a project's ``.mcp.json`` servers."""
SERVER_ALLOWLIST_KEY = "allowedMcpServers"
"""The MCP servers that may run at all; a committed file's entries would widen it."""
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
    loosens: tuple[str, ...] = ()
    """Other entries that let more run unasked or unconfined: the ``sandbox`` entries
    that loosen it (:func:`sandbox_loosening`), ``allowedMcpServers``, and every other
    setting that does not only tighten (:func:`other_settings`)."""

    @property
    def empty(self) -> bool:
        """Whether nothing in the file waits for trust."""
        listed = (self.hooks, self.env, self.mcp_servers, self.allow, self.directories)
        return not any(listed) and not self.loosens and not self.mode

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
        if self.loosens:
            parts.append(plural(len(self.loosens), "loosening setting"))
        return ", ".join(parts)


_LISTED_KEYS = frozenset(
    {"permissions", "hooks", "env", "sandbox", "$schema", SERVER_ALLOWLIST_KEY, *MCP_APPROVAL_KEYS}
)
"""Keys :func:`untrusted_parts` lists on their own (or that say nothing)."""


def tightens(key: str, value: object) -> bool:
    """Whether a top-level setting from an untrusted file only restricts, so it counts.

    ``disableAllHooks: true`` and the lists of refused MCP servers do; every other key
    (``model``, ``agentModels``, unknown ones) waits for trust (fail closed).
    """
    if key == "disableAllHooks":
        return value is True
    return key in {"deniedMcpServers", "disabledMcpjsonServers"} and isinstance(value, list)


def other_settings(data: Mapping[str, Any]) -> tuple[str, ...]:
    """``key value`` for each top-level setting that neither is listed apart nor tightens."""
    return tuple(
        f"{key} {json.dumps(value, separators=(',', ':'))[:120]}"
        for key, value in data.items()
        if key not in _LISTED_KEYS and not tightens(key, value)
    )


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
        loosens=(
            *sandbox_loosening(data.get("sandbox")),
            *_server_allowlist(data),
            *other_settings(data),
        ),
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
        loosens=tuple(e for f in files for e in f.loosens),
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


def _server_allowlist(data: Mapping[str, Any]) -> tuple[str, ...]:
    if SERVER_ALLOWLIST_KEY not in data:
        return ()
    entries = _items(data[SERVER_ALLOWLIST_KEY])
    shown = ", ".join(json.dumps(e, separators=(",", ":")) for e in entries) or "(none)"
    return (f"{SERVER_ALLOWLIST_KEY} {shown} (MCP servers that may run)",)


def _mcp_approvals(data: Mapping[str, Any]) -> tuple[str, ...]:
    if data.get("enableAllProjectMcpServers") is True:
        return (ALL_SERVERS,)
    return tuple(n for n in _items(data.get("enabledMcpjsonServers")) if isinstance(n, str))


_SANDBOX_WORDS = {
    "enabled": "commands run outside the sandbox",
    "autoAllowBashIfSandboxed": "sandboxed commands run without asking",
    "allowUnsandboxedCommands": "a call may ask to run outside the sandbox",
    "excludedCommands": "run outside the sandbox",
    "network.allowedDomains": "reachable from sandboxed commands and WebFetch",
    "filesystem.allowWrite": "writable by sandboxed commands",
}
_SANDBOX_KEEPS = {
    "enabled": True,
    "allowUnsandboxedCommands": False,
    "autoAllowBashIfSandboxed": False,
}
"""Scalar ``sandbox`` entries that only tighten, with the value that does."""
_SANDBOX_KEEPS_LISTS = {
    "network": ("deniedDomains",),
    "filesystem": ("denyRead", "denyWrite"),
}
"""Nested ``sandbox`` lists that only tighten."""
AUTO_ALLOW_KEY = "autoAllowBashIfSandboxed"
"""``sandbox.autoAllowBashIfSandboxed``: a sandboxed command runs without asking."""


def sandbox_loosening(raw: object) -> tuple[str, ...]:
    """What a raw ``sandbox`` object would let run unasked or unconfined, one entry each.

    Everything but :func:`tightening_sandbox` counts, unknown keys too (fail closed).
    Turning the sandbox on is listed when it would also auto-approve sandboxed
    commands (``autoAllowBashIfSandboxed`` defaults to true).
    """
    if not isinstance(raw, Mapping):
        return ()
    sandbox = cast(Mapping[str, object], raw)
    out: list[str] = []
    if sandbox.get("enabled") is True and sandbox.get(AUTO_ALLOW_KEY) is not False:
        out.append("sandbox.enabled: sandboxed commands run without asking")
    for key, value in sandbox.items():
        if key in _SANDBOX_KEEPS and value == _SANDBOX_KEEPS[key]:
            continue
        if key in _SANDBOX_KEEPS_LISTS and isinstance(value, Mapping):
            nested = cast(Mapping[str, object], value)
            kept = _SANDBOX_KEEPS_LISTS[key]
            out.extend(_sandbox_entry(f"{key}.{k}", v) for k, v in nested.items() if k not in kept)
        elif key != "enabled" or value is not True:
            out.append(_sandbox_entry(key, value))
    return tuple(out)


def tightening_sandbox(raw: object, *, auto_allow: bool) -> dict[str, Any]:
    """The parts of a raw ``sandbox`` object that only restrict, for an untrusted file.

    ``auto_allow``: whether a trusted source already lets sandboxed commands run
    unasked; when not, a sandbox this file turns on asks before each command.
    """
    if not isinstance(raw, Mapping):
        return {}
    sandbox = cast(Mapping[str, object], raw)
    out: dict[str, Any] = {
        key: value
        for key, value in sandbox.items()
        if key in _SANDBOX_KEEPS and value == _SANDBOX_KEEPS[key]
    }
    for key, kept in _SANDBOX_KEEPS_LISTS.items():
        nested = sandbox.get(key)
        if isinstance(nested, Mapping):
            lists = cast(Mapping[str, object], nested)
            out[key] = {k: lists[k] for k in kept if isinstance(lists.get(k), list)}
    if out.get("enabled") is True and not auto_allow:
        out[AUTO_ALLOW_KEY] = False
    return out


def _sandbox_entry(key: str, value: object) -> str:
    if isinstance(value, list):
        shown = ", ".join(str(v) for v in cast(list[object], value))
    else:
        shown = json.dumps(value) if isinstance(value, bool | int | float | None) else str(value)
    words = _SANDBOX_WORDS.get(key)
    return f"sandbox.{key} {shown}" + (f" ({words})" if words else "")
