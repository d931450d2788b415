"""isolation: worktree with WorktreeCreate / WorktreeRemove hooks: the hook makes the tree.

A sub-agent's hook-made worktree is removed at the end (through the WorktreeRemove hook)
only when git shows it clean at the commit it started from; otherwise it is kept.
"""

from __future__ import annotations

import json
import re
import shutil
import stat
from pathlib import Path
from typing import Any

import pytest

from hands.agent.loop import QueryOptions, query
from hands.agent.subagents.tool import AgentTool
from hands.core.messages import ToolResultBlock
from hands.hooks.callbacks import HookCallbacks
from hands.hooks.config import parse_hooks
from hands.hooks.engine import HookEngine
from hands.orchestration.events import ToolResultEvent
from hands.pipeline.pool import pool_for

from .support import agent_call, note_writer_and_looker, repo, routed, run_all, text

pytestmark = pytest.mark.anyio


def script(path: Path, body: str) -> str:
    path.write_text("#!/bin/bash\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def logged(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def results(events: list[Any]) -> list[ToolResultBlock]:
    return [e.outcome.block for e in events if isinstance(e, ToolResultEvent)]


async def test_the_hook_makes_each_agents_tree_and_removes_the_clean_one(tmp_path: Path) -> None:
    checkout = repo(tmp_path / "project")
    places = tmp_path / "places"
    reader = "import json,sys; d=json.load(sys.stdin); print(d.get('name') or d['worktree_path'])"
    common = f'input=$(cat)\nvalue=$(printf "%s" "$input" | python3 -c "{reader}")\n'
    create = script(
        tmp_path / "create.sh",
        common + f'printf "%s\\n" "$input" >> {tmp_path}/create.jsonl\n'
        f'git worktree add -q -b "wt-$value" "{places}/$value" HEAD >&2\n'
        f'echo "{places}/$value"\n',
    )
    remove = script(
        tmp_path / "remove.sh",
        common + f'printf "%s\\n" "$input" >> {tmp_path}/remove.jsonl\n'
        'git worktree remove --force "$value" >&2\n',
    )
    hooks = {
        "WorktreeCreate": [{"hooks": [{"type": "command", "command": create}]}],
        "WorktreeRemove": [{"hooks": [{"type": "command", "command": remove}]}],
    }
    engine = HookEngine(parse_hooks([("test settings", hooks)]))
    options = note_writer_and_looker(checkout, engine)
    wrote, looked = results(await run_all(query("go", options)))
    assert not wrote.is_error and not looked.is_error, (wrote.text, looked.text)
    made = logged(tmp_path / "create.jsonl")
    assert [m["hook_event_name"] for m in made] == ["WorktreeCreate"] * 2
    assert all(m["cwd"] == str(checkout) for m in made)
    found = re.search(r"worktree: (\S+) \(branch (\S+)\)", wrote.text)
    assert found is not None, wrote.text
    kept = Path(found.group(1))
    assert kept.parent == places and found.group(2) == f"wt-{kept.name}"
    assert (kept / "note.txt").read_text() == "hi\n" and not (checkout / "note.txt").exists()
    assert "worktree:" not in looked.text
    (removed,) = logged(tmp_path / "remove.jsonl")  # the clean one only
    assert removed["hook_event_name"] == "WorktreeRemove"
    gone = Path(removed["worktree_path"])
    assert gone.parent == places and gone != kept and not gone.exists()
    assert {m["name"] for m in made} == {kept.name, gone.name}


async def test_a_python_hook_answers_the_path_and_a_failing_hook_fails_the_agent(
    tmp_path: Path,
) -> None:
    """Not git at all: the callback copies the folder and answers worktreePath as JSON."""
    project = tmp_path / "plain"
    project.mkdir()
    (project / "a.txt").write_text("one\n")
    copies = tmp_path / "copies"
    names: list[str] = []
    callbacks = HookCallbacks()

    def make(data: dict[str, Any]) -> dict[str, Any]:
        names.append(data["name"])
        if len(names) > 1:
            return {"decision": "block", "reason": "the copy store is full"}
        target = copies / data["name"]
        shutil.copytree(data["cwd"], target)
        return {"hookSpecificOutput": {"hookEventName": "WorktreeCreate",
                                       "worktreePath": str(target)}}  # fmt: skip

    callbacks.add("WorktreeCreate", make)
    model = routed(
        [
            [agent_call("edit the copy", isolation="worktree")],
            [agent_call("again", isolation="worktree")],
            [text("ok")],
        ],
        {
            "edit the copy": [
                [{"type": "tool_use", "name": "Bash", "input": {"command": "echo two >> a.txt"}}],
                [text("edited")],
            ],
            "again": [[text("never runs")]],
        },
    )
    options = QueryOptions(
        model=model,
        tools=pool_for(extra=[AgentTool()]),
        cwd=project,
        permission_mode="bypassPermissions",
        hooks=HookEngine(parse_hooks([]), callbacks=callbacks),
    )
    edited, refused = results(await run_all(query("go", options)))
    copy = copies / names[0]
    assert not edited.is_error, edited.text
    assert f"worktree: {copy}" in edited.text  # kept: nothing tells it is clean
    assert (copy / "a.txt").read_text() == "one\ntwo\n"
    assert (project / "a.txt").read_text() == "one\n"
    assert refused.is_error and "the copy store is full" in refused.text
    assert len(names) == 2 and not (copies / names[1]).exists()


async def test_a_sub_agents_own_isolated_agent_reaches_the_sessions_hook(tmp_path: Path) -> None:
    """The sub-agent's loop sees the session's hooks through its view of them."""
    checkout = repo(tmp_path / "project")
    made: list[dict[str, Any]] = []
    callbacks = HookCallbacks()

    def make(data: dict[str, Any]) -> dict[str, Any]:
        made.append(data)
        target = tmp_path / "trees" / data["name"]
        shutil.copytree(data["cwd"], target, ignore=shutil.ignore_patterns(".git"))
        return {"hookSpecificOutput": {"hookEventName": "WorktreeCreate",
                                       "worktreePath": str(target)}}  # fmt: skip

    callbacks.add("WorktreeCreate", make)
    model = routed(
        [[agent_call("delegate")], [text("ok")]],
        {
            "delegate": [[agent_call("nested work", isolation="worktree")], [text("delegated")]],
            "nested work": [[text("nested done")]],
        },
    )
    options = QueryOptions(
        model=model,
        tools=pool_for(extra=[AgentTool()]),
        cwd=checkout,
        permission_mode="bypassPermissions",
        hooks=HookEngine(parse_hooks([]), callbacks=callbacks),
    )
    (top,) = results(await run_all(query("go", options)))
    assert not top.is_error and "delegated" in top.text, top.text
    (call,) = made
    assert call["agent_id"] and call["cwd"] == str(checkout)  # fired from inside the sub-agent
    assert (tmp_path / "trees" / call["name"] / "a.txt").read_text() == "one\n"
