"""One rule against one call, matched as the engine matches: what a hook's ``if`` uses."""

from __future__ import annotations

from pathlib import Path

from hands.core.context import ToolContext
from hands.permissions.engine import matches
from hands.permissions.rules import PermissionRule, RuleOrigin, parse_rule
from hands.tools.bash.bash import BashInput, BashTool
from hands.tools.file.read import ReadInput, ReadTool


def rule(text: str, root: Path) -> PermissionRule:
    parsed = parse_rule(text, "deny", RuleOrigin(scope="session", label="test", root=root))
    assert isinstance(parsed, PermissionRule)
    return parsed


def test_a_command_rule_matches_each_sub_command(tmp_path: Path) -> None:
    ctx = ToolContext(cwd=tmp_path)
    git = rule("Bash(git push *)", tmp_path)
    bash = BashTool()
    assert matches(git, bash, BashInput(command="git push origin main"), ctx)
    assert matches(git, bash, BashInput(command="ls && git push origin main"), ctx)
    assert not matches(git, bash, BashInput(command="git status"), ctx)


def test_a_path_rule_matches_reads_below_it_and_nothing_else(tmp_path: Path) -> None:
    ctx = ToolContext(cwd=tmp_path)
    secrets = rule("Read(./secrets/**)", tmp_path)
    read = ReadTool()
    assert matches(secrets, read, ReadInput(file_path=str(tmp_path / "secrets" / "k")), ctx)
    assert not matches(secrets, read, ReadInput(file_path=str(tmp_path / "notes.txt")), ctx)
    # a rule about another tool never matches
    assert not matches(secrets, BashTool(), BashInput(command="ls"), ctx)
