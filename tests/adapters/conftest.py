"""Make the shared scenario and the MCP test helpers importable (``adapter_scenario``,
``mcp_helpers``): every adapter's test calls a real MCP server's tool."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).parent
for folder in (HERE, HERE.parent / "mcp"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
