from __future__ import annotations

from pathlib import Path

from hands.core.context import ToolContext
from hands.core.session import Session


def test_resolve_leaves_an_unknown_users_home_as_a_relative_path(tmp_path: Path) -> None:
    ctx = ToolContext(cwd=tmp_path, session=Session())
    assert ctx.resolve("~nosuchuser-7f3a/a") == tmp_path / "~nosuchuser-7f3a/a"
    assert ctx.resolve("~/a") == Path.home() / "a"


def test_for_call_copies_every_field_but_the_call_id_policy_and_approved_mode(
    tmp_path: Path,
) -> None:
    import dataclasses

    from hands.permissions.simple import SimplePolicy

    first, second = SimplePolicy(), SimplePolicy()
    values = {
        "cwd": tmp_path,
        "session": Session(),
        "project_dir": tmp_path.parent,
        "additional_dirs": (tmp_path / "x",),
        "permission_mode": "acceptEdits",
        "tool_use_id": "old",
        "agent_id": "agent-1",
        "agent_type": "Explore",
        "host": object(),
        "policy": first,
        "approved_mode": "plan",
        "turn_allow": ("Bash(ls:*)",),
    }
    assert set(values) == {f.name for f in dataclasses.fields(ToolContext)}
    ctx = ToolContext(**values)  # type: ignore[arg-type]
    copied = ctx.for_call("new")
    assert copied == dataclasses.replace(ctx, tool_use_id="new", approved_mode=None)
    assert copied.policy is first and copied.session is ctx.session
    assert ctx.for_call("new", policy=second).policy is second
    assert ctx.tool_use_id == "old" and ctx.approved_mode == "plan"
