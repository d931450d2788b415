"""Small renderable builders shared by the tools' ``render_*`` methods."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from hands.core.messages import ImageBlock, ResultPart, TextBlock
from hands.core.words import plural

MAX_RESULT_LINES = 12


def use_line(name: str, summary: str) -> Text:
    """``● Name(summary)``."""
    text = Text("● ", style="green")
    text.append(name, style="bold")
    if summary:
        text.append(f"({summary})")
    return text


def dim_text(text: str) -> Text:
    """Progress and secondary lines."""
    return Text("  ⎿ " + text.rstrip("\n"), style="dim")


def _part_text(part: ResultPart) -> str:
    if isinstance(part, TextBlock):
        return part.text
    if isinstance(part, ImageBlock):
        return f"[image {part.media_type}]"
    return f"[tool {part.tool_name}]"


def result_text(content: str | Sequence[ResultPart]) -> Text:
    """The first lines of a result, with a count of the rest."""
    if isinstance(content, str):
        body = content
    else:
        parts = [_part_text(b) for b in content]
        body = "\n".join(parts)
    return _capped(body.splitlines() or [""], style="")


def rejected_text(name: str, reason: str) -> Text:
    """A call refused by permissions or a hook."""
    text = Text("  ⎿ ", style="dim")
    text.append(f"{name} rejected", style="bold red")
    if reason:
        text.append(f": {reason}", style="red")
    return text


def error_text(message: str) -> Text:
    """A failed call: its first lines in red."""
    return _capped(message.strip().splitlines() or ["(no message)"], style="red")


def _capped(lines: list[str], *, style: str) -> Text:
    """The first lines under a ``⎿``, then how many more there are."""
    text = Text()
    for i, line in enumerate(lines[:MAX_RESULT_LINES]):
        text.append(("  ⎿ " if i == 0 else "    ") + line + "\n", style=style)
    if len(lines) > MAX_RESULT_LINES:
        text.append(f"    … +{plural(len(lines) - MAX_RESULT_LINES, 'line')}\n", style="dim")
    text.rstrip()
    return text


def group(name: str, summaries: Sequence[str]) -> RenderableType:
    """Several parallel calls of one tool, shown as one heading and a line each."""
    heading = Text("● ", style="green")
    heading.append(f"{name} ×{len(summaries)}", style="bold")
    heading.append(" (in parallel)", style="dim")
    return Group(heading, *(Text(f"  ├ {s}") for s in summaries))
