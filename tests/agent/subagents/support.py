"""Scripted parents and sub-agents for the sub-agent tests."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hands.agent.events import QueryEvent, ResultEvent
from hands.agent.loop import Query, QueryOptions
from hands.agent.subagents.tool import AgentTool
from hands.core.hooks import ToolHooks
from hands.pipeline.pool import pool_for
from hands.testing import ScriptedAgents, ScriptedModel

Turn = Sequence[Mapping[str, Any]]


def agent_call(
    prompt: str, *, subagent_type: str | None = None, id: str | None = None, **extra: Any
) -> dict[str, Any]:
    """A tool_use block of Agent: in the foreground unless ``run_in_background`` says so."""
    data: dict[str, Any] = {
        "description": "a task",
        "prompt": prompt,
        "run_in_background": False,
        **extra,
    }
    if subagent_type is not None:
        data["subagent_type"] = subagent_type
    block: dict[str, Any] = {"type": "tool_use", "name": "Agent", "input": data}
    if id is not None:
        block["id"] = id
    return block


def text(value: str) -> dict[str, Any]:
    """A text block."""
    return {"type": "text", "text": value}


def agents(main: Sequence[Turn], **routes: Sequence[Turn]) -> ScriptedAgents:
    """A model serving the main agent's turns and, per prompt phrase, a sub-agent's."""
    return ScriptedAgents(
        ScriptedModel.from_turns(*main),
        {key.replace("_", " "): ScriptedModel.from_turns(*turns) for key, turns in routes.items()},
    )


def routed(main: Sequence[Turn], routes: Mapping[str, Sequence[Turn]]) -> ScriptedAgents:
    """As :func:`agents`, with the phrases given as they are."""
    return ScriptedAgents(
        ScriptedModel.from_turns(*main),
        {key: ScriptedModel.from_turns(*turns) for key, turns in routes.items()},
    )


async def run_all(q: Query) -> list[QueryEvent]:
    """Every event of the query."""
    return [event async for event in q]


def result_of(events: Sequence[QueryEvent]) -> ResultEvent:
    """The query's result event."""
    found = [e for e in events if isinstance(e, ResultEvent)]
    assert len(found) == 1
    return found[0]


def git(cwd: Path, *args: str) -> str:
    """Run git in ``cwd``; its stdout."""
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


def repo(path: Path) -> Path:
    """A new git repository at ``path`` with one commit of ``a.txt``."""
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "a.txt").write_text("one\n")
    git(path, "add", ".")
    git(path, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "start")
    return path


def note_writer_and_looker(checkout: Path, hooks: ToolHooks | None = None) -> QueryOptions:
    """Two worktree sub-agents at once: one writes note.txt, the other only looks."""
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
    return QueryOptions(
        model=model,
        tools=pool_for(extra=[AgentTool()]),
        cwd=checkout,
        permission_mode="bypassPermissions",
        hooks=hooks,
    )
