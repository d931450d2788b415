"""``/memory``: the instruction files, and one of them opened in the user's editor.

The editor is ``$VISUAL``, else ``$EDITOR`` (a command line: ``code --wait`` works),
else the first of :data:`FALLBACK_EDITORS` on ``PATH``, named as such so the user knows
how to choose another. It runs in the REPL's terminal; the REPL comes back when it exits.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

if TYPE_CHECKING:
    from rich.console import Console

FALLBACK_EDITORS = ("nano", "vi")
"""Tried in order when neither ``$VISUAL`` nor ``$EDITOR`` is set."""


@dataclass(frozen=True, kw_only=True, slots=True)
class MemoryFile:
    """One instruction file ``/memory`` offers."""

    path: Path
    size: int | None
    """Characters in it; None when it does not exist yet."""
    where: str
    """``project`` or ``user``."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Editor:
    """The command that edits a file, and how it was chosen."""

    argv: tuple[str, ...]
    chosen: str
    """Where it came from (``from $EDITOR``), or that it is the fallback."""

    @property
    def shown(self) -> str:
        """The command and where it came from, for messages."""
        return f"{shlex.join(self.argv)} ({self.chosen})"


def memory_choices(cwd: Path, home: Path | None = None) -> list[MemoryFile]:
    """The files in use, then the project's and the user's file when they do not exist."""
    from hands.cli.repl_init import init_target, memory_files

    user_home = home if home is not None else Path.home()
    user_file = user_home / ".claude" / "CLAUDE.md"
    found = [
        MemoryFile(path=path, size=size, where=_where(path, cwd, user_home))
        for path, size in memory_files(cwd, home)
    ]
    used = {f.path for f in found}
    for path, where in ((init_target(cwd), "project"), (user_file, "user")):
        if path not in used and not path.exists():
            found.append(MemoryFile(path=path, size=None, where=where))
    return found


def find_editor(env: Mapping[str, str] | None = None) -> Editor | None:
    """``$VISUAL``, ``$EDITOR``, or a fallback on ``PATH``; None when there is none."""
    env = os.environ if env is None else env
    for name in ("VISUAL", "EDITOR"):
        value = env.get(name, "").strip()
        if value:
            try:
                argv = shlex.split(value)
            except ValueError:
                argv = [value]
            if argv:
                return Editor(argv=tuple(argv), chosen=f"from ${name}")
    for fallback in FALLBACK_EDITORS:
        found = shutil.which(fallback, path=env.get("PATH"))
        if found:
            chosen = "the fallback, as neither $VISUAL nor $EDITOR is set"
            return Editor(argv=(found,), chosen=chosen)
    return None


async def edit(path: Path, editor: Editor) -> str:
    """Run ``editor`` on ``path`` in this terminal; what happened, in one line."""
    before = _text(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        done = await anyio.to_thread.run_sync(
            lambda: subprocess.run([*editor.argv, str(path)], check=False)
        )
    except OSError as exc:
        return f"Cannot run {editor.shown}: {exc.strerror}"
    after = _text(path)
    if done.returncode != 0:
        return f"{editor.shown} exited with code {done.returncode}."
    if after is None:
        return f"{path} was not created."
    if after == before:
        return f"{path} is unchanged."
    return (
        f"Saved {path} ({len(after):,} characters). New sessions read it; this one keeps "
        "what it read at its start."
    )


async def open_in_editor(console: Console, path: Path) -> None:
    """Open ``path`` in the user's editor, saying which one and how it went."""
    from rich.text import Text

    editor = find_editor()
    if editor is None:
        console.print(
            Text(f"No editor found: set $VISUAL or $EDITOR, then edit {path}.", style="red")
        )
        return
    console.print(Text(f"Opening {path} in {editor.shown}…", style="dim"))
    console.print(Text(await edit(path, editor), style="dim"))


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _where(path: Path, cwd: Path, home: Path) -> str:
    return "user" if path.is_relative_to(home) and not path.is_relative_to(cwd) else "project"
