"""``/add-dir PATH``: one more working directory for the rest of the session.

The effect is ``--add-dir``'s: the tools may read (and, as the mode allows, write) there,
the model is told of it, and MCP servers get it among their roots. The directory must
exist; ``~`` and paths relative to the working directory are understood.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text

if TYPE_CHECKING:
    from hands.cli.repl import Repl
    from hands.cli.session_setup import AgentSetup

USAGE = "/add-dir PATH: a directory the session may work in besides the working directory"


def directory_of(text: str, *, cwd: Path, home: Path) -> Path | str:
    """The directory ``text`` names, or why it cannot be added."""
    raw = text.strip()
    if not raw:
        return USAGE
    if raw == "~" or raw.startswith("~/"):
        raw = str(home) + raw[1:]
    path = Path(os.path.normpath(cwd / raw))
    if not path.exists():
        return f"{path} does not exist; nothing was added."
    if not path.is_dir():
        return f"{path} is not a directory; nothing was added."
    return path


def already(setup: AgentSetup, path: Path) -> bool:
    """Whether ``path`` is the working directory, or inside one already."""
    for d in (setup.cwd, *setup.settings.additional_directories):
        if path == d or path.is_relative_to(d):
            return True
    return False


async def add_directory(setup: AgentSetup, path: Path) -> None:
    """Make ``path`` a working directory of the session from the next call on."""
    harness = setup.harness
    dirs = (*harness.settings.additional_directories, path)
    harness.settings = dataclasses.replace(harness.settings, additional_directories=dirs)
    harness.context = harness.context.with_changes(additional_dirs=dirs)
    setup.system_prompt = setup.system_prompt.replace(
        "\n</env>", f"\nAdditional working directory: {path}\n</env>", 1
    )
    await setup.mcp.set_roots([setup.cwd, *dirs])


async def run(repl: Repl, arg: str) -> bool:
    """Add the directory named, or say in one line why not."""
    setup = repl.setup
    found = directory_of(arg, cwd=setup.cwd, home=setup.settings.home)
    if isinstance(found, str):
        repl.console.print(Text(found, style="red"))
        return True
    if already(setup, found):
        repl.console.print(Text(f"{found} is already a working directory.", style="dim"))
        return True
    await add_directory(setup, found)
    repl.console.print(Text(f"Added {found} as a working directory.", style="green"))
    return True
