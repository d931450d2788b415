"""Make the scratch project importable (``scratch``), and the framework adapters' scripted
test models with their scenario (``framework_models``, ``adapter_scenario``)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).parent
for folder in (HERE, HERE.parent / "adapters", HERE.parent / "mcp", HERE.parent / "batch"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
