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

from hands.agent.subagents.definition import AgentDefinition
from hands.agent.subagents.servers import ServerSpec
from hands.config.frontmatter import FrontmatterError, name_list, split_frontmatter, text_field
from hands.config.project_input import AGENT_DIRS
from hands.core.context import PERMISSION_MODES, PermissionMode

MAX_FILE_BYTES = 1_000_000


@dataclass(frozen=True, kw_only=True, slots=True)
class Loaded:
    """The agent types found, and a warning for each file that could not be used."""

    agents: tuple[AgentDefinition, ...]
    warnings: tuple[str, ...]


def _mode(data: Mapping[str, Any]) -> PermissionMode | None:
    value = data.get("permissionMode")
    if value is None:
        return None
    if value not in PERMISSION_MODES:
        modes = ", ".join(PERMISSION_MODES)
        raise FrontmatterError(f"permissionMode {value!r} is not one of {modes}")
    return value


def _turns(data: Mapping[str, Any]) -> int | None:
    value = data.get("maxTurns")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise FrontmatterError(f"maxTurns must be a whole number of at least 1, not {value!r}")
    return value


def _servers(data: Mapping[str, Any]) -> tuple[ServerSpec, ...]:
    """Names of configured servers, or ``{name: config}`` entries (a list or one mapping)."""
    value = data.get("mcpServers")
    if value is None:
        return ()
    if isinstance(value, dict):
        items = cast(dict[object, object], value).items()
        return tuple({str(k): v} for k, v in items)
    if isinstance(value, str):
        return name_list(value, "mcpServers")
    if not isinstance(value, list):
        raise FrontmatterError("mcpServers must be a list of server names or {name: config}")
    out: list[ServerSpec] = []
    for item in cast(list[object], value):
        if isinstance(item, dict) and item:
            out.extend({str(k): v} for k, v in cast(dict[object, object], item).items())
        elif isinstance(item, str) and item.strip():
            out.append(item.strip())
        else:
            raise FrontmatterError(f"mcpServers entry {item!r} is neither a name nor a config")
    return tuple(out)


def _isolation(data: Mapping[str, Any]) -> Literal["worktree"] | None:
    value = data.get("isolation")
    if value is None:
        return None
    if value != "worktree":
        raise FrontmatterError(f"isolation {value!r} is not supported (only 'worktree')")
    return "worktree"


def parse_agent(
    path: Path, text: str, *, scope: Literal["user", "project"] = "project", trusted: bool = True
) -> AgentDefinition:
    """The agent a file defines; FrontmatterError, saying why, when it defines none."""
    split = split_frontmatter(text)
    if split is None:
        raise FrontmatterError(
            "it has no YAML frontmatter (a '---' block with name and description)"
        )
    data, body = split
    name = text_field(data, "name", required=True)
    if ":" in name:
        raise FrontmatterError(f"the name {name!r} may not contain ':'")
    hooks: object = data.get("hooks") or {}
    if not isinstance(hooks, dict):
        raise FrontmatterError("hooks must be a mapping of hook events")
    tools = data.get("tools")
    disallowed = data.get("disallowedTools")
    return AgentDefinition(
        name=name,
        description=text_field(data, "description", required=True),
        system_prompt=body.strip(),
        tools=None if tools is None else name_list(tools, "tools"),
        disallowed_tools=() if disallowed is None else name_list(disallowed, "disallowedTools"),
        model=text_field(data, "model") or "inherit",
        permission_mode=_mode(data),
        max_turns=_turns(data),
        mcp_servers=_servers(data),
        hooks=cast(dict[str, Any], hooks),  # checked by the hook engine when it runs them
        initial_prompt=text_field(data, "initialPrompt"),
        isolation=_isolation(data),
        background=data.get("background") is True,
        source=path,
        scope=scope,
        trusted=trusted,
    )


def read_agent_files(
    paths: Iterable[Path], *, scope: Literal["user", "project"] = "project", trusted: bool = True
) -> Loaded:
    """Every agent the files define (later ones win a name); a warning per unusable file."""
    agents: dict[str, AgentDefinition] = {}
    warnings: list[str] = []
    for path in paths:
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                raise FrontmatterError(f"it is larger than {MAX_FILE_BYTES:,} bytes")
            text = path.read_text(encoding="utf-8")
            agent = parse_agent(path, text, scope=scope, trusted=trusted)
        except (OSError, UnicodeDecodeError) as exc:
            warnings.append(f"agent file {path} cannot be read: {exc}")
            continue
        except FrontmatterError as exc:
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


def load_agents(*, cwd: Path, home: Path | None = None, trusted: bool | None = None) -> Loaded:
    """The user's agents, then the project's.

    ``trusted``: whether the workspace is trusted; ``None`` follows the trusted-workspaces
    file of :mod:`hands.config.trust`. An untrusted project's agent files are project
    input and are not loaded. A project agent never replaces a user's or a built-in one
    of the same name: :class:`~hands.agent.subagents.catalog.AgentCatalog` gives it a
    name of its own.
    """
    from hands.config.trust import is_trusted

    user_home = home if home is not None else Path.home()
    user = read_agent_files(agent_files(user_home), scope="user")
    project_trusted = trusted if trusted is not None else is_trusted(cwd)
    project = (
        read_agent_files(agent_files(cwd), scope="project", trusted=True)
        if project_trusted and cwd.resolve() != user_home.resolve()
        else Loaded(agents=(), warnings=())
    )
    return Loaded(
        agents=(*user.agents, *project.agents), warnings=(*user.warnings, *project.warnings)
    )
