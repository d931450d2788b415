"""The TypeScript SDK tests use the MCP tests' node and npm helpers (``conformance.harness``)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parents[2] / "mcp")
if HERE not in sys.path:
    sys.path.insert(0, HERE)
