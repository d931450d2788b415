"""A deny or ask rule on a git subcommand holds whatever options come before it."""

from __future__ import annotations

import pytest

from hands.core.context import PermissionMode
from hands.shell.git_options import read_git

from .conftest import World

HIDDEN_PUSHES = [
    "git -C . push origin main",
    "git --no-pager push origin main",
    "git -P push",
    "git -c user.name=x push origin main",
    "git --git-dir=.git push",
    "git --git-dir .git --work-tree . push",
    "git --namespace n --literal-pathspecs push",
    "git -c alias.p=push p origin main",
    "git -c alias.P=push P",
    "git -c alias.a=b -c alias.b=push a",
    "git -c 'alias.p=-C . push' p",
    "git -c 'alias.p=!git push' p",
    "git -c 'alias.p=!f() { git push; }; f' p",
    "git --config-env=alias.p=P p origin main",
    "git -c core.pager=less push",
    "env git -C . push",
    "timeout 5 git -C . push",
    "cd . && git -C . push",
]

MODES: list[PermissionMode] = ["default", "acceptEdits", "dontAsk", "bypassPermissions", "plan"]


@pytest.mark.parametrize("command", HIDDEN_PUSHES)
@pytest.mark.parametrize("mode", MODES)
def test_an_ask_rule_on_push_holds_under_a_broad_allow(
    world: World, command: str, mode: PermissionMode
) -> None:
    engine = world.engine(allow=["Bash(git:*)", "Bash(cd:*)"], ask=["Bash(git push:*)"])
    decision = world.decide(engine, "Bash", {"command": command}, mode=mode)
    expected = "deny" if mode == "dontAsk" else "ask"
    assert decision.behavior == expected, decision
    assert not decision.hook_can_approve or "ask rule" in (decision.reason or "")


@pytest.mark.parametrize("command", HIDDEN_PUSHES)
def test_a_deny_rule_on_push_holds_in_bypass_mode(world: World, command: str) -> None:
    engine = world.engine(allow=["Bash(git:*)"], deny=["Bash(git push:*)"])
    decision = world.decide(engine, "Bash", {"command": command}, mode="bypassPermissions")
    assert decision.behavior in ("deny", "ask"), decision
    assert not decision.hook_can_approve


def test_a_shell_alias_meets_the_deny_rules_of_what_it_runs(world: World) -> None:
    engine = world.engine(allow=["Bash(git:*)"], deny=["Bash(touch:*)"])
    decision = world.decide(engine, "Bash", {"command": "git -c 'alias.x=!touch pwned' x"})
    assert decision.behavior == "deny", decision
    assert "touch" in decision.message


def test_git_configuration_that_runs_programs_asks_where_rules_exist(world: World) -> None:
    engine = world.engine(allow=["Bash(git:*)"], deny=["Bash(rm:*)"])
    decision = world.decide(
        engine, "Bash", {"command": "git -c core.pager='rm -rf ~' log"}, mode="bypassPermissions"
    )
    assert decision.behavior == "ask", decision
    assert "core.pager" in decision.message
    assert not decision.hook_can_approve


@pytest.mark.parametrize(
    "command",
    ["git -C . status", "git -c color.ui=never log -1", "git --no-pager log -1", "git log -1"],
)
def test_harmless_options_leave_other_subcommands_to_the_allow_rule(
    world: World, command: str
) -> None:
    engine = world.engine(allow=["Bash(git:*)"], ask=["Bash(git push:*)"])
    decision = world.decide(engine, "Bash", {"command": command})
    assert decision.behavior == "allow", decision


@pytest.mark.parametrize(
    ("words", "argv", "shell", "unknowable"),
    [
        ("git status", "git status", None, False),
        ("git -C d -c user.name=x --no-pager log -1", "git log -1", None, False),
        ("git --version", "git", None, False),
        ("git -c alias.l=log l -1", "git log -1", None, False),
        ("git -c alias.l=l l", "git l", None, False),  # a loop git refuses too
        ("git -c alias.s=!echo s a", "git s a", "echo a", False),
        ("git -c core.sshCommand=x fetch", "git fetch", None, True),
        ("git -c include.path=/tmp/x p", "git p", None, True),
        ("git --exec-path=/tmp push", "git push", None, True),
        ("git --exec-path", "git", None, False),
        ("git --config-env=alias.p=P p", "git p", None, True),
    ],
)
def test_read_git(words: str, argv: str, shell: str | None, unknowable: bool) -> None:
    call = read_git(words.split())
    assert " ".join(call.argv) == argv
    assert call.shell == shell
    assert (call.unknowable is not None) is unknowable
