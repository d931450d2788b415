"""MCP tool lists cached on disk, so a server whose tools are all deferred need not start.

Each server's last ``tools/list`` is kept under ``<hands home>/mcp-tools/`` in a file
named after the server and a hash of its configuration (command, arguments,
environment, URL, headers, working directory). A changed configuration hashes
differently, so its old list is never used (and is removed when the new one is saved);
a server that fails to start has its list removed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from hands.mcp.naming import normalize

if TYPE_CHECKING:
    from hands.mcp.config import McpServerConfig
    from hands.mcp.tools import McpToolDef

CACHE_VERSION = 1


def config_key(config: McpServerConfig) -> str:
    """A hash of everything that decides which server (and so which tools) runs."""
    identity = {
        "name": config.name,
        "transport": config.transport,
        "command": config.command,
        "args": list(config.args),
        "env": dict(sorted(config.env.items())),
        "url": config.url,
        "headers": dict(sorted(config.headers.items())),
        "cwd": str(config.cwd) if config.cwd is not None else "",
        "always_load": config.always_load,
    }
    text = json.dumps(identity, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


class ToolListCache:
    """Per-server tool lists under ``directory`` (default ``<hands home>/mcp-tools``)."""

    def __init__(self, directory: Path | None = None) -> None:
        if directory is None:
            from hands.core.limits import hands_home

            directory = hands_home() / "mcp-tools"
        self.directory = directory

    def path(self, config: McpServerConfig) -> Path:
        """The file holding ``config``'s tool list."""
        return self.directory / f"{normalize(config.name)}-{config_key(config)}.json"

    def load(self, config: McpServerConfig) -> list[McpToolDef] | None:
        """The cached tools of ``config``, or None (no entry, unreadable, other version)."""
        from hands.mcp.tools import McpToolDef

        try:
            data: Any = json.loads(self.path(config).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, Mapping):
            return None
        entry = cast(Mapping[str, Any], data)
        if entry.get("version") != CACHE_VERSION or not isinstance(entry.get("tools"), list):
            return None
        out: list[McpToolDef] = []
        for raw in cast(list[Any], entry["tools"]):
            if not isinstance(raw, Mapping):
                return None
            item = cast(Mapping[str, Any], raw)
            name = item.get("name")
            if not isinstance(name, str):
                return None
            out.append(
                McpToolDef(
                    name=name,
                    description=str(item.get("description") or ""),
                    title=str(item.get("title") or ""),
                    input_schema=dict(item.get("input_schema") or {"type": "object"}),
                    annotations=dict(item.get("annotations") or {}),
                    meta=dict(item.get("meta") or {}),
                )
            )
        return out

    def store(self, config: McpServerConfig, tools: Sequence[McpToolDef]) -> None:
        """Save ``tools`` for ``config`` (and drop lists of this server's old configs)."""
        target = self.path(config)
        payload = {
            "version": CACHE_VERSION,
            "server": config.name,
            "tools": [
                {
                    "name": t.name,
                    "description": t.description,
                    "title": t.title,
                    "input_schema": dict(t.input_schema),
                    "annotations": dict(t.annotations),
                    "meta": dict(t.meta),
                }
                for t in tools
            ],
        }
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            temp = target.with_suffix(f".{os.getpid()}.tmp")
            temp.write_text(json.dumps(payload, ensure_ascii=False, default=str), "utf-8")
            temp.replace(target)
        except OSError:
            return
        self._drop_others(config, keep=target)

    def invalidate(self, config: McpServerConfig) -> None:
        """Forget ``config``'s tool list (its server failed to start)."""
        with contextlib.suppress(OSError):
            self.path(config).unlink()

    def _drop_others(self, config: McpServerConfig, *, keep: Path) -> None:
        prefix = f"{normalize(config.name)}-"
        with contextlib.suppress(OSError):
            for path in self.directory.glob(f"{prefix}*.json"):
                rest = path.name[len(prefix) : -len(".json")]
                if path != keep and len(rest) == 24 and "-" not in rest:
                    with contextlib.suppress(OSError):
                        path.unlink()
