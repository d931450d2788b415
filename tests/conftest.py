"""Shared fixtures: every test gets its own hands home, never the user's ~/.hands."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def hands_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("hands-home")
    monkeypatch.setenv("HANDS_HOME", str(home))
    yield home


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
