"""Hanging indents: a result's wrapped lines continue under its text, not at column 0."""

from __future__ import annotations

import re

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

_PREFIX = re.compile(r"^( *[●⎿├└│] | +)")
_MARKS = " ●⎿├└│"


def hanging(renderable: RenderableType) -> RenderableType:
    """``renderable`` with each ``  ⎿ ``-style line wrapped under its own text."""
    if isinstance(renderable, Group):
        return Group(*(hanging(r) for r in renderable.renderables))
    if not isinstance(renderable, Text) or not renderable.plain.strip():
        return renderable
    lines = renderable.split("\n")
    first = _PREFIX.match(lines[0].plain)
    if first is None:
        return renderable
    width = len(first.group(1))
    if any(line.plain[:width].strip(_MARKS) for line in lines):
        return renderable  # a line starts left of the indent: leave the layout alone
    grid = Table.grid()
    grid.add_column(width=width, no_wrap=True)
    grid.add_column()
    for line in lines:
        grid.add_row(line[:width], line[width:])
    return grid
