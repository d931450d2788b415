"""The fixed validation/test split of the held-out ToolSearch sets, and their writing.

Each held-out request belongs to a group: the server (LiveMCPBench) or the function
(BFCL) of its first need. A group is in the validation part or the test part by a seeded
hash of the source's and the group's names, so every request of one server (or function)
is on one side, and the split is decided before any ranker is scored. Ranker design and
fitting may look at the validation part; the test part is only scored, once per final
design (``tool_search.py --test``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
SEED = "hands-tool-search-2026"
VALIDATION_SHARE = 0.5


def split_of(source: str, group: str) -> str:
    """``"validation"`` or ``"test"`` for the requests of ``group`` in ``source``."""
    digest = hashlib.sha256(f"{SEED}:{source}:{group}".encode()).digest()
    return "validation" if int.from_bytes(digest[:8]) / 2**64 < VALIDATION_SHARE else "test"


def write_source(
    stem: str,
    tools: tuple[str, list[dict[str, Any]]],
    requests: tuple[str, list[dict[str, Any]]],
) -> None:
    """Write ``data/STEM_tools.json`` and ``data/STEM_requests.json``: (about, items) each."""
    for kind, (about, items) in (("tools", tools), ("requests", requests)):
        text = json.dumps({"about": about, kind: items}, indent=1, ensure_ascii=False)
        (DATA / f"{stem}_{kind}.json").write_text(text + "\n")
    kinds = [r["kind"] for r in requests[1]]
    print(
        f"{stem}: {len(tools[1])} tools; {len(requests[1])} requests: "
        f"{kinds.count('single')} single-need, {kinds.count('multi')} multi-need"
    )
