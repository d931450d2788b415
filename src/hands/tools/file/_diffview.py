"""Coloured unified diffs for people: the render of Write, Edit, MultiEdit and NotebookEdit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hands.core.words import plural
from hands.tools.file._patch import Hunk, count_changes

if TYPE_CHECKING:
    from rich.console import RenderableType

MAX_DIFF_LINES = 40
MAX_PREVIEW_LINES = 400
"""Lines of a diff or a new file shown when asking to approve a change."""


def text_diff(path: str, before: str | None, after: str) -> str:
    """The change as a plain unified diff (a new file: its lines), for an approval prompt."""
    import difflib

    if before is None:
        return added_lines(f"new file {path}", after)
    old, new = before.splitlines(), after.splitlines()
    body = list(difflib.unified_diff(old, new, "before", "after", lineterm=""))[2:]
    return _block(f"changes to {path}:" if body else f"{path}: no change", body)


def added_lines(title: str, text: str) -> str:
    """``title, N lines:`` and each line of ``text`` marked as added."""
    lines = text.splitlines()
    return _block(f"{title}, {plural(len(lines), 'line')}:", [f"+ {line}" for line in lines])


def _block(head: str, body: list[str]) -> str:
    if len(body) > MAX_PREVIEW_LINES:
        rest = len(body) - MAX_PREVIEW_LINES
        body = [*body[:MAX_PREVIEW_LINES], f"… {plural(rest, 'more line')}"]
    return "\n".join([head, *body])


def diff_summary(verb: str, path: str, hunks: Sequence[Hunk]) -> str:
    """``Updated path with 2 additions and 1 removal``."""
    added, removed = count_changes(hunks)
    parts: list[str] = []
    if added:
        parts.append(f"{added} addition{'s' if added != 1 else ''}")
    if removed:
        parts.append(f"{removed} removal{'s' if removed != 1 else ''}")
    return f"{verb} {path}" + (f" with {' and '.join(parts)}" if parts else "")


def render_diff(
    title: str, hunks: Sequence[Hunk], *, max_lines: int = MAX_DIFF_LINES
) -> RenderableType:
    """A title line, then each hunk with line numbers, removals red, additions green."""
    from rich.console import Group  # lazy: rich is loaded when a diff is shown, not at start-up
    from rich.text import Text

    rows: list[RenderableType] = [Text.assemble(("  ⎿ ", "dim"), (title, "bold"))]
    shown = 0
    total = sum(len(h.lines) for h in hunks)
    width = len(str(max((h.old_start + h.old_lines for h in hunks), default=1)))
    width = max(width, len(str(max((h.new_start + h.new_lines for h in hunks), default=1))))
    for index, hunk in enumerate(hunks):
        if index:
            rows.append(Text("    ⋮", style="dim"))
        old_no, new_no = hunk.old_start, hunk.new_start
        for line in hunk.lines:
            if shown == max_lines:
                rows.append(Text(f"    … +{plural(total - shown, 'line')}", style="dim"))
                return Group(*rows)
            sign, body = line[:1], line[1:]
            if sign == "-":
                number, style = old_no, "red"
                old_no += 1
            elif sign == "+":
                number, style = new_no, "green"
                new_no += 1
            else:
                number, style = new_no, ""
                old_no += 1
                new_no += 1
            row = Text(f"    {number:>{width}} ", style="dim")
            row.append(f"{sign or ' '} {body}", style=style)
            rows.append(row)
            shown += 1
    return Group(*rows)
