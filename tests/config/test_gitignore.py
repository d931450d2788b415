""" "Don't ask again" keeps settings.local.json out of the project's git history."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hands.config.settings import add_local_allow_rules


def ignored(repo: Path, path: Path) -> bool:
    done = subprocess.run(["git", "check-ignore", "-q", str(path)], cwd=repo, check=False)
    return done.returncode == 0


def test_creating_the_local_file_adds_it_to_the_repositorys_gitignore(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    sub = repo / "pkg"
    sub.mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    (repo / ".gitignore").write_text("*.pyc")  # no final newline
    path = add_local_allow_rules(sub, ["Bash(make *)"])
    assert path == sub / ".claude" / "settings.local.json"
    assert (repo / ".gitignore").read_text() == "*.pyc\n/pkg/.claude/settings.local.json\n"
    assert ignored(repo, path)
    add_local_allow_rules(sub, ["Bash(ls)"])  # the file exists: .gitignore is left alone
    assert (repo / ".gitignore").read_text().count("settings.local.json") == 1


def test_a_file_that_exists_already_or_no_repository_leaves_gitignore_alone(
    tmp_path: Path,
) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    add_local_allow_rules(plain, ["Read"])
    assert not (plain / ".gitignore").exists()
    repo = tmp_path / "repo"
    (repo / ".claude").mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    (repo / ".claude" / "settings.local.json").write_text("{}")
    add_local_allow_rules(repo, ["Read"])
    assert not (repo / ".gitignore").exists()  # the user chose where that file lives
