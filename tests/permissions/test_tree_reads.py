"""A Read deny rule reaches every reader: one over a tree that holds a denied file asks."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hands.core.context import PermissionMode
from hands.permissions.reads import NO_PATH_OPERANDS, READERS
from hands.shell.readonly import READ_ONLY_PROGRAMS

from .conftest import World

TREE_READS = [
    "grep -r TOKEN .",
    "grep -R TOKEN",
    "grep -rl TOKEN sub",
    "egrep --recursive TOKEN .",
    "rg TOKEN",
    "rg -uu TOKEN sub",
    "find . -type f -exec cat {} +",
    "find sub -name '*' -execdir cat {} ;",
    "tar -cf /tmp/out.tar .",
    "tar czf - sub",
    "zip -r /tmp/out.zip sub",
    "cp -r sub /tmp/copy",
    "cp -a . /tmp/copy",
    "rsync -a sub/ /tmp/copy",
    "diff -r sub other",
    "git grep TOKEN",
    "git -C . grep TOKEN",
    "git archive HEAD",
    "git show HEAD:sub/.env",
    "git cat-file -p HEAD:sub/.env",
    "git diff",
    "git diff HEAD~1 -- .",
    "git --no-pager diff --cached",
    "git log -p",
    "git log -U3 --all",
    "git show HEAD",
    "git show",
    "git stash show -p",
    "git blame sub/.env",
    "git format-patch -1 --stdout",
]

MODES: list[PermissionMode] = ["default", "acceptEdits", "dontAsk", "bypassPermissions"]


@pytest.fixture
def repo(world: World) -> World:
    (world.project / "sub").mkdir()
    (world.project / "sub" / ".env").write_text("TOKEN=1\n")
    (world.project / "sub" / "a.txt").write_text("a\n")
    (world.project / "other").mkdir()
    subprocess.run(["git", "init", "-q", str(world.project)], check=True)
    return world


@pytest.mark.parametrize("command", TREE_READS)
@pytest.mark.parametrize("mode", MODES)
def test_a_tree_holding_a_denied_file_asks(repo: World, command: str, mode: PermissionMode) -> None:
    engine = repo.engine(allow=["Bash"], deny=["Read(./sub/.env)"])
    decision = repo.decide(engine, "Bash", {"command": command}, mode=mode)
    assert decision.behavior == ("deny" if mode == "dontAsk" else "ask"), decision
    assert "Read(./sub/.env)" in decision.message
    assert not decision.hook_can_approve


@pytest.mark.parametrize(
    "command",
    ["grep -r TOKEN other", "rg TOKEN other", "diff -r other other", "git status", "git log",
     "git log --oneline", "git stash show", "git show HEAD:sub/a.txt"],
)  # fmt: skip
def test_a_tree_without_denied_files_is_left_to_the_rules(repo: World, command: str) -> None:
    engine = repo.engine(allow=["Bash"], deny=["Read(./sub/.env)"])
    assert repo.decide(engine, "Bash", {"command": command}).behavior == "allow"


def test_a_floating_rule_is_found_at_any_depth(repo: World) -> None:
    engine = repo.engine(allow=["Bash"], ask=["Read(.env)"])
    decision = repo.decide(engine, "Bash", {"command": "grep -r TOKEN ."})
    assert decision.behavior == "ask"
    assert str(Path("sub") / ".env") in decision.message


def test_a_denied_file_named_directly_is_denied(repo: World) -> None:
    engine = repo.engine(allow=["Bash"], deny=["Read(./sub/.env)"])
    decision = repo.decide(engine, "Bash", {"command": "grep TOKEN sub/.env"})
    assert decision.behavior == "deny"


def test_every_read_only_program_is_a_reader_unless_named_otherwise() -> None:
    assert READ_ONLY_PROGRAMS - NO_PATH_OPERANDS <= READERS
    assert NO_PATH_OPERANDS <= READ_ONLY_PROGRAMS


@pytest.mark.parametrize(
    "program", ["column", "fmt", "fold", "nl", "pr", "paste", "join", "comm", "expand", "df"]
)
def test_file_operands_of_read_only_programs_are_checked(world: World, program: str) -> None:
    outside = world.home / "notes.txt"
    outside.write_text("x\n")
    engine = world.engine()
    decision = world.decide(engine, "Bash", {"command": f"{program} {outside}"})
    assert decision.behavior == "ask", decision
    if program not in READ_ONLY_PROGRAMS:
        return  # join: not read-only by itself, asked wherever its file is
    inside = world.project / "notes.txt"
    inside.write_text("x\n")
    assert world.decide(engine, "Bash", {"command": f"{program} {inside}"}).behavior == "allow"
