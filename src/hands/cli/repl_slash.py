"""The REPL's slash commands that live in a module of their own, by name.

Each entry is ``(module, function)``; the function is ``async def run(repl, arg) -> bool``
and returns False when it leaves the command to the REPL's own handling (``/permissions``
with no argument shows the rules). Modules are imported when their command runs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Protocol, cast

if TYPE_CHECKING:
    from hands.cli.repl import Repl


class SlashCommand(Protocol):
    """A command's ``run``: True when it handled the command."""

    async def __call__(self, repl: Repl, arg: str, /) -> bool:
        """Run the command with what followed its name."""
        ...


MODULES: dict[str, str] = {
    "/context": "hands.cli.repl_context",
    "/export": "hands.cli.repl_export",
    "/tasks": "hands.cli.repl_tasks",
    "/bashes": "hands.cli.repl_tasks",
    "/todos": "hands.cli.repl_todos",
    "/hooks": "hands.cli.repl_hooks",
    "/add-dir": "hands.cli.repl_add_dir",
    "/plan": "hands.cli.repl_plan",
    "/permissions": "hands.cli.repl_permissions",
    "/doctor": "hands.cli.repl_doctor",
    "/agents": "hands.cli.repl_agents",
    "/vim": "hands.cli.repl_vim",
    "/output-style": "hands.cli.repl_output_style",
}


def find(name: str) -> SlashCommand | None:
    """The command called ``name`` (``/context``), or None when none of these has it."""
    module = MODULES.get(name)
    if module is None:
        return None
    return cast(SlashCommand, importlib.import_module(module).run)
