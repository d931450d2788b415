"""The git status in the system prompt, started early by the command line."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hands.agent.git_status import start_git_summary
from hands.agent.system_prompt import build_system_prompt


def _repo(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    (path / "first.txt").write_text("1\n")
    return path


def test_an_early_status_is_used_once_then_git_runs_again(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    start_git_summary(repo)
    first = build_system_prompt(cwd=repo, home=tmp_path)
    assert "<git-status>" in first and "?? first.txt" in first
    (repo / "second.txt").write_text("2\n")
    again = build_system_prompt(cwd=repo, home=tmp_path)
    assert "?? second.txt" in again  # not the early answer a second time


def test_an_early_status_is_the_status_git_gives_at_that_moment(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    start_git_summary(repo)
    early = build_system_prompt(cwd=repo, home=tmp_path)
    plain = build_system_prompt(cwd=repo, home=tmp_path)
    assert early == plain


def test_outside_a_repository_there_is_no_status(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    start_git_summary(plain)
    assert "<git-status>" not in build_system_prompt(cwd=plain, home=tmp_path)
