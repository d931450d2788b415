"""``/agents``: the sub-agents there are; ``/agents new NAME`` and ``/agents edit NAME``.

Listed: the built-in agents, the user's (``~/.claude/agents``) and the project's
(``.claude/agents``), the last marked when the folder is not trusted (they are not
loaded then). ``new`` writes a file from a template and opens it in the editor
(``--user`` puts it in the user's folder); ``edit`` opens an agent's file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text

from hands.agent.subagents.builtin import BUILTIN_AGENTS
from hands.agent.subagents.files import agent_files, read_agent_files

if TYPE_CHECKING:
    from hands.cli.repl import Repl

USAGE = "/agents lists them; /agents new NAME [--user] creates one; /agents edit NAME opens it."
_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")
TEMPLATE = """\
---
name: {name}
description: When to use this agent, in one sentence (the model reads it to choose).
# tools: Read, Grep, Glob       (leave out to allow every tool)
# model: inherit
---
You are {name}. Say here what this agent does, how it works, and what it reports back.
"""


@dataclass(frozen=True, kw_only=True, slots=True)
class AgentLine:
    """One agent as listed."""

    name: str
    where: str
    """``built-in``, ``user`` or ``project``."""
    description: str
    path: Path | None
    loaded: bool


def agent_lines(*, cwd: Path, home: Path, trusted: bool) -> tuple[list[AgentLine], list[str]]:
    """Every agent definition and the files that could not be read."""
    lines = [
        AgentLine(name=a.name, where="built-in", description=a.description, path=None, loaded=True)
        for a in BUILTIN_AGENTS
    ]
    user = read_agent_files(agent_files(home), scope="user")
    project = read_agent_files(agent_files(cwd), scope="project") if cwd != home else None
    for found, where, loaded in ((user, "user", True), (project, "project", trusted)):
        if found is None:
            continue
        lines += [
            AgentLine(
                name=a.name, where=where, description=a.description, path=a.source, loaded=loaded
            )
            for a in found.agents
        ]
    warnings = [*user.warnings, *(project.warnings if project else ())]
    return lines, warnings


def new_agent_file(name: str, *, folder: Path) -> Path | str:
    """Write ``folder/.claude/agents/NAME.md`` from the template; its path, or why not."""
    if not _NAME.fullmatch(name):
        return f"{name!r} cannot name an agent: use lower-case letters, digits and hyphens."
    path = folder / ".claude" / "agents" / f"{name}.md"
    if path.exists():
        return f"{path} exists already; /agents edit {name} opens it."
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8") as f:
            f.write(TEMPLATE.format(name=name))
    except OSError as exc:
        return f"Cannot write {path}: {exc.strerror or exc}"
    return path


async def run(repl: Repl, arg: str) -> bool:
    """List, create or edit."""
    setup = repl.setup
    console = repl.console
    home = setup.settings.home
    words = arg.split()
    if not words:
        lines, warnings = agent_lines(cwd=setup.cwd, home=home, trusted=setup.settings.trusted)
        for warning in warnings:
            console.print(Text(f"warning: {warning}", style="yellow"))
        console.print(_render(lines))
        console.print(Text(USAGE, style="dim"))
        return True
    action, rest = words[0], words[1:]
    user = "--user" in rest
    names = [w for w in rest if w != "--user"]
    if action not in ("new", "edit") or len(names) != 1:
        console.print(Text(USAGE, style="red"))
        return True
    if action == "new":
        made = new_agent_file(names[0], folder=home if user else setup.cwd)
        if isinstance(made, str):
            console.print(Text(made, style="red"))
            return True
        console.print(Text(f"Wrote {made} from the template.", style="green"))
        await _open(repl, made)
        return True
    lines, _ = agent_lines(cwd=setup.cwd, home=home, trusted=setup.settings.trusted)
    found = [a.path for a in lines if a.name == names[0] and a.path is not None]
    if not found:
        console.print(Text(f"No agent file is called {names[0]}; /agents lists them.", style="red"))
        return True
    await _open(repl, found[-1])
    return True


def _render(lines: list[AgentLine]) -> Text:
    out = Text()
    for a in lines:
        out.append(f"{a.name}", style="bold" if a.loaded else "dim")
        out.append(f"  ({a.where})", style="dim")
        if not a.loaded:
            out.append("  not loaded: the folder is not trusted", style="yellow")
        out.append(f"\n    {a.description}\n", style="" if a.loaded else "dim")
    out.rstrip()
    return out


async def _open(repl: Repl, path: Path) -> None:
    from hands.cli.repl_memory import open_in_editor

    await open_in_editor(repl.console, path)
