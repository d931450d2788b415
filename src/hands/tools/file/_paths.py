"""Checks on the path a model sends, and the "does not exist" message with a suggestion.

A relative path is taken from the working directory, as Claude Code does; the tools, the
permission checks and the hooks all see the resolved absolute path.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from hands.core.context import ToolContext
from hands.core.outcome import echo


def check_path(raw: str, ctx: ToolContext, *, field: str = "file_path") -> Path | str:
    """The absolute, normalised path for ``raw`` (relative: from the cwd), or an error."""
    if "\x00" in raw:
        return (
            f"{field} contains a NUL byte, which no file path can hold. Send the path again "
            "without it."
        )
    if not raw.strip():
        return f"{field} is empty. Send the path of the file, best an absolute one."
    try:
        os.fsencode(raw)
    except UnicodeEncodeError:
        return (
            f"{field} is not valid Unicode (it holds a lone surrogate), so no file can have "
            "that name. Send the path again as plain text."
        )
    return Path(os.path.normpath(ctx.resolve(raw)))


def resolved_field(raw: str, ctx: ToolContext, field: str = "file_path") -> Mapping[str, str]:
    """``{field: absolute path}`` for the input hooks see, when ``raw`` needs resolving.

    Empty when ``raw`` is already absolute and normalised (or is no path at all).
    """
    checked = check_path(raw, ctx, field=field)
    if isinstance(checked, str) or str(checked) == raw:
        return {}
    return {field: str(checked)}


def real_path(path: Path) -> Path:
    """``path`` with symlinks resolved: the key of the read-state cache and the write target."""
    return Path(os.path.realpath(path))


def missing_message(path: Path, ctx: ToolContext) -> str:
    """A missing file: say so, give the cwd, and suggest a close match if one exists."""
    text = f"No file at {echo(path)} (the working directory is {ctx.cwd})."
    suggestion = suggest(path, ctx)
    if suggestion is not None:
        text += f" Did you mean {suggestion}?"
    return text


def suggest(path: Path, ctx: ToolContext) -> Path | None:
    """A path that exists and looks like what was meant, if any."""
    candidates: list[Path] = []
    parent = path.parent
    if parent.is_dir():
        try:
            names = [p.name for p in parent.iterdir()]
        except OSError:
            names = []
        stem_matches = [n for n in names if Path(n).stem == path.stem and n != path.name]
        import difflib  # only a missing file's message needs it

        close = difflib.get_close_matches(path.name, names, n=1, cutoff=0.75)
        candidates.extend(parent / n for n in (*close, *stem_matches))
    # A path written relative to the wrong directory: the same tail under the cwd.
    for depth in (1, 2, 3):
        parts = path.parts[-depth:]
        if len(parts) == depth:
            candidates.append(ctx.cwd.joinpath(*parts))
    for candidate in candidates:
        if candidate != path and candidate.exists():
            return candidate
    return None
