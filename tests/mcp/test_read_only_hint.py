"""An MCP server's readOnlyHint is its claim: in plan mode a call asks unless a rule allows it."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from mcp_helpers import demo_config

from hands.core.context import PermissionMode, ToolContext
from hands.core.decision import PermissionDecision, PermissionPolicy
from hands.core.session import Session
from hands.mcp.config import McpSettings
from hands.mcp.manager import McpManager
from hands.mcp.source import McpToolSource
from hands.mcp.tools import McpTool
from hands.permissions.engine import PermissionEngine
from hands.permissions.rules import RuleOrigin, parse_rules
from hands.permissions.simple import SimplePolicy

FAST = McpSettings(startup_timeout_s=15)


def _engine(tmp_path: Path, allow: list[str]) -> PermissionEngine:
    origin = RuleOrigin(scope="userSettings", label="test", root=tmp_path, path=None)
    rules, problems = parse_rules(allow, "allow", origin)
    assert not problems
    return PermissionEngine(rules, home=tmp_path)


async def _decide(
    tool: McpTool, policy: PermissionPolicy, mode: PermissionMode, tmp_path: Path
) -> PermissionDecision:
    ctx = ToolContext(cwd=tmp_path, session=Session(home=tmp_path), permission_mode=mode)
    return await policy.decide(tool, tool.parse_input({"text": "x"}), ctx)


@pytest.mark.parametrize("mode", ["plan", "default"])
def test_a_read_only_hint_never_approves_a_call_by_itself(tmp_path: Path, mode: str) -> None:
    async def go() -> None:
        async with McpManager([demo_config()], settings=FAST) as manager:
            await manager.wait_ready()
            echo = McpToolSource(manager, base=[]).current_pool().find("mcp__demo__echo")
            assert isinstance(echo, McpTool)
            assert echo.is_read_only(echo.parse_input({"text": "x"}))  # the server says so
            for policy in (SimplePolicy(), _engine(tmp_path, [])):
                decision = await _decide(echo, policy, mode, tmp_path)  # type: ignore[arg-type]
                assert decision.behavior == "ask", (type(policy).__name__, decision)
            for rule in ("mcp__demo__echo", "mcp__demo", "mcp__demo__*"):
                allowed = await _decide(echo, _engine(tmp_path, [rule]), mode, tmp_path)  # type: ignore[arg-type]
                assert allowed.behavior == "allow", (rule, allowed)

    anyio.run(go)
