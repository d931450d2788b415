"""Bash in the sandbox: autoAllowBashIfSandboxed and excludedCommands."""

from __future__ import annotations

import json

import anyio
import pytest

from hands.core.decision import SANDBOX_AUTO_ALLOW, PermissionDecision
from hands.permissions.engine import PermissionEngine
from hands.tools.bash._settings import BashSettings, SandboxSettings
from hands.tools.bash.bash import BashTool
from paths import CLAUDE_CONFIGS, needs_claude_configs
from permissions.conftest import World

FIXTURES = CLAUDE_CONFIGS


def decide(
    world: World,
    engine: PermissionEngine,
    command: str,
    sandbox: SandboxSettings,
    **extra: object,
) -> PermissionDecision:
    tool = BashTool(BashSettings(sandbox=sandbox))
    parsed = tool.parse_input({"command": command, **extra})

    async def go() -> PermissionDecision:
        return await engine.decide(tool, parsed, world.ctx())

    return anyio.run(go)


ON = SandboxSettings(enabled=True)


def test_a_sandboxed_command_needs_no_approval(world: World) -> None:
    engine = world.engine()
    got = decide(world, engine, "npm install && touch built", ON)
    assert got.behavior == "allow" and got.reason == SANDBOX_AUTO_ALLOW
    off = SandboxSettings(enabled=True, auto_allow=False)
    assert decide(world, engine, "npm install", off).behavior == "ask"
    assert decide(world, engine, "npm install", SandboxSettings()).behavior == "ask"


def test_rules_and_critical_paths_still_hold_in_the_sandbox(world: World) -> None:
    engine = world.engine(ask=["Bash", "Bash(git push:*)"], deny=["Bash(curl:*)"])
    assert decide(world, engine, "make build", ON).behavior == "allow"  # bare ask skipped
    assert decide(world, engine, "git push origin main", ON).behavior == "ask"
    assert decide(world, engine, "curl https://example.com", ON).behavior == "deny"
    assert decide(world, engine, "rm -rf ~", ON).behavior == "ask"
    unclear = decide(world, engine, 'eval "$CMD"', ON)
    assert unclear.behavior == "ask" and "deny rules cannot be" in unclear.message


def test_excluded_commands_run_outside_and_are_not_auto_allowed(world: World) -> None:
    sandbox = SandboxSettings(enabled=True, excluded_commands=("docker", "npm run"))
    engine = world.engine()
    assert decide(world, engine, "docker run x", sandbox).behavior == "ask"
    assert decide(world, engine, "make && docker build .", sandbox).behavior == "ask"
    assert decide(world, engine, "npm run build", sandbox).behavior == "ask"
    assert decide(world, engine, "npm install", sandbox).behavior == "allow"
    tool = BashTool(BashSettings(sandbox=sandbox))
    ctx = world.ctx()
    assert not tool.runs_sandboxed(tool.parse_input({"command": "docker ps"}), ctx)
    assert tool.runs_sandboxed(tool.parse_input({"command": "dockerd-like"}), ctx)
    unsandboxed = tool.parse_input({"command": "ls", "dangerouslyDisableSandbox": True})
    assert not tool.runs_sandboxed(unsandboxed, ctx)


@needs_claude_configs
@pytest.mark.parametrize(
    ("name", "excluded"),
    [("055", ("docker", "git", "gh", "npm", "node")), ("057", ("docker", "watchman"))],
)
def test_the_fixtures_sandbox_blocks_are_read(name: str, excluded: tuple[str, ...]) -> None:
    data = json.loads((FIXTURES / "settings" / f"{name}.json").read_text())
    sandbox = SandboxSettings.from_settings(data)
    assert sandbox.enabled and sandbox.auto_allow and sandbox.allow_unsandboxed_commands
    assert sandbox.excluded_commands == excluded
    assert sandbox.excludes("git status") == ("git" in excluded)
    assert sandbox.excludes("docker compose up")
    assert not sandbox.excludes("make")
