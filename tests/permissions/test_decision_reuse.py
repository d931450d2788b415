"""A tool whose calls all look alike to the rules is decided once per mode and rule set.

Each test proves the reuse never changes a decision: the same calls give the same
answers as a fresh engine, and whatever can make two calls differ (an input-field rule,
an input-dependent flag, the tool's own check, a rule added, another mode) is honoured.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands import ToolContext, tool
from hands.core.decision import PermissionDecision, passthrough
from hands.core.schema import ToolInput
from hands.core.session import Session
from hands.core.tool import Tool, ToolResult
from hands.permissions.engine import PermissionEngine
from hands.permissions.policy import build_policy
from hands.permissions.rules import PermissionRule, RuleOrigin, parse_rule


@tool(read_only=False)
def add(a: int, b: int) -> int:
    """Add two numbers.

    Args:
        a: the first
        b: the second
    """
    return a + b


@tool(read_only=lambda i: i.b == 0)
def shift(a: int, b: int) -> int:
    """Shift a number.

    Args:
        a: the number
        b: by how much
    """
    return a << b


class GuardInput(ToolInput):
    a: int


class Guard(Tool[GuardInput, int]):
    """A tool with its own check: odd numbers are refused."""

    name = "guard"
    input_model = GuardInput

    async def check_permissions(self, input: GuardInput, ctx: ToolContext) -> PermissionDecision:
        if input.a % 2:
            return PermissionDecision(behavior="deny", message="odd", reason="own check")
        return passthrough()

    async def call(self, input: GuardInput, ctx: ToolContext, progress: Any) -> ToolResult[int]:
        return ToolResult(output=input.a)


def engine(tmp_path: Path, allow: list[str], deny: tuple[str, ...] = ()) -> PermissionEngine:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir(exist_ok=True)
    settings.write_text(json.dumps({"permissions": {"allow": allow, "deny": list(deny)}}))
    return build_policy(tmp_path, trusted=True)


def decide(
    policy: PermissionEngine, t: Tool[Any, Any], data: dict[str, Any], ctx: ToolContext
) -> PermissionDecision:
    async def run() -> PermissionDecision:
        return await policy.decide(t, t.parse_input(data), ctx)

    return anyio.run(run)


def context(tmp_path: Path, mode: Any = "default") -> ToolContext:
    return ToolContext(cwd=tmp_path, session=Session(), permission_mode=mode)


def test_a_tool_that_ignores_its_input_is_decided_once_per_mode(tmp_path: Path) -> None:
    policy = engine(tmp_path, allow=[])
    first = decide(policy, add, {"a": 1, "b": 2}, context(tmp_path))
    again = decide(policy, add, {"a": 5, "b": 6}, context(tmp_path))
    assert first.behavior == "ask"
    assert again is first  # reused, not decided again
    edits = decide(policy, add, {"a": 1, "b": 2}, context(tmp_path, "dontAsk"))
    assert edits.behavior == "deny"  # another mode: decided for that mode
    assert decide(policy, add, {"a": 1, "b": 2}, context(tmp_path)) is first


def test_a_rule_added_is_in_force_for_the_next_call(tmp_path: Path) -> None:
    policy = engine(tmp_path, allow=[])
    ctx = context(tmp_path)
    assert decide(policy, add, {"a": 1, "b": 2}, ctx).behavior == "ask"
    origin = RuleOrigin(scope="session", label="session", root=tmp_path)
    rule = parse_rule("add", "allow", origin)
    assert isinstance(rule, PermissionRule)
    policy.add_rules([rule])
    assert decide(policy, add, {"a": 1, "b": 2}, ctx).behavior == "allow"
    policy.remove_rules([rule])
    assert decide(policy, add, {"a": 1, "b": 2}, ctx).behavior == "ask"


def test_a_rule_on_an_input_field_is_matched_on_every_call(tmp_path: Path) -> None:
    policy = engine(tmp_path, allow=["add"], deny=("add(a:13)",))
    ctx = context(tmp_path)
    answers = [decide(policy, add, {"a": a, "b": 1}, ctx).behavior for a in (1, 13, 2, 13)]
    assert answers == ["allow", "deny", "allow", "deny"]
    assert not policy.index.decisions


@pytest.mark.parametrize("mode", ["default", "acceptEdits"])
def test_an_input_dependent_read_only_flag_is_asked_on_every_call(
    tmp_path: Path, mode: str
) -> None:
    policy = engine(tmp_path, allow=[])
    ctx = context(tmp_path, mode)
    answers = [decide(policy, shift, {"a": 1, "b": b}, ctx).behavior for b in (0, 3, 0, 3)]
    assert answers == ["allow", "ask", "allow", "ask"]


def test_the_tools_own_check_runs_on_every_call(tmp_path: Path) -> None:
    policy = engine(tmp_path, allow=["guard"])
    guard = Guard()
    ctx = context(tmp_path)
    answers = [decide(policy, guard, {"a": a}, ctx).behavior for a in (2, 3, 4, 5)]
    assert answers == ["allow", "deny", "allow", "deny"]


def test_plan_mode_is_decided_afresh_for_each_session(tmp_path: Path) -> None:
    policy = engine(tmp_path, allow=[])
    one, two = context(tmp_path, "plan"), context(tmp_path, "plan")
    first = decide(policy, add, {"a": 1, "b": 2}, one)
    second = decide(policy, add, {"a": 1, "b": 2}, two)
    assert first.behavior == second.behavior == "deny"
    assert str(one.session.directory) in (first.message or "")
    assert str(two.session.directory) in (second.message or "")


def test_reused_decisions_agree_with_a_fresh_engine(tmp_path: Path) -> None:
    allow, deny = ["add", "shift"], ("add(a:13)",)
    shared = engine(tmp_path, allow=allow, deny=deny)
    calls = [
        (t, {"a": a, "b": b}, mode)
        for t in (add, shift)
        for a in (1, 13)
        for b in (0, 2)
        for mode in ("default", "acceptEdits", "dontAsk", "bypassPermissions", "plan")
    ]
    for t, data, mode in calls * 2:
        fresh = engine(tmp_path, allow=allow, deny=deny)
        got = decide(shared, t, data, context(tmp_path, mode))
        want = decide(fresh, t, data, context(tmp_path, mode))
        assert (got.behavior, got.reason) == (want.behavior, want.reason), (t.name, data, mode)
