"""Each hook test gets a throwaway project directory with a .claude/hooks folder."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".claude" / "hooks").mkdir(parents=True)
    return root
