"""Git for the worktree tests: run it, and make a repository with one commit."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout


def make_repo(root: Path) -> Path:
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "README.md").write_text("hello\n")
    git(root, "add", ".")
    git(root, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "one")
    return root
