"""``hands mcp serve``'s standard input and output, owned from before the MCP SDK loads.

While serving, fd 0 reads the null device and fd 1 writes to standard error, as the MCP
SDK's ``stdio_server`` arranges, so a tool's child process can neither read the host's
messages nor write into the answers; the wire is served from private duplicates, and both
descriptors are put back on release. The host's lines are read on a thread of their own,
the way the SDK reads them (UTF-8 with undecodable bytes replaced, universal newlines),
and each is given to a callback, then ``None`` at the end of input. Answers are written
whole, each under one lock, from any thread.
"""

from __future__ import annotations

import fcntl
import io
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(kw_only=True)
class StdioWire:
    """The host's connection: a private duplicate of fd 0 to read and one of fd 1 to write."""

    reading: int
    writing: int
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def claim(cls) -> StdioWire:
        """Take fd 0 and fd 1 for the wire (``OSError`` when they cannot be duplicated)."""
        reading = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
        try:
            writing = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 3)
        except OSError:
            os.close(reading)
            raise
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(null, 0)
            os.dup2(2, 1)
        finally:
            os.close(null)
        return cls(reading=reading, writing=writing)

    def release(self) -> None:
        """Point fd 0 and fd 1 at the wire again.

        The duplicates stay open: the reading thread may still be blocked on one.
        """
        for private, fd in ((self.reading, 0), (self.writing, 1)):
            try:
                os.dup2(private, fd)
            except OSError:
                continue

    def read_lines(self, on_line: Callable[[str | None], None]) -> threading.Thread:
        """Start the thread that gives each line to ``on_line``, then ``None``."""

        def run() -> None:
            raw = os.fdopen(self.reading, "rb", closefd=False)
            stream = io.TextIOWrapper(raw, encoding="utf-8", errors="replace")
            try:
                for line in stream:
                    on_line(line)
            except (OSError, ValueError):
                pass  # the host went away: that is the end of its input
            finally:
                on_line(None)

        thread = threading.Thread(target=run, name="hands-mcp-stdin", daemon=True)
        thread.start()
        return thread

    def write(self, text: str) -> None:
        """Write ``text`` whole (``OSError`` when the host stopped reading)."""
        data = memoryview(text.encode("utf-8"))
        with self._lock:
            while data:
                data = data[os.write(self.writing, data) :]
