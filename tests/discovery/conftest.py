"""Make the MCP test helpers and this folder's helpers importable."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).parent
for folder in (str(HERE), str(HERE.parent / "mcp")):
    if folder not in sys.path:
        sys.path.insert(0, folder)


@pytest.fixture(autouse=True, scope="session")
def _vectors_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Catalogue vectors go to a folder of the test run's own, not the user's cache."""
    before = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if before is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = before
