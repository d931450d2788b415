"""Scripted parents and sub-agents for the sub-agent tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hands.agent.events import QueryEvent, ResultEvent
from hands.agent.loop import Query
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
