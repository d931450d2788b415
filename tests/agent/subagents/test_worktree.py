"""isolation: worktree, a sub-agent in a git worktree of its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hands.agent.loop import QueryOptions, query
from hands.agent.subagents.catalog import AgentCatalog
from hands.agent.subagents.definition import AgentDefinition
from hands.agent.subagents.tool import AgentTool
from hands.core.messages import ToolResultBlock
from hands.core.session import Session
from hands.orchestration.events import ToolResultEvent
from hands.permissions.plan_mode import plan_file
from hands.pipeline.pool import pool_for
from hands.testing import ScriptedAgents, ScriptedModel

from .support import agent_call, git, note_writer_and_looker, repo, routed, run_all, text

pytestmark = pytest.mark.anyio


async def test_worktree_agents_edit_apart_and_a_clean_one_is_removed(tmp_path: Path) -> None:
    checkout = repo(tmp_path / "project")
    options = note_writer_and_looker(checkout)
    events = await run_all(query("go", options))
    blocks = [e.outcome.block for e in events if isinstance(e, ToolResultEvent)]
    assert not blocks[0].is_error, blocks[0].text
    found = re.search(r"worktree: (\S+) \(branch (\S+)\)", blocks[0].text)
    assert found is not None
    tree, branch = Path(found.group(1)), found.group(2)
    assert (tree / "note.txt").read_text() == "hi\n"
    assert not (checkout / "note.txt").exists()  # the user's checkout is untouched
    assert branch in git(checkout, "branch", "--list")
    # the one that changed nothing left no worktree behind
    assert "worktree:" not in blocks[1].text
    listed = git(checkout, "worktree", "list")
    assert str(tree) in listed and len(listed.splitlines()) == 2


async def test_worktree_isolation_outside_a_repository_is_an_error(tmp_path: Path) -> None:
    model = routed([[agent_call("x", isolation="worktree")], [text("ok")]], {})
    options = QueryOptions(model=model, tools=pool_for(extra=[AgentTool()]), cwd=tmp_path)
    events = await run_all(query("go", options))
    block = next(e.outcome.block for e in events if isinstance(e, ToolResultEvent))
    assert block.is_error and "needs a git repository" in block.text


async def test_worktree_isolation_is_refused_in_plan_mode(tmp_path: Path) -> None:
    checkout = repo(tmp_path / "project")
    model = routed([[agent_call("x", isolation="worktree")], [text("ok")]], {})
    options = QueryOptions(
        model=model, tools=pool_for(extra=[AgentTool()]), cwd=checkout, permission_mode="plan"
    )
    events = await run_all(query("go", options))
    block = next(e.outcome.block for e in events if isinstance(e, ToolResultEvent))
    assert block.is_error and "A worktree cannot be made in plan mode" in block.text
    assert git(checkout, "branch", "--list").split() == ["*", "main"]  # no branch was made
    assert git(checkout, "worktree", "list").count("\n") == 1  # nor a worktree


async def test_a_sub_agent_and_a_worktree_sub_agent_get_the_same_plan_mode_answers(
    tmp_path: Path,
) -> None:
    """Plan mode is decided in one place: the same calls get the same answers in both."""
    checkout = repo(tmp_path / "project")
    session = Session(home=tmp_path / "home")
    plan = plan_file(session)
    plan.parent.mkdir(parents=True)
    plan.write_text("draft\n")
    planner = AgentDefinition(
        name="planner",
        description="plans",
        system_prompt="Plan.",
        tools=("Read", "Write"),
        permission_mode="plan",
    )

    def planning() -> ScriptedModel:
        calls = [
            ("Read", {"file_path": str(plan)}),
            ("Write", {"file_path": str(plan), "content": "the plan\n"}),
            ("Write", {"file_path": "new.txt", "content": "changed\n"}),
        ]
        turn = [{"type": "tool_use", "name": n, "input": i} for n, i in calls]
        return ScriptedModel.from_turns(turn, [text("planned")])

    here, there = planning(), planning()
    model = ScriptedAgents(
        ScriptedModel.from_turns(
            [agent_call("plan here", subagent_type="planner")],
            [agent_call("plan in a tree", subagent_type="planner", isolation="worktree")],
            [text("ok")],
        ),
        {"plan here": here, "plan in a tree": there},
    )
    options = QueryOptions(
        model=model,
        tools=pool_for(extra=[AgentTool(AgentCatalog([planner]))]),
        cwd=checkout,
        session=session,
    )
    events = await run_all(query("go", options))
    spawned = [e.outcome.block for e in events if isinstance(e, ToolResultEvent)]
    assert [b.is_error for b in spawned] == [False, False], [b.text for b in spawned]

    def answers(sub: ScriptedModel) -> list[tuple[bool, str]]:
        results = [
            b for b in sub.requests[1].messages[-1].content if isinstance(b, ToolResultBlock)
        ]
        return [(r.is_error, r.text if r.is_error else "") for r in results]

    assert answers(here) == answers(there)
    assert [error for error, _ in answers(here)] == [False, False, True]
    assert "plan mode" in answers(here)[2][1] and str(plan) in answers(here)[2][1]
    assert plan.read_text() == "the plan\n"  # both wrote the one plan file of the session
    assert not (checkout / "new.txt").exists()
    assert git(checkout, "worktree", "list").count("\n") == 1  # the tree changed nothing
