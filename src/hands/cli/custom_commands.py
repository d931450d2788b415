"""``/name args`` typed in the REPL or given to ``-p``: a custom command or a skill.

A custom command (:mod:`hands.config.commands`) becomes the prompt its file stands for:
arguments filled in, each ``!`cmd``` run through the shell tool with the session's
permission checks plus the command's ``allowed-tools`` (in ``-p`` nobody can answer a
question, so a line no rule allows does not run, and its place says so). A skill typed
as ``/skill-name args`` sends its instructions as the prompt. ``@path`` mentions in the
result attach files, as typed ones do. The model sees only the expansion.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from hands.config.commands import CommandSet, CustomCommand, expand, fill_arguments
from hands.core.outcome import error_message

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from hands.agent.events import QueryEvent
    from hands.cli.session_setup import AgentSetup
    from hands.core.context import ToolContext
    from hands.core.decision import AskHandler
    from hands.tools.skill import Skill


@dataclass(frozen=True, kw_only=True, slots=True)
class Expansion:
    """What a typed ``/name args`` sends the model, and the model the turn runs on."""

    text: str
    model: str | None = None
    """The command's ``model`` (an alias or an id); None: the session's."""


def session_commands(setup: AgentSetup, *, home: Path | None = None) -> CommandSet:
    """The user's commands, and the project's when the folder is trusted."""
    from hands.config.commands import load_commands

    return load_commands(cwd=setup.cwd, home=home, trusted=setup.settings.trusted)


def session_skill(setup: AgentSetup, name: str) -> Skill | None:
    """The session's skill called ``name``, if the Skill tool offers one."""
    from hands.tools.skill.skill import SkillTool

    tool = setup.pool.find("Skill")
    return tool.skills.find(name) if isinstance(tool, SkillTool) else None


def session_skill_names(setup: AgentSetup, *, besides: CommandSet) -> list[str]:
    """The names of the session's skills (typed as ``/name``), but the commands'."""
    from hands.tools.skill.skill import SkillTool

    tool = setup.pool.find("Skill")
    if not isinstance(tool, SkillTool):
        return []
    return [s.name for s in tool.skills.skills if besides.find(s.name) is None]


def split_typed(text: str) -> tuple[str, str]:
    """``/name args`` → ``(name, args)``."""
    name, _, args = text.strip().removeprefix("/").partition(" ")
    return name, args.strip()


async def expand_typed(
    text: str,
    *,
    setup: AgentSetup,
    commands: CommandSet,
    ctx: ToolContext,
    ask: AskHandler | None,
    show: Callable[[QueryEvent], None] | None = None,
) -> Expansion | None:
    """The expansion of ``text`` (``/name args``); None when no command or skill has the name."""
    name, args = split_typed(text)
    command = commands.find(name)
    if command is not None:
        body = await expand(command, args, _runner(command, setup, ctx, ask, show))
        return Expansion(text=body, model=command.model)
    skill = session_skill(setup, name)
    if skill is not None:
        body = fill_arguments(skill.instructions, args)
        return Expansion(
            text=f"{body}\n\n(The skill {skill.name!r}; its folder, whose other files Read can "
            f"open: {skill.directory})"
        )
    return None


def _runner(
    command: CustomCommand,
    setup: AgentSetup,
    ctx: ToolContext,
    ask: AskHandler | None,
    show: Callable[[QueryEvent], None] | None,
) -> Callable[[str], Awaitable[str]]:
    from hands.cli.repl_shell import shell_call

    allowed = ctx.with_changes(turn_allow=(*ctx.turn_allow, *command.allowed_tools))
    count = [0]

    async def run(line: str) -> str:
        count[0] += 1
        outcome = await shell_call(
            line,
            setup=setup,
            ctx=allowed,
            ask=ask,
            call_id=f"command_{command.name}_{count[0]}",
            show=show,
        )
        if outcome is None:
            return f"(`{line}` was not run: no shell tool is in use)"
        if outcome.is_error:
            return f"(`{line}` did not run or failed: {error_message(outcome.block.text)})"
        return outcome.block.text.rstrip("\n")

    return run


def command_lines(commands: CommandSet) -> list[str]:
    """One line per custom command for ``/help``: usage, description and where it is from."""
    return [f"{c.usage()}  {c.description} ({c.scope})".rstrip() for c in commands.commands]
