"""isolation: worktree, a sub-agent in a git worktree of its own."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from hands.agent.loop import QueryOptions, query
from hands.agent.subagents.tool import AgentTool
from hands.orchestration.events import ToolResultEvent
from hands.pipeline.pool import pool_for

from .support import agent_call, routed, run_all, text

pytestmark = pytest.mark.anyio


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


def repo(path: Path) -> Path:
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "a.txt").write_text("one\n")
    git(path, "add", ".")
    git(path, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "start")
    return path


async def test_worktree_agents_edit_apart_and_a_clean_one_is_removed(tmp_path: Path) -> None:
    checkout = repo(tmp_path / "project")
    model = routed(
        [
            [
                agent_call("write the note", isolation="worktree"),
                agent_call("only look", isolation="worktree"),
            ],
            [text("ok")],
        ],
        {
            "write the note": [
                [{"type": "tool_use", "name": "Bash", "input": {"command": "echo hi > note.txt"}}],
                [text("wrote it")],
            ],
            "only look": [[text("looked")]],
        },
    )
    options = QueryOptions(
        model=model,
        tools=pool_for(extra=[AgentTool()]),
        cwd=checkout,
        permission_mode="bypassPermissions",
    )
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
