"""Project input: everything a folder supplies that trusting it would enable.

A folder (and its parents up to its git root) can ship settings files (both
``settings.json`` and ``settings.local.json``: a repository can commit either),
``.mcp.json`` files (in parents too), agent files, skills and custom commands. Until the
workspace is trusted none of it runs, starts a server or loosens anything; deny and ask rules apply
either way. :func:`project_items` lists what would be enabled, one
:class:`ProjectItem` per hook, server, variable, rule, setting, agent, skill or
scheduled prompt (``.claude/scheduled_tasks.json``), for the
trust question and for the one-line notes of front ends that never ask.

This module reads the files itself (it is below the layers that use them): the agent
and skill folders named here are the ones those layers load.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from hands.config.frontmatter import FrontmatterError, name_list, split_frontmatter

AGENT_DIRS = (Path(".claude") / "agents", Path(".hands") / "agents")
"""Where agent files live, under a project or the user's home."""
SKILL_DIRS = (Path(".claude") / "skills", Path(".hands") / "skills")
"""Where skill folders (each with a ``SKILL.md``) live."""
SKILL_FILE = "SKILL.md"
COMMAND_DIRS = (Path(".claude") / "commands", Path(".hands") / "commands")
"""Where custom slash command files live, under a project or the user's home."""
MCP_FILE = ".mcp.json"
MAX_MARKDOWN_BYTES = 1_000_000

ItemKind = Literal[
    "hook", "env", "mcp server", "mcp approval", "allow rule", "directory", "mode",
    "setting", "agent", "skill", "command", "scheduled prompt",
]  # fmt: skip


@dataclass(frozen=True, kw_only=True, slots=True)
class ProjectItem:
    """One thing the folder supplies that waits for trust."""

    kind: ItemKind
    source: str
    """The file it comes from."""
    detail: str
    """What it runs, reaches or changes (a command, a rule, a tool list)."""

    def line(self) -> str:
        """``kind detail (source)``, for lists and one-line notes."""
        return f"{self.kind} {self.detail} ({self.source})"


def project_items(cwd: Path, *, home: Path) -> tuple[ProjectItem, ...]:
    """Everything the folder ``cwd`` supplies that trust would enable.

    ``home``: the user's home; its own files there are the user's, not project input.
    Raises :class:`~hands.config.settings_error.SettingsFileError` for a settings file
    that cannot be used (as loading the settings would).
    """
    start = Path(cwd).absolute()
    items: list[ProjectItem] = [*_settings_items(start)]
    items.extend(_mcp_items(start))
    if start.resolve() != home.resolve():
        items.extend(_agent_items(start))
        items.extend(_skill_items(start))
        items.extend(_command_items(start, home))
        items.extend(_scheduled_items(start))
    return tuple(items)


def _scheduled_items(start: Path) -> list[ProjectItem]:
    """Durable cron jobs in ``.claude/scheduled_tasks.json``: prompts run as user turns."""
    path = start / ".claude" / "scheduled_tasks.json"
    try:
        data: object = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError):
        return [ProjectItem(kind="scheduled prompt", source=str(path), detail="(unreadable file)")]
    tasks = cast(dict[str, Any], data).get("tasks") if isinstance(data, dict) else None
    out: list[ProjectItem] = []
    for task in cast(list[object], tasks) if isinstance(tasks, list) else []:
        entry = cast(dict[str, Any], task) if isinstance(task, dict) else {}
        prompt = str(entry.get("prompt", ""))
        prompt = prompt if len(prompt) <= 60 else prompt[:59] + "…"
        out.append(
            ProjectItem(
                kind="scheduled prompt", source=str(path), detail=f"{entry.get('cron')}: {prompt}"
            )
        )
    return out


def _command_items(start: Path, home: Path) -> list[ProjectItem]:
    """The folder's custom slash commands: their ``!`` lines run shell commands."""
    if not any((start / sub).is_dir() for sub in COMMAND_DIRS):
        return []  # no project command can exist: the command reader is not even loaded
    from hands.config.commands import load_commands

    found = load_commands(cwd=start, home=home, trusted=True).commands
    return [
        ProjectItem(
            kind="command",
            source=str(c.path),
            detail=f"/{c.name}"
            + (f" (allowed: {', '.join(c.allowed_tools)})" if c.allowed_tools else ""),
        )
        for c in found
        if c.scope == "project"
    ]


