"""The composition root: one session of hands, opened the same way by every front end."""

from hands.harness.front_ends import (
    ADAPTER,
    FRONT_ENDS,
    LIBRARY,
    MCP_SERVE,
    PRINT,
    REPL,
    TOOL,
    FrontEnd,
)
from hands.harness.harness import Harness

__all__ = [
    "ADAPTER",
    "FRONT_ENDS",
    "LIBRARY",
    "MCP_SERVE",
    "PRINT",
    "REPL",
    "TOOL",
    "FrontEnd",
    "Harness",
]
