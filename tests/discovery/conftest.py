"""Make the MCP test helpers and this folder's helpers importable."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).parent
for folder in (str(HERE), str(HERE.parent / "mcp")):
    if folder not in sys.path:
        sys.path.insert(0, folder)
