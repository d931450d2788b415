"""A git repository with one commit, for the worktree tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from .git_repo import make_repo


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "project")
