"""hands' own git runs none of the programs an untrusted repository names.

A real repository whose ``.git/config`` names an fsmonitor, a clean filter, a textconv
driver and whose ``.git/hooks/post-checkout`` exists; each writes a canary file. The
same calls in a trusted workspace run them, so the check can fail.
"""

from __future__ import annotations

import stat
import subprocess
from pathlib import Path

import pytest

from hands.agent.git_status import git_summary
from hands.config.safe_git import git_argv, safe_overrides
from hands.tools.worktree.trees import create_worktree, finish_worktree


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout


def program(path: Path, canary: Path, tail: str = "") -> Path:
    path.write_text(f"#!/bin/sh\necho ran >> {canary}\n{tail}")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def attacked(tmp_path: Path) -> tuple[Path, Path]:
    """A repository whose own config and hooks would write ``canary``."""
    repo = tmp_path / "repo"
    repo.mkdir()
    canary = tmp_path / "CANARY"
    git(repo, "init", "-q", "-b", "main")
    (repo / ".gitattributes").write_text("*.txt filter=evil diff=evil\n")
    (repo / "a.txt").write_text("one\n")
    git(repo, "add", ".")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "start")
    tools = tmp_path / "tools"
    tools.mkdir()
    monitor = program(tools / "monitor", canary)
    clean = program(tools / "clean", canary, "cat\n")
    hook = program(repo / ".git" / "hooks" / "post-checkout", canary)
    assert hook.exists()
    git(repo, "config", "core.fsmonitor", str(monitor))
    git(repo, "config", "filter.evil.clean", str(clean))
    git(repo, "config", "filter.evil.smudge", str(clean))
    git(repo, "config", "diff.evil.textconv", str(clean))
    (repo / "a.txt").write_text("two\n")  # a change: status must run the clean filter
    return repo, canary


def test_the_overrides_name_every_filter_and_driver_the_repository_sets(
    attacked: tuple[Path, Path],
) -> None:
    repo, canary = attacked
    overrides = dict(safe_overrides(repo))
    assert overrides["core.fsmonitor"] == "false" and overrides["core.hooksPath"]
    assert overrides["filter.evil.clean"] == "" and overrides["filter.evil.smudge"] == ""
    assert overrides["filter.evil.required"] == "false"
    assert overrides["diff.evil.textconv"] == ""
    assert git_argv(repo, "status", trusted=True) == ["git", "status"]
    assert not canary.exists()  # reading the configuration ran nothing


def test_the_status_of_an_untrusted_repository_runs_none_of_its_programs(
    attacked: tuple[Path, Path],
) -> None:
    repo, canary = attacked
    summary = git_summary(repo, trusted=False)
    assert "a.txt" in summary and "main" in summary
    assert not canary.exists()
    git_summary(repo, trusted=True)
    assert canary.exists()  # the same status, trusted, runs them: the canary works


@pytest.mark.anyio
async def test_a_worktree_of_an_untrusted_repository_runs_no_hook_nor_filter(
    attacked: tuple[Path, Path], tmp_path: Path
) -> None:
    repo, canary = attacked
    tree = await create_worktree(repo, home=tmp_path / "home", label="t", trusted=False)
    assert (tree.path / "a.txt").read_text() == "one\n"
    await finish_worktree(tree)
    assert not canary.exists()
    trusted = await create_worktree(repo, home=tmp_path / "home", label="t", trusted=True)
    await finish_worktree(trusted)
    assert canary.exists()
