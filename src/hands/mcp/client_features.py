"""What the hands MCP client offers servers besides calling them: roots and logging.

- **Roots**: the session's working directories, as ``file://`` URIs; the client sends
  ``notifications/roots/list_changed`` when :meth:`McpManager.set_roots` changes them.
- **Logging**: a server's ``notifications/message`` goes to the Python logger
  ``hands.mcp.server.<name>`` at the matching level (``hands --debug`` shows them);
  ``logging/setLevel`` is sent to servers that offer logging when a level is asked for
  (``McpManager.set_log_level``, or ``--debug``, which asks for ``debug``).

The 2026-07-28 protocol revision deprecates roots and logging; servers that negotiate
an earlier revision still use them, so the client keeps both. Nothing here imports the
MCP SDK at module level.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeAlias

LogLevel: TypeAlias = Literal[
    "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"
]
LOG_LEVELS: tuple[LogLevel, ...] = (
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
)
_PYTHON_LEVEL: dict[str, int] = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "notice": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
    "alert": logging.CRITICAL,
    "emergency": logging.CRITICAL,
}


@dataclass(frozen=True, kw_only=True, slots=True)
class McpLogMessage:
    """One ``notifications/message`` from a server."""

    server: str
    level: str
    data: Any
    logger: str | None = None

    def text(self) -> str:
        """The message as one line of text."""
        body = self.data if isinstance(self.data, str) else json.dumps(self.data, default=str)
        where = f" {self.logger}" if self.logger else ""
        return f"[{self.server}{where}] {self.level}: {body}"


def server_logger(server: str) -> logging.Logger:
    """The Python logger a server's log messages go to."""
    return logging.getLogger(f"hands.mcp.server.{server}")


def log_to_python(message: McpLogMessage) -> None:
    """Pass a server's log message on to Python logging (dropped when nothing listens).

    Without a configured handler Python would print warnings to stderr over the REPL;
    a server's log is shown only when asked for (``--debug``, ``--verbose``, a library
    user's logging setup).
    """
    logger = server_logger(message.server)
    if logger.hasHandlers():
        logger.log(_PYTHON_LEVEL.get(message.level, logging.INFO), "%s", message.text())


def level_from_python() -> LogLevel | None:
    """``debug`` when the hands MCP loggers are enabled at DEBUG (``--debug``), else None."""
    return "debug" if logging.getLogger("hands.mcp.server").isEnabledFor(logging.DEBUG) else None


def root_entries(paths: Iterable[Path]) -> list[dict[str, str]]:
    """``roots/list`` entries for ``paths``: ``{uri, name}``, each path once."""
    out: list[dict[str, str]] = []
    seen: set[str] = set()
    for path in paths:
        resolved = Path(path).absolute()
        uri = resolved.as_uri()
        if uri in seen:
            continue
        seen.add(uri)
        out.append({"uri": uri, "name": resolved.name or str(resolved)})
    return out


def normalize_roots(paths: Sequence[Path | str]) -> tuple[Path, ...]:
    """The roots as absolute paths, in order, each once."""
    return tuple(dict.fromkeys(Path(p).absolute() for p in paths))
