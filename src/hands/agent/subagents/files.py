"""Custom agent types: Markdown files with YAML frontmatter, as Claude Code reads them.

``.claude/agents/*.md`` and ``.hands/agents/*.md`` in the project, the same under the
user's home; a project file wins over a user file of the same name. The frontmatter
says ``name``, ``description``, ``tools``, ``disallowedTools``, ``model``,
``permissionMode``, ``maxTurns``, ``mcpServers``, ``hooks``, ``initialPrompt``,
``isolation`` and ``background``; the body is the system prompt. Other keys are kept
by Claude Code for its own features and are ignored here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

import yaml

from hands.agent.subagents.definition import AgentDefinition
from hands.core.context import PERMISSION_MODES, PermissionMode

AGENT_DIRS = (Path(".claude") / "agents", Path(".hands") / "agents")
MAX_FILE_BYTES = 1_000_000


@dataclass(frozen=True, kw_only=True, slots=True)
class Loaded:
    """The agent types found, and a warning for each file that could not be used."""

    agents: tuple[AgentDefinition, ...]
    warnings: tuple[str, ...]


class _Bad(ValueError):
    """A file that is not a usable agent definition (the message says why)."""


def split_frontmatter(text: str) -> tuple[Mapping[str, Any], str] | None:
    """The frontmatter mapping and the body; ``None`` when the text has no frontmatter.

    Raises ``_Bad`` when the frontmatter is there but is not a YAML mapping.
    """
    text = text.removeprefix("\ufeff")
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        return None
    for end in range(1, len(lines)):
        if lines[end].strip() == "---":
            break
    else:
        raise _Bad("the frontmatter has no closing '---' line")
    try:
        data = yaml.safe_load("".join(lines[1:end]))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise _Bad(f"the frontmatter is not valid YAML{where}: {problem}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise _Bad("the frontmatter is not a mapping of keys to values")
    return cast(dict[str, Any], data), "".join(lines[end + 1 :])


def tool_names(value: object, key: str) -> tuple[str, ...]:
    """A ``tools`` value: a comma-separated string or a list of names."""
    if isinstance(value, str):
        items: Iterable[object] = value.split(",")
    elif isinstance(value, list):
        items = cast(list[object], value)
    else:
        raise _Bad(f"{key} must be a comma-separated string or a list of tool names")
    names = [str(item).strip() for item in items]
    return tuple(n for n in names if n)


def _text(data: Mapping[str, Any], key: str, *, required: bool = False) -> str:
    value = data.get(key)
    if value is None:
        if required:
            raise _Bad(f"the frontmatter has no {key!r}")
        return ""
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise _Bad(f"{key!r} must be text")
    text = str(value).strip()
    if required and not text:
        raise _Bad(f"{key!r} is empty")
    return text


def _mode(data: Mapping[str, Any]) -> PermissionMode | None:
    value = data.get("permissionMode")
    if value is None:
        return None
    if value not in PERMISSION_MODES:
        raise _Bad(f"permissionMode {value!r} is not one of {', '.join(PERMISSION_MODES)}")
    return value


def _turns(data: Mapping[str, Any]) -> int | None:
    value = data.get("maxTurns")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _Bad(f"maxTurns must be a whole number of at least 1, not {value!r}")
    return value


def _servers(data: Mapping[str, Any]) -> tuple[str, ...]:
    value = data.get("mcpServers")
    if value is None:
        return ()
    if isinstance(value, dict):
        return tuple(str(k) for k in cast(dict[object, object], value))
    return tool_names(value, "mcpServers")


def _isolation(data: Mapping[str, Any]) -> Literal["worktree"] | None:
    value = data.get("isolation")
    if value is None:
        return None
    if value != "worktree":
        raise _Bad(f"isolation {value!r} is not supported (only 'worktree')")
    return "worktree"


def parse_agent(
    path: Path, text: str, *, scope: Literal["user", "project"] = "project"
) -> AgentDefinition:
    """The agent a file defines; raises ``_Bad`` with the reason when it defines none."""
    split = split_frontmatter(text)
    if split is None:
        raise _Bad("it has no YAML frontmatter (a '---' block with name and description)")
    data, body = split
    name = _text(data, "name", required=True)
    if ":" in name:
        raise _Bad(f"the name {name!r} may not contain ':'")
    hooks: object = data.get("hooks") or {}
    if not isinstance(hooks, dict):
        raise _Bad("hooks must be a mapping of hook events")
    tools = data.get("tools")
    disallowed = data.get("disallowedTools")
    return AgentDefinition(
        name=name,
        description=_text(data, "description", required=True),
        system_prompt=body.strip(),
        tools=None if tools is None else tool_names(tools, "tools"),
        disallowed_tools=() if disallowed is None else tool_names(disallowed, "disallowedTools"),
        model=_text(data, "model") or "inherit",
        permission_mode=_mode(data),
        max_turns=_turns(data),
        mcp_servers=_servers(data),
        hooks=cast(dict[str, Any], hooks),  # checked by the hook engine when it runs them
        initial_prompt=_text(data, "initialPrompt"),
        isolation=_isolation(data),
        background=data.get("background") is True,
        source=path,
        scope=scope,
    )


def read_agent_files(
    paths: Iterable[Path], *, scope: Literal["user", "project"] = "project"
) -> Loaded:
    """Every agent the files define (later ones win a name); a warning per unusable file."""
    agents: dict[str, AgentDefinition] = {}
    warnings: list[str] = []
    for path in paths:
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                raise _Bad(f"it is larger than {MAX_FILE_BYTES:,} bytes")
            text = path.read_text(encoding="utf-8")
            agent = parse_agent(path, text, scope=scope)
        except (OSError, UnicodeDecodeError) as exc:
            warnings.append(f"agent file {path} cannot be read: {exc}")
            continue
        except _Bad as exc:
            warnings.append(f"agent file {path} was skipped: {exc}")
            continue
        agents[agent.name] = agent
    return Loaded(agents=tuple(agents.values()), warnings=tuple(warnings))


def agent_files(root: Path) -> list[Path]:
    """The ``*.md`` files under ``root``'s agent directories, ``.claude`` first."""
    found: list[Path] = []
    for sub in AGENT_DIRS:
        directory = root / sub
        if directory.is_dir():
            found += sorted(p for p in directory.rglob("*.md") if p.is_file())
    return found


def load_agents(*, cwd: Path, home: Path | None = None) -> Loaded:
    """The user's agents, then the project's (which win a name)."""
    user_home = home if home is not None else Path.home()
    user = read_agent_files(agent_files(user_home), scope="user")
    project = (
        read_agent_files(agent_files(cwd), scope="project")
        if cwd.resolve() != user_home.resolve()
        else Loaded(agents=(), warnings=())
    )
    merged = {a.name: a for a in (*user.agents, *project.agents)}
    return Loaded(agents=tuple(merged.values()), warnings=(*user.warnings, *project.warnings))
