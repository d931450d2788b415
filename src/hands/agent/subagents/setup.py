"""The session's delegation tools: Agent and Skill, with the project's and user's files."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from hands.agent.subagents.catalog import AgentCatalog
from hands.agent.subagents.tool import AgentTool
from hands.core.tool import Tool

if TYPE_CHECKING:
    from hands.config.commands import CommandSet
    from hands.config.plugins import Plugin
    from hands.tools.skill import SkillSet


@dataclass(frozen=True, kw_only=True, slots=True)
class DelegationTools:
    """The tools to add to a session's pool, and a warning per file that was skipped."""

    tools: tuple[Tool[Any, Any], ...]
    warnings: tuple[str, ...]


def model_overrides(value: Callable[[str], Any]) -> dict[str, str]:
    """The settings' ``agentModels``: an alias (``haiku``) → ``PROVIDER:NAME``."""
    raw = value("agentModels")
    if not isinstance(raw, dict):
        return {}
    items = cast(Mapping[object, object], raw).items()
    return {str(k).lower(): v for k, v in items if isinstance(v, str) and v.strip()}


def delegation_tools(
    *,
    cwd: Path,
    home: Path | None = None,
    settings: Callable[[str], Any] | None = None,
    trusted: bool | None = None,
    window_tokens: int | None = None,
    plugins: Sequence[Plugin] = (),
) -> DelegationTools:
    """Agent and Skill, with ``cwd``'s and the user's agent files and skills.

    Skill is left out of the pool (not enabled) when there is no skill. ``trusted``:
    whether the project's agent files and skills load (``None``: the trusted-workspaces
    file). ``window_tokens``: the model's context window, which
    sizes the skill listing. ``plugins``: loaded plugins, whose agents, skills and
    commands join (as ``PLUGIN:NAME``).
    """
    from hands.config.commands import load_commands
    from hands.config.trust import is_trusted
    from hands.tools.skill import load_skills
    from hands.tools.skill.skill import SkillTool

    catalog = AgentCatalog.load(cwd=cwd, home=home, trusted=trusted)
    trusted = trusted if trusted is not None else is_trusted(cwd)
    commands = load_commands(cwd=cwd, home=home, trusted=trusted)
    skills = load_skills(cwd=cwd, home=home, trusted=trusted)
    if plugins:
        catalog, skills, commands = with_plugins(plugins, catalog, skills, commands)
    skills = with_commands(skills, commands)
    overrides = model_overrides(settings) if settings is not None else {}
    return DelegationTools(
        tools=(
            AgentTool(catalog, model_overrides=overrides, trusted=trusted),
            SkillTool(skills, window_tokens=window_tokens),
        ),
        warnings=(*catalog.warnings, *skills.warnings),
    )


def with_commands(skills: SkillSet, commands: CommandSet) -> SkillSet:
    """``skills`` and the custom commands the model may run (a skill wins a name).

    The model runs a command through the Skill tool (or the legacy SlashCommand), as
    Claude Code lets it; its ``!`` lines become requests to run them with the shell tool,
    so each is checked like any call of the model's.
    """
    from hands.config.commands import put_outputs, shell_lines
    from hands.tools.skill import Skill, SkillSet

    taken = {s.name for s in skills.skills}
    added = [
        Skill(
            name=c.name,
            description=c.description or f"the custom command /{c.name}",
            instructions=put_outputs(
                c.body, [f"(run `{line}` with the shell tool)" for line in shell_lines(c.body)]
            ),
            directory=c.path.parent,
            allowed_tools=c.allowed_tools,
        )
        for c in commands.commands
        if c.model_invocable and c.name not in taken
    ]
    return SkillSet(
        skills=tuple(sorted((*skills.skills, *added), key=lambda s: s.name)),
        warnings=(*skills.warnings, *commands.warnings),
    )


def with_plugins(
    plugins: Sequence[Plugin], catalog: AgentCatalog, skills: SkillSet, commands: CommandSet
) -> tuple[AgentCatalog, SkillSet, CommandSet]:
    """The catalog, skills and commands with those of ``plugins`` added (``PLUGIN:NAME``)."""
    import dataclasses

    from hands.agent.subagents.files import read_agent_files
    from hands.config.commands import CommandSet, read_command_dir
    from hands.tools.skill import SkillSet, read_skill_dir

    agents = [a for a in catalog.agents if a.scope != "builtin"]
    skill_list, command_list = list(skills.skills), list(commands.commands)
    warnings = [*catalog.warnings]
    skill_warnings, command_warnings = [*skills.warnings], [*commands.warnings]
    for plugin in plugins:
        files = sorted((plugin.root / "agents").rglob("*.md"))
        loaded = read_agent_files(files, scope="project", trusted=True)
        agents += [dataclasses.replace(a, name=plugin.prefix + a.name) for a in loaded.agents]
        warnings += loaded.warnings
        found, notes = read_skill_dir(plugin.root / "skills")
        skill_list += [dataclasses.replace(s, name=plugin.prefix + s.name) for s in found]
        skill_warnings += notes
        cmds, notes = read_command_dir(plugin.root / "commands", "project")
        command_list += [dataclasses.replace(c, name=plugin.prefix + c.name) for c in cmds]
        command_warnings += notes
    return (
        AgentCatalog(agents, warnings=tuple(warnings)),
        SkillSet(skills=tuple(skill_list), warnings=tuple(skill_warnings)),
        CommandSet(commands=tuple(command_list), warnings=tuple(command_warnings)),
    )
