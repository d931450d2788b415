"""Claude Code plugins loaded from a directory (``--plugin-dir``).

A plugin is a folder with any of ``commands/*.md``, ``agents/*.md``,
``skills/*/SKILL.md``, ``hooks/hooks.json`` and ``.mcp.json``; its name is the ``name``
of ``.claude-plugin/plugin.json``, else the folder's name. A folder that is no plugin
itself but holds plugins loads each of them. A plugin's commands, agents and skills are
offered as ``PLUGIN:NAME``; ``${CLAUDE_PLUGIN_ROOT}`` in its hooks and servers is the
plugin's folder; its MCP servers are named ``plugin:PLUGIN:SERVER`` (their tools
``mcp__plugin_PLUGIN_SERVER__TOOL``), as Claude Code names them.

A plugin is project input: like a folder's own ``.claude`` files, it counts only in a
trusted workspace (:mod:`hands.config.trust`); otherwise nothing of it loads, runs or
connects.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from hands.errors import ConfigError

MANIFEST = Path(".claude-plugin") / "plugin.json"
PARTS = ("commands", "agents", "skills", "hooks", ".mcp.json")
"""What a folder holds to be a plugin (besides a manifest)."""
ROOT_VARIABLE = "${CLAUDE_PLUGIN_ROOT}"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


@dataclass(frozen=True, kw_only=True, slots=True)
class Plugin:
    """One plugin folder."""

    name: str
    root: Path
    version: str = ""
    manifest: Mapping[str, Any] | None = None
    servers: bool = True
    """Whether its MCP servers start (``--plugin-dir-no-mcp``: the caller runs them)."""

    @property
    def prefix(self) -> str:
        """What its commands, agents and skills are named with (``NAME:``)."""
        return f"{self.name}:"

    def facts(self) -> dict[str, str]:
        """``name``, ``path``, ``source`` and the manifest's ``version``.

        ``source`` is ``NAME@inline``: loaded from a folder, as Claude Code says it.
        """
        version = {"version": self.version} if self.version else {}
        return {
            "name": self.name,
            "path": str(self.root),
            "source": f"{self.name}@inline",
            **version,
        }

    def hooks(self) -> dict[str, Any]:
        """Its hooks (``hooks/hooks.json``'s ``hooks``, or the manifest's), root filled in."""
        raw: object = self.manifest.get("hooks") if self.manifest else None
        path = self.root / "hooks" / "hooks.json"
        if isinstance(raw, str):
            path = self.root / raw
        if not isinstance(raw, Mapping) and path.is_file():
            raw = _json(path).get("hooks")
        if not isinstance(raw, Mapping):
            return {}
        return cast(dict[str, Any], self._filled(cast(Mapping[str, Any], raw)))

    def mcp_servers(self) -> dict[str, object]:
        """Its MCP servers (``.mcp.json``, or the manifest's ``mcpServers``), by session name."""
        if not self.servers:
            return {}
        raw: object = self.manifest.get("mcpServers") if self.manifest else None
        path = self.root / ".mcp.json"
        if isinstance(raw, str):
            path = self.root / raw
        if not isinstance(raw, Mapping) and path.is_file():
            data = _json(path)
            raw = data.get("mcpServers", data)
        if not isinstance(raw, Mapping):
            return {}
        servers = cast(Mapping[str, object], self._filled(cast(Mapping[str, Any], raw)))
        return {f"plugin:{self.name}:{name}": entry for name, entry in servers.items()}

    def _filled(self, value: object) -> object:
        """``value`` with ``${CLAUDE_PLUGIN_ROOT}`` replaced by the plugin's folder."""
        return json.loads(json.dumps(value).replace(ROOT_VARIABLE, str(self.root)))


def _json(path: Path) -> dict[str, Any]:
    try:
        data: object = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"plugin file {path} cannot be read: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"plugin file {path} must hold a JSON object")
    return cast(dict[str, Any], data)


def _is_plugin(folder: Path) -> bool:
    return (folder / MANIFEST).is_file() or any((folder / part).exists() for part in PARTS)


def _plugin(folder: Path, servers: bool) -> Plugin:
    manifest = _json(folder / MANIFEST) if (folder / MANIFEST).is_file() else None
    name = str((manifest or {}).get("name") or folder.name)
    if not _NAME.match(name):
        raise ConfigError(f"plugin {folder}: {name!r} is not a usable plugin name")
    version = (manifest or {}).get("version")
    return Plugin(
        name=name,
        root=folder,
        version=version if isinstance(version, str) else "",
        manifest=manifest,
        servers=servers,
    )


def load_plugins(
    paths: Sequence[str | Path], *, cwd: Path, servers: bool = True
) -> tuple[Plugin, ...]:
    """The plugins of each folder named (relative ones from ``cwd``), in order.

    ``servers``: whether their MCP servers start.
    A folder that does not exist, or holds no plugin, is a :class:`ConfigError`, as is a
    plugin name given twice.
    """
    found: list[Plugin] = []
    for given in paths:
        folder = Path(given).expanduser()
        folder = (folder if folder.is_absolute() else cwd / folder).resolve()
        if not folder.is_dir():
            raise ConfigError(f"--plugin-dir {given}: no such directory")
        if _is_plugin(folder):
            found.append(_plugin(folder, servers))
            continue
        children = [c for c in sorted(folder.iterdir()) if c.is_dir() and _is_plugin(c)]
        if not children:
            raise ConfigError(
                f"--plugin-dir {given}: no plugin there (a plugin has .claude-plugin/plugin.json, "
                "commands/, agents/, skills/, hooks/ or .mcp.json)"
            )
        found.extend(_plugin(c, servers) for c in children)
    names = [p.name for p in found]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ConfigError(f"--plugin-dir: the plugin name {', '.join(twice)} is given twice")
    return tuple(found)
