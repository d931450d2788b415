"""Fixtures the tool families' tests share."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project folder, the session's working directory."""
    root = tmp_path / "project"
    root.mkdir()
    return root
