"""LS: a directory's files and folders as an indented tree (an older tool models still call).

Today's models find files with Glob and look into folders with Bash ``ls``; models trained
on the first releases of Claude Code call ``LS``, so it is served: a breadth-first walk,
hidden entries (version-control folders among them) left out, ``ignore`` globs honoured, Read deny
rules applied, at most :data:`MAX_ENTRIES` entries.
"""

from __future__ import annotations

import os
import stat
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pydantic import Field

from hands.core.context import ToolContext
from hands.core.outcome import echo
from hands.core.schema import ToolInput
from hands.core.subject import reads_path
from hands.core.tool import Progress, ReadOnlyTool, ToolResult
from hands.tools.search._common import optional_path, unusable_text_error
from hands.tools.search._deny import read_deny_seam

MAX_ENTRIES = 1_000
"""Entries listed by one call; a larger tree is cut short and says so."""


class LSInput(ToolInput):
    """Input of LS."""

    path: str = Field(description="The directory to list (absolute, or relative to the cwd)")
    ignore: list[str] | None = Field(
        default=None, description="Glob patterns of names to leave out ('*.log', 'build/')"
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class LSOutput:
    """The listed tree, one line per entry, and whether it was cut short."""

    root: str
    lines: tuple[str, ...]
    truncated: bool


def _ignored(patterns: list[str] | None) -> Callable[[str], bool]:
    if not patterns:
        return lambda _relative: False
    from pathspec import GitIgnoreSpec

    return GitIgnoreSpec.from_lines(patterns).match_file


def walk(root: Path, *, skip: Callable[[Path, str], bool]) -> tuple[list[str], bool]:
    """The tree under ``root``, breadth first, in lines indented two spaces per level.

    ``skip(path, relative)`` leaves an entry (and what is under it) out. Children are
    printed under their parent although the walk reads the tree level by level, so a cut
    at :data:`MAX_ENTRIES` keeps the shallow part of a deep tree.
    """
    children: dict[Path, list[tuple[Path, bool]]] = {}
    queue: deque[Path] = deque([root])
    count = 0
    truncated = False
    while queue and not truncated:
        folder = queue.popleft()
        try:
            with os.scandir(folder) as entries:
                found = sorted(entries, key=lambda e: e.name)
        except OSError:
            continue
        kept: list[tuple[Path, bool]] = []
        for entry in found:
            path = Path(entry.path)
            relative = path.relative_to(root).as_posix()
            is_dir = entry.is_dir(follow_symlinks=False)
            if entry.name.startswith(".") or skip(path, relative + ("/" if is_dir else "")):
                continue
            if count >= MAX_ENTRIES:
                truncated = True
                break
            count += 1
            kept.append((path, is_dir))
            if is_dir:
                queue.append(path)
        children[folder] = kept
    lines: list[str] = []
    stack = [(path, is_dir, 1) for path, is_dir in reversed(children.get(root, []))]
    while stack:  # depth first for printing, without recursion (a tree may be deep)
        path, is_dir, depth = stack.pop()
        lines.append(f"{'  ' * depth}- {path.name}{'/' if is_dir else ''}")
        if is_dir:
            stack.extend((p, d, depth + 1) for p, d in reversed(children.get(path, [])))
    return lines, truncated


class LSTool(ReadOnlyTool[LSInput, LSOutput]):
    """List a directory as a tree."""

    name = "LS"
    aliases = ("LSTool",)
    in_background_agents = True
    subject = reads_path("path")
    description = (
        "List the files and folders under a directory as an indented tree (hidden entries "
        "left out; at most 1,000 entries). `ignore` takes glob "
        "patterns of names to leave out. To find files by name, Glob is usually better."
    )
    input_model = LSInput
    should_defer = True
    search_hint = "list directory contents tree"

    def is_enabled(self) -> bool:
        return False  # never offered; a call is still served beside Glob (its registry row)

    def _root(self, input: LSInput, ctx: ToolContext) -> Path:
        given = optional_path(input.path)
        return Path(os.path.normpath(ctx.resolve(given) if given is not None else ctx.cwd))

    async def validate_input(self, input: LSInput, ctx: ToolContext) -> str | None:
        problem = unusable_text_error(path=input.path)
        if problem:
            return problem
        root = self._root(input, ctx)
        try:
            mode = root.stat().st_mode
        except (FileNotFoundError, NotADirectoryError):
            return f"No directory at {echo(root)} (the working directory is {ctx.cwd})."
        except OSError as exc:  # a name too long, a symlink loop, no permission
            return f"Cannot list {echo(root)}: {exc.strerror or exc}. Give a directory that exists."
        if not stat.S_ISDIR(mode):
            return f"{echo(root)} is a file, not a directory; Read it, or list its folder."
        return None

    async def call(
        self, input: LSInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[LSOutput]:
        root = self._root(input, ctx)
        ignored = _ignored(input.ignore)
        seam = read_deny_seam(ctx)

        def skip(path: Path, relative: str) -> bool:
            if ignored(relative):
                return True
            return bool(seam) and seam.is_denied(path, default_root=ctx.root)

        lines, truncated = walk(root, skip=skip)
        return ToolResult(output=LSOutput(root=str(root), lines=tuple(lines), truncated=truncated))

    def to_content(self, output: LSOutput) -> str:
        head = f"- {output.root.rstrip('/')}/"
        if not output.lines:
            return f"{head}\n  (empty: no entries besides hidden ones)"
        text = "\n".join((head, *output.lines))
        if output.truncated:
            text += (
                f"\n(The listing stops at {MAX_ENTRIES:,} entries; list a subfolder, or use "
                "Glob with a pattern, to see the rest.)"
            )
        return text

    def describe_input(self, input: LSInput) -> str:
        return f'path: "{input.path}"'
