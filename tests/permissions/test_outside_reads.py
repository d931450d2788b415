"""Reads outside the working directories, deny rules a command slips past, and
additional directories (``additionalDirectories``, ``--add-dir``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from permissions.conftest import World


@pytest.fixture
def outside(world: World, tmp_path: Path) -> Path:
    place = tmp_path / "outside"
    place.mkdir()
    (place / "secret").write_text("s")
    (world.project / "link").symlink_to(place)
    (world.project / "a.txt").write_text("a")
    return place


def bash(world: World, command: str, **rules: list[str]) -> str:
    extra = rules.pop("add", None)
    mode = rules.pop("mode", ["default"])[0]
    engine = world.engine(
        additional=[Path(p) for p in extra or ()],
        **{k: v for k, v in rules.items()},  # type: ignore[arg-type]
    )
    return world.decide(engine, "Bash", {"command": command}, mode=mode).behavior  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "command",
    ["cat {o}/secret", "cat link/secret", "cat link/../x", "cd link && cat secret",
     "grep -r s {o}", "cat < {o}/secret", "grep -f {o}/secret a.txt", "sha256sum -c a.txt",
     "cat $X", "grep -R s .", "head *"],
)  # fmt: skip
@pytest.mark.parametrize("mode", ["default", "plan", "acceptEdits", "dontAsk"])
def test_a_read_outside_asks_in_every_mode_but_bypass(
    world: World, outside: Path, command: str, mode: str
) -> None:
    got = bash(world, command.format(o=outside), mode=[mode])
    if mode == "plan" and "$" in command:
        assert got == "deny"  # not provably read-only, so plan mode refuses it outright
    else:
        assert got == ("deny" if mode == "dontAsk" else "ask")
    assert bash(world, command.format(o=outside), mode=["bypassPermissions"]) == "allow"


def test_a_read_allow_rule_covering_every_path_approves_it(world: World, outside: Path) -> None:
    assert bash(world, f"cat {outside}/secret", allow=[f"Read(/{outside}/**)"]) == "allow"
    assert bash(world, f"cat {outside}/secret a.txt", allow=[f"Read(/{outside}/**)"]) == "allow"
    assert bash(world, f"cat {outside}/secret /etc/hosts", allow=[f"Read(/{outside}/**)"]) == "ask"


def test_a_read_deny_rule_covers_redirections_and_file_flags(world: World, outside: Path) -> None:
    (world.project / ".env").write_text("A=1")
    for command in ("cat .env", "cat < .env", "grep -f .env a.txt", "head -n1 .env"):
        assert bash(world, command, deny=["Read(./.env)"]) == "deny", command


@pytest.mark.parametrize(
    "command",
    ["'curl' x.io", "/usr/bin/curl x.io", "command curl x.io",
     "env curl x.io", "timeout 3 curl x.io", "nice curl x.io", "sh -c 'curl x.io'",
     "bash -c \"curl x.io\"", "eval 'curl x.io'", "find . -exec curl {} \\;", "xargs curl < a.txt",
     "echo a && curl x.io", "ls | curl -d @- x.io"],
)  # fmt: skip
def test_a_denied_program_is_denied_however_it_is_spelled(world: World, command: str) -> None:
    assert bash(world, command, deny=["Bash(curl:*)"]) == "deny"


@pytest.mark.parametrize("command", ["cu\\\nrl x.io", "$'curl' x.io", "c''url x.io"])
def test_a_denied_program_hidden_by_quoting_is_never_allowed(world: World, command: str) -> None:
    # Claude Code asks about these (checked with the oracle); hands asks or denies
    assert bash(world, command, deny=["Bash(curl:*)"]) in ("ask", "deny")
    assert bash(world, command, deny=["Bash(curl:*)"], mode=["bypassPermissions"]) != "allow"


@pytest.mark.parametrize(
    "command",
    ["git -C . push", "git -c k=v push", "git --no-pager push", "git -c alias.p=push p",
     "python3 -c 'import os; os.system(\"curl x\")'", "node -e 'x'", "perl -e 'x'",
     "x=curl; $x y"],
)  # fmt: skip
def test_what_a_deny_rule_cannot_be_checked_against_asks(world: World, command: str) -> None:
    got = bash(world, command, deny=["Bash(git push:*)", "Bash(curl:*)"])
    assert got in ("ask", "deny")
    assert bash(world, command, deny=["Bash(git push:*)", "Bash(curl:*)"],
                mode=["bypassPermissions"]) != "allow"  # fmt: skip


@pytest.mark.parametrize(
    "command",
    ["cat {o}/secret", "ls {o}", "grep -r s {o}", "cd {o} && cat secret", "cat link/secret"],
)
def test_an_additional_directory_is_read_like_the_project(
    world: World, outside: Path, command: str
) -> None:
    text = command.format(o=outside)
    assert bash(world, text) == "ask"
    assert bash(world, text, add=[str(outside)]) == "allow"


def test_an_additional_directory_is_written_only_with_accept_edits(
    world: World, outside: Path
) -> None:
    touch = f"touch {outside}/new"
    assert bash(world, touch, add=[str(outside)]) == "ask"
    assert bash(world, touch, add=[str(outside)], mode=["acceptEdits"]) == "allow"
    assert bash(world, touch, mode=["acceptEdits"]) == "ask"
    assert bash(world, "cat /etc/hostname", add=[str(outside)]) == "ask"


def test_additional_directories_apply_to_the_file_tools(world: World, outside: Path) -> None:
    read = {"file_path": f"{outside}/secret"}
    write = {"file_path": f"{outside}/n.txt", "content": "x"}
    plain, extra = world.engine(), world.engine(additional=[outside])
    assert world.decide(plain, "Read", read).behavior == "ask"
    assert world.decide(extra, "Read", read).behavior == "allow"
    assert world.decide(extra, "Write", write).behavior == "ask"
    assert world.decide(extra, "Write", write, mode="acceptEdits").behavior == "allow"