def _settings_items(start: Path) -> list[ProjectItem]:
    from hands.config.settings import load_settings

    only_project = {"HANDS_MANAGED_SETTINGS": "", "HOME": str(start / ".no-home")}
    loaded = load_settings(start, env=only_project, trusted=False)
    out: list[ProjectItem] = []
    for f in loaded.untrusted:
        src = f.label
        out.extend(ProjectItem(kind="hook", source=src, detail=h) for h in f.hooks)
        out.extend(ProjectItem(kind="env", source=src, detail=e) for e in f.env)
        out.extend(ProjectItem(kind="mcp approval", source=src, detail=n) for n in f.mcp_servers)
        out.extend(ProjectItem(kind="allow rule", source=src, detail=r) for r in f.allow)
        out.extend(ProjectItem(kind="directory", source=src, detail=d) for d in f.directories)
        if f.mode:
            out.append(ProjectItem(kind="mode", source=src, detail=f.mode))
        out.extend(ProjectItem(kind="setting", source=src, detail=e) for e in f.loosens)
    return out


def mcp_files(start: Path) -> list[Path]:
    """Every ``.mcp.json`` from ``start`` up to the filesystem root, the nearest first."""
    return [d / MCP_FILE for d in (start, *start.parents) if (d / MCP_FILE).is_file()]


def _mcp_items(start: Path) -> list[ProjectItem]:
    out: list[ProjectItem] = []
    for path in mcp_files(start):
        try:
            data: object = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            out.append(ProjectItem(kind="mcp server", source=str(path), detail="(unreadable file)"))
            continue
        servers = cast(dict[str, Any], data).get("mcpServers") if isinstance(data, dict) else None
        if not isinstance(servers, Mapping):
            continue
        for name, entry in cast(Mapping[object, object], servers).items():
            out.append(
                ProjectItem(kind="mcp server", source=str(path), detail=_server(name, entry))
            )
    return out


def _server(name: object, entry: object) -> str:
    if not isinstance(entry, Mapping):
        return f"{name}"
    raw = cast(Mapping[str, object], entry)
    if isinstance(raw.get("url"), str):
        return f"{name}: {raw['url']}"
    args = raw.get("args")
    words = [str(raw.get("command", ""))]
    if isinstance(args, list):
        words.extend(str(a) for a in cast(list[object], args))
    return f"{name}: {' '.join(words).strip()}"


def markdown_files(root: Path, dirs: tuple[Path, ...], pattern: str) -> list[Path]:
    """The files matching ``pattern`` under each of ``root``'s ``dirs``, sorted per dir."""
    found: list[Path] = []
    for sub in dirs:
        directory = root / sub
        if directory.is_dir():
            found += sorted(p for p in directory.glob(pattern) if p.is_file())
    return found


def _agent_items(start: Path) -> list[ProjectItem]:
    out: list[ProjectItem] = []
    for path in markdown_files(start, AGENT_DIRS, "**/*.md"):
        data = _frontmatter(path)
        name = str(data.get("name") or path.stem)
        extra = [_tools("tools", data.get("tools"), default="every tool")]
        if data.get("hooks"):
            extra.append("with hooks")
        if data.get("mcpServers"):
            extra.append("with MCP servers")
        out.append(
            ProjectItem(kind="agent", source=str(path), detail=f"{name} ({', '.join(extra)})")
        )
    return out


def _skill_items(start: Path) -> list[ProjectItem]:
    out: list[ProjectItem] = []
    for path in markdown_files(start, SKILL_DIRS, f"*/{SKILL_FILE}"):
        data = _frontmatter(path)
        name = str(data.get("name") or path.parent.name)
        tools = _tools("allowed-tools", data.get("allowed-tools"), default="no extra tools")
        out.append(ProjectItem(kind="skill", source=str(path), detail=f"{name} ({tools})"))
    return out


def _frontmatter(path: Path) -> Mapping[str, Any]:
    try:
        if path.stat().st_size > MAX_MARKDOWN_BYTES:
            return {}
        split = split_frontmatter(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, FrontmatterError):
        return {}
    return split[0] if split is not None else {}


def _tools(key: str, value: object, *, default: str) -> str:
    if value is None:
        return default
    try:
        return f"{key}: {', '.join(name_list(value, key)) or '(none)'}"
    except FrontmatterError:
        return f"{key}: (unreadable)"
