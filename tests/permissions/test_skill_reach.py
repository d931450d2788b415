"""An active skill's allowed-tools never reach outside the working directories."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import anyio
import pytest

from hands.pipeline.pool import assemble_pool
from permissions.conftest import World


@pytest.mark.parametrize("rule", ["Edit(//**)", "Edit", "Edit(../**)", "Edit(~/**)"])
def test_a_skill_rule_grants_nothing_outside_the_working_directories(
    world: World, tmp_path: Path, rule: str
) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("x")
    inside = world.project / "src" / "a.txt"
    inside.write_text("x")
    engine = world.engine()
    tool = assemble_pool().find("Edit")
    assert tool is not None
    ctx = dataclasses.replace(world.ctx(), turn_allow=(rule,))

    def decide(path: Path) -> str:
        data = tool.parse_input({"file_path": str(path), "old_string": "x", "new_string": "y"})
        return anyio.run(engine.decide, tool, data, ctx).behavior

    assert decide(outside) == "ask"
    if rule != "Edit(~/**)":
        assert decide(inside) == "allow"  # inside, the skill's rule counts as before


def test_the_sessions_own_rule_still_reaches_outside(world: World, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("x")
    engine = world.engine(allow=["Edit(//**)"])
    tool = assemble_pool().find("Edit")
    assert tool is not None
    data = tool.parse_input({"file_path": str(outside), "old_string": "x", "new_string": "y"})
    ctx = dataclasses.replace(world.ctx(), turn_allow=("Edit",))
    assert anyio.run(engine.decide, tool, data, ctx).behavior == "allow"


@pytest.mark.parametrize(
    "command",
    [
        "touch {outside}", "touch ../outside.txt", "cd {parent} && touch x",
        "echo hi > {outside}", "touch --reference={outside} x", "touch ~/x", "touch $HOME/x",
    ],
)  # fmt: skip
def test_a_skill_bash_rule_grants_nothing_outside_the_working_directories(
    world: World, tmp_path: Path, command: str
) -> None:
    outside = tmp_path / "outside.txt"
    engine = world.engine()
    tool = assemble_pool().find("Bash")
    assert tool is not None
    ctx = dataclasses.replace(world.ctx(), turn_allow=("Bash(touch *)", "Bash(echo *)",
                                                      "Bash(cd *)"))  # fmt: skip

    def decide(text: str) -> str:
        data = tool.parse_input({"command": text})
        return anyio.run(engine.decide, tool, data, ctx).behavior

    assert decide(command.format(outside=outside, parent=tmp_path)) == "ask"
    # inside, the skill's rule counts as before
    assert decide("touch src/new.txt") == "allow"
    assert decide(f"touch {world.project / 'src' / 'b.txt'}") == "allow"
