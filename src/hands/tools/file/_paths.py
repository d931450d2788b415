"""Checks on the path a model sends, and the "does not exist" message with a suggestion."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from hands.core.context import ToolContext
from hands.core.outcome import echo


def check_path(raw: str, ctx: ToolContext, *, field: str = "file_path") -> Path | str:
    """The absolute path for ``raw``, or an error message saying how to fix it."""
    if "\x00" in raw:
        return (
            f"{field} contains a NUL byte, which no file path can hold. Send the path again "
            "without it."
        )
    if not raw.strip():
        return f"{field} is empty. Send the absolute path of the file."
    path = Path(os.path.expanduser(raw))  # noqa: PTH111 - an unknown ``~user`` stays as is
    if not path.is_absolute():
        return (
            f"{field} must be an absolute path, not a relative one ({echo(repr(raw))}). "
            f"Did you mean {echo(ctx.cwd / raw)}?"
        )
    return Path(os.path.normpath(path))


def real_path(path: Path) -> Path:
    """``path`` with symlinks resolved: the key of the read-state cache and the write target."""
    return Path(os.path.realpath(path))


def missing_message(path: Path, ctx: ToolContext) -> str:
    """A missing file: say so, give the cwd, and suggest a close match if one exists."""
    text = f"File does not exist: {echo(path)}. Current working directory: {ctx.cwd}."
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
