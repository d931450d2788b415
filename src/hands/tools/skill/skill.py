"""Skill: load a skill's instructions (and its folder) into the conversation.

Only the skills' names and descriptions are in the tool's description, within a
character budget: 1% of the model's context window at four characters a token (8,000
for a 200k-token window, and when the window is not known); ``HANDS_SKILL_CHAR_BUDGET``
(or Claude Code's ``SLASH_COMMAND_TOOL_CHAR_BUDGET``) overrides it. Invoking one returns its
instructions and its folder, so the model can Read the skill's other files. The
instructions arrive as the call's result, one ``<skill>`` block the model follows (Claude
Code sends them as a separate user message after the result; one block keeps them with
the call that asked for them). ``args`` fill the body's ``$ARGUMENTS``, ``$ARGUMENTS[N]``
and ``$N``; a body without them gets the arguments after it. The call
is checked against ``Skill(name)`` and ``Skill(name args*)`` rules (asked for
otherwise); the skill's ``allowed-tools`` are then allowed while it is active: until the
running query ends (the next user prompt starts without them), in the agent that invoked
it only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from pydantic import AliasChoices, Field, model_validator

from hands.config.arguments import substitute
from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.subject import names_value
from hands.core.tool import Progress, Tool, ToolResult
from hands.errors import ToolError
from hands.tools.skill._loaded import LoadedSkills
from hands.tools.skill._skills import Skill, SkillSet, listing, load_skills

DEFAULT_BUDGET = 8_000


class SkillInput(ToolInput):
    """Input of Skill (and of the legacy SlashCommand: ``{"command": "/name args"}``)."""

    skill: str = Field(
        # ``command``: the field's name in the older shape, which models still send
        validation_alias=AliasChoices("skill", "command"),
        description="The skill's name, as listed (no leading slash)",
    )
    args: str | None = Field(default=None, description="Arguments for the skill, if it takes any")

    @model_validator(mode="before")
    @classmethod
    def _split_typed(cls, data: object) -> object:
        # SlashCommand's shape: the whole typed line, "/name args", in one field
        if not isinstance(data, dict):
            return data
        fields = cast(dict[str, Any], data)
        if fields.get("args") is not None:
            return fields
        key = "skill" if "skill" in fields else "command"
        typed = fields.get(key)
        if isinstance(typed, str) and typed.strip().startswith("/") and " " in typed.strip():
            name, _, args = typed.strip().partition(" ")
            return {**fields, key: name, "args": args.strip()}
        return fields


@dataclass(frozen=True, kw_only=True, slots=True)
class SkillOutput:
    """The invoked skill's instructions and where its files are."""

    name: str
    directory: str
    instructions: str
    args: str = ""
    """The arguments, when the instructions did not take them in (shown after them)."""
    allowed_tools: tuple[str, ...] = ()


BUDGET_SHARE = 0.01
CHARS_PER_TOKEN = 4


def budget(env: Mapping[str, str] | None = None, *, window_tokens: int | None = None) -> int:
    """The listing's size in characters: the environment's, else 1% of the window.

    ``window_tokens`` is the model's context window; unknown: 8,000 characters.
    """
    from hands.core.env import count

    chars = count("HANDS_SKILL_CHAR_BUDGET", env)
    if chars is not None:
        return chars
    if window_tokens is None or window_tokens <= 0:
        return DEFAULT_BUDGET
    return max(1, int(window_tokens * BUDGET_SHARE * CHARS_PER_TOKEN))


class SkillTool(Tool[SkillInput, SkillOutput]):
    """Invoke one of the session's skills."""

    name = "Skill"
    aliases = ("SlashCommand",)
    session_states = (LoadedSkills,)
    in_background_agents = True
    input_model = SkillInput
    subject = names_value("skill", strip_slash=True, args_field="args")
    asks_when_read_only = True

    def __init__(
        self,
        skills: SkillSet | None = None,
        *,
        char_budget: int | None = None,
        window_tokens: int | None = None,
    ) -> None:
        self.skills = skills if skills is not None else SkillSet()
        chars = char_budget or budget(window_tokens=window_tokens)
        listed = listing(self.skills, chars) or "(no skills are installed)"
        self.description = (
            "Load a skill: instructions for a kind of task, with files beside them. When a "
            "task matches a skill below, invoke it first and follow what it says; its "
            "folder's other files can be read with Read. Skills:\n" + listed
        )

    @classmethod
    def load(cls, *, cwd: Path, home: Path | None = None, trusted: bool = False) -> SkillTool:
        """The skills of the user, and of the project in ``cwd`` when ``trusted``."""
        return cls(load_skills(cwd=cwd, home=home, trusted=trusted))

    def is_enabled(self) -> bool:
        return bool(self.skills.skills)

    def is_read_only(self, input: SkillInput) -> bool:
        return True

    def is_concurrency_safe(self, input: SkillInput) -> bool:
        return False  # it may change which calls are allowed next

    async def validate_input(self, input: SkillInput, ctx: ToolContext) -> str | None:
        if self.skills.find(input.skill) is None:
            names = ", ".join(s.name for s in self.skills.skills) or "(none)"
            return f"There is no skill {input.skill!r}. Skills: {names}."
        return None

    async def call(
        self, input: SkillInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[SkillOutput]:
        skill = self.skills.find(input.skill)
        if skill is None:
            raise ToolError(f"There is no skill {input.skill!r}.")
        ctx.session.service(LoadedSkills).add(skill.name, str(skill.directory))
        args = input.args or ""
        instructions, took_args = substitute(skill.instructions, args)
        return ToolResult(
            output=SkillOutput(
                name=skill.name,
                directory=str(skill.directory),
                instructions=instructions,
                args="" if took_args else args,
                allowed_tools=skill.allowed_tools,
            ),
            context_modifier=_allow_while_active(skill) if skill.allowed_tools else None,
        )

    def to_content(self, output: SkillOutput) -> str:
        parts = [
            f'<skill name="{output.name}">',
            f"The skill's folder, whose other files Read can open: {output.directory}",
            output.instructions or "(the skill has no instructions)",
        ]
        if output.args:
            parts.append(f"The arguments it was invoked with: {output.args}")
        if output.allowed_tools:
            allowed = ", ".join(output.allowed_tools)
            parts.append(f"Allowed without asking while it is active: {allowed}")
        parts.append("</skill>")
        return "\n\n".join(parts)


def _allow_while_active(skill: Skill) -> Callable[[ToolContext], ToolContext]:
    """Add the skill's ``allowed-tools`` to the query's ``turn_allow`` rules."""

    def allow(ctx: ToolContext) -> ToolContext:
        added = tuple(t for t in skill.allowed_tools if t not in ctx.turn_allow)
        return ctx.with_changes(turn_allow=(*ctx.turn_allow, *added))

    return allow
