"""The session's delegation tools: Agent and Skill, with the project's and user's files."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from hands.agent.subagents.catalog import AgentCatalog
from hands.agent.subagents.tool import AgentTool
from hands.core.tool import Tool


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
) -> DelegationTools:
    """Agent and Skill, with ``cwd``'s and the user's agent files and skills.

    Skill is left out of the pool (not enabled) when there is no skill. ``trusted``:
    whether the project's agent files and skills load (``None``: the trusted-workspaces
    file). ``window_tokens``: the model's context window, which
    sizes the skill listing.
    """
    from hands.tools.skill._skills import load_skills
    from hands.tools.skill.skill import SkillTool

    catalog = AgentCatalog.load(cwd=cwd, home=home, trusted=trusted)
    from hands.config.trust import is_trusted

    trusted = trusted if trusted is not None else is_trusted(cwd)
    skills = load_skills(cwd=cwd, home=home, trusted=trusted)
    overrides = model_overrides(settings) if settings is not None else {}
    return DelegationTools(
        tools=(
            AgentTool(catalog, model_overrides=overrides, trusted=trusted),
            SkillTool(skills, window_tokens=window_tokens),
        ),
        warnings=(*catalog.warnings, *skills.warnings),
    )
