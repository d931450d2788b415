"""The terminal console, and a plain one for pipes whose lines carry no padding.

Both show text from outside without obeying it: every piece of text rich is about to
write goes through :func:`~hands.core.terminal_text.neutralise`, after layout and before
styling, so the only escape sequences that reach the terminal are rich's own (colours,
the live region's cursor moves).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from typing import IO, Any

from rich.console import Console, ConsoleOptions, RenderableType
from rich.segment import Segment

from hands.core.terminal_text import neutralise

_LINES = re.compile(r"(\n)")


class TrimmedLines:
    """A text stream that drops the spaces at the end of each line before writing it."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        self._spaces = ""

    def write(self, text: str) -> int:
        """Write ``text``; trailing spaces wait to see whether the line goes on."""
        out: list[str] = []
        for piece in _LINES.split(text):
            if piece == "\n":
                self._spaces = ""
                out.append("\n")
            elif piece:
                body = piece.rstrip(" ")
                if body:
                    out.append(self._spaces + body)
                    self._spaces = piece[len(body) :]
                else:
                    self._spaces += piece
        self._stream.write("".join(out))
        return len(text)

    def flush(self) -> None:
        """Flush the underlying stream."""
        self._stream.flush()

    def isatty(self) -> bool:
        """Never a terminal."""
        return False

    def fileno(self) -> int:
        """The underlying stream's descriptor."""
        return self._stream.fileno()


class ShownConsole(Console):
    """A console whose text is shown, never obeyed: controls in it become visible."""

    def render(
        self, renderable: RenderableType, options: ConsoleOptions | None = None
    ) -> Iterable[Segment]:
        """The segments of ``renderable``, their text neutralised (control segments kept)."""
        for segment in super().render(renderable, options):
            if segment.control is None:
                text = neutralise(segment.text)
                if text is not segment.text:
                    segment = Segment(text, segment.style)
            yield segment


def console_for(stream: IO[str] | None = None, **options: Any) -> Console:
    """A :class:`ShownConsole` on ``stream`` (stdout); ``options`` go to rich.

    Off a terminal its lines end without padding.
    """
    target = stream or sys.stdout
    if target.isatty():
        return ShownConsole(file=target, **options)
    return ShownConsole(file=TrimmedLines(target), **options)  # type: ignore[arg-type]
