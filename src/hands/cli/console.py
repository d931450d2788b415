"""The terminal console, and a plain one for pipes whose lines carry no padding."""

from __future__ import annotations

import re
import sys
from typing import IO

from rich.console import Console

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


def console_for(stream: IO[str] | None = None) -> Console:
    """A rich console on ``stream`` (stdout); off a terminal its lines end without padding."""
    target = stream or sys.stdout
    if target.isatty():
        return Console(file=target)
    return Console(file=TrimmedLines(target))  # type: ignore[arg-type]
