from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands import tool
from hands.agent.loop import QueryOptions, query
from hands.agent.subagents.progress import SubagentUpdate
from hands.agent.subagents.tool import AgentTool
from hands.core.context import ToolContext
from hands.core.decision import AskRequest, PermissionDecision
from hands.core.limits import Limits
from hands.core.messages import ToolResultBlock, ToolUseBlock
from hands.core.schema import ToolInput
from hands.core.tool import Progress, ReadOnlyTool, ToolResult
from hands.errors import StreamInterruptedError
from hands.models.base import ModelRequest, StreamEvent
from hands.models.facts import facts_for
from hands.orchestration.events import ToolProgressEvent, ToolResultEvent
from hands.pipeline.pool import pool_for
from hands.testing import ScriptedAgents, ScriptedModel

from .support import agent_call, result_of, routed, run_all, text

pytestmark = pytest.mark.anyio


def project(tmp_path: Path) -> Path:
    (tmp_path / "stock.py").write_text("def remove(n):\n    return n + 1  # BUG\n")
    return tmp_path


async def test_the_parent_sees_only_the_agents_final_text(tmp_path: Path) -> None:
    cwd = project(tmp_path)
    model = routed(
        [[agent_call("locate the bug", subagent_type="explore")], [text("Thanks.")]],
        {
            "locate the bug": [
                [{"type": "tool_use", "name": "Grep", "input": {"pattern": "BUG"}}],
                [text("The bug is at stock.py:2.")],
            ]
        },
    )
    options = QueryOptions(model=model, tools=pool_for(extra=[AgentTool()]), cwd=cwd)
    events = await run_all(query("find it", options))
    results = [e for e in events if isinstance(e, ToolResultEvent)]
    assert [r.tool_use.name for r in results] == ["Agent"]
    outcome = results[0].outcome
    assert not outcome.block.is_error, outcome.block.text
    assert "The bug is at stock.py:2." in outcome.block.text
    assert "1 tool use" in outcome.block.text
    # the parent's second request holds its prompt, its call and the one result, no Grep
    assert isinstance(model.main, ScriptedModel)
    second = model.main.requests[1]
    blocks = [b for m in second.messages for b in m.content]
    assert [b.name for b in blocks if isinstance(b, ToolUseBlock)] == ["Agent"]
    assert len([b for b in blocks if isinstance(b, ToolResultBlock)]) == 1
    # the sub-agent's own conversation began with the prompt alone
    route = model.routes["locate the bug"]
    assert isinstance(route, ScriptedModel)
    sub = route.requests[0]
    assert len(sub.messages) == 1 and sub.messages[0].text == "locate the bug"
    assert "read-only" in sub.system
    assert sorted(t.name for t in sub.tools) == sorted(
        t.name for t in pool_for() if not t.edits_files and t.subagent_use == "always"
    )


seen: list[tuple[str, str | None, str]] = []


@tool(read_only=True)
async def probe(label: str, ctx: ToolContext, seconds: float = 0.0) -> str:
    """Record when it runs and in which agent."""
    seen.append(("start", ctx.agent_type, label))
    await anyio.sleep(seconds)
    seen.append(("end", ctx.agent_type, label))
    return f"{label} in {ctx.permission_mode}"


@tool
def mutate(label: str) -> str:
    """A tool that changes something."""
    return f"{label} changed"


class _Empty(ToolInput):
    pass


class _AskUser(ReadOnlyTool[_Empty, str]):
    name = "AskQuestionProbe"
    input_model = _Empty
    subagent_use = "never"

    async def call(self, input: _Empty, ctx: ToolContext, progress: Progress) -> ToolResult[str]:
        return ToolResult(output="asked")


class _LeavePlan(ReadOnlyTool[_Empty, str]):
    name = "LeavePlanProbe"
    input_model = _Empty
    subagent_use = "in_plan_mode"

    async def call(self, input: _Empty, ctx: ToolContext, progress: Progress) -> ToolResult[str]:
        return ToolResult(output="left")


def probe_call(label: str, seconds: float = 0.0) -> dict[str, Any]:
    return {"type": "tool_use", "name": "probe", "input": {"label": label, "seconds": seconds}}


def tools(*extra: Any) -> list[Any]:
    return [probe, mutate, AgentTool(), *extra]


def sub_tool_names(model: ScriptedAgents, key: str) -> set[str]:
    route = model.routes[key]
    assert isinstance(route, ScriptedModel)
    return {t.name for t in route.requests[0].tools}


async def test_unknown_type_and_empty_prompt_are_errors_the_model_can_act_on(
    tmp_path: Path,
) -> None:
    model = routed(
        [[agent_call("x", subagent_type="Nonesuch"), agent_call("  ")], [text("ok")]], {}
    )
    events = await run_all(query("go", QueryOptions(model=model, tools=tools(), cwd=tmp_path)))
    results = [e.outcome.block for e in events if isinstance(e, ToolResultEvent)]
    assert all(b.is_error for b in results)
    assert (
        "Nonesuch" in results[0].text
        and "general-purpose, Explore, Plan, Review" in results[0].text
    )
    assert "prompt is empty" in results[1].text
    assert result_of(events).subtype == "success"


async def test_type_names_match_whatever_the_case_and_separators(tmp_path: Path) -> None:
    model = routed(
        [[agent_call("task one", subagent_type="GENERAL_PURPOSE")], [text("ok")]],
        {"task one": [[text("done")]]},
    )
    events = await run_all(query("go", QueryOptions(model=model, tools=tools(), cwd=tmp_path)))
    block = next(e.outcome.block for e in events if isinstance(e, ToolResultEvent))
    assert not block.is_error and "(general-purpose)" in block.text


async def test_each_type_gets_its_tools_and_read_only_types_change_nothing(
    tmp_path: Path,
) -> None:
    model = routed(
        [
            [
                agent_call("gp task", subagent_type="general-purpose"),
                agent_call("plan task", subagent_type="Plan"),
                agent_call("explore task", subagent_type="Explore"),
            ],
            [text("ok")],
        ],
        {
            "gp task": [
                [{"type": "tool_use", "name": "mutate", "input": {"label": "g"}}],
                [text("g")],
            ],
            "plan task": [[probe_call("p")], [text("p")]],
            "explore task": [
                [{"type": "tool_use", "name": "mutate", "input": {"label": "e"}}],
                [text("e")],
            ],
        },
    )
    options = QueryOptions(
        model=model,
        tools=tools(_AskUser(), _LeavePlan()),
        cwd=tmp_path,
        permission_mode="bypassPermissions",
    )
    events = await run_all(query("go", options))
    gp = sub_tool_names(model, "gp task")
    assert {"probe", "mutate", "Agent"} <= gp
    assert "AskQuestionProbe" not in gp and "LeavePlanProbe" not in gp
    plan = sub_tool_names(model, "plan task")
    assert "LeavePlanProbe" in plan and "AskQuestionProbe" not in plan and "Agent" not in plan
    assert "Agent" not in sub_tool_names(model, "explore task")
    # the general-purpose agent changed something in the caller's mode; Explore could not
    sub_results = {
        key: [b for m in model.routes[key].requests[-1].messages for b in m.content]  # type: ignore[attr-defined]
        for key in ("gp task", "explore task", "plan task")
    }
    gp_result = next(b for b in sub_results["gp task"] if isinstance(b, ToolResultBlock))
    assert gp_result.text == "g changed"
    ex_result = next(b for b in sub_results["explore task"] if isinstance(b, ToolResultBlock))
    assert ex_result.is_error and "read-only" in ex_result.text
    plan_result = next(b for b in sub_results["plan task"] if isinstance(b, ToolResultBlock))
    assert plan_result.text == "p in plan"
    assert result_of(events).subtype == "success"


async def test_agents_nest_only_to_the_depth_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HANDS_MAX_SUBAGENT_DEPTH", "2")
    model = routed(
        [[agent_call("level one", id="toolu_top")], [text("top done")]],
        {
            "level one": [[agent_call("level two", id="toolu_nested")], [text("one done")]],
            "level two": [[text("two done")]],
        },
    )
    events = await run_all(query("go", QueryOptions(model=model, tools=tools(), cwd=tmp_path)))
    assert "Agent" in sub_tool_names(model, "level one")
    assert "Agent" not in sub_tool_names(model, "level two")
    top = next(e.outcome.block for e in events if isinstance(e, ToolResultEvent))
    assert "one done" in top.text
    # nested progress reaches the top under the call that runs each agent
    updates = [
        e.data
        for e in events
        if isinstance(e, ToolProgressEvent) and isinstance(e.data, SubagentUpdate)
    ]
    assert {u.agent_type for u in updates} == {"general-purpose"}
    assert {u.parent_tool_use_id for u in updates} == {"toolu_top", "toolu_nested"}


async def test_parallel_explore_agents_run_at_the_same_time(tmp_path: Path) -> None:
    seen.clear()
    keys = [f"search part {i}" for i in range(3)]
    model = routed(
        [[agent_call(k, subagent_type="Explore") for k in keys], [text("ok")]],
        {k: [[probe_call(k, 0.3)], [text(f"{k} found")]] for k in keys},
    )
    events = await run_all(query("go", QueryOptions(model=model, tools=tools(), cwd=tmp_path)))
    starts = [i for i, s in enumerate(seen) if s[0] == "start"]
    ends = [i for i, s in enumerate(seen) if s[0] == "end"]
    assert len(starts) == 3 and max(starts) < min(ends)  # every probe began before one ended
    assert {s[1] for s in seen} == {"Explore"}
    texts = [e.outcome.block.text for e in events if isinstance(e, ToolResultEvent)]
    assert [t.split("\n")[0] for t in texts] == [f"{k} found" for k in keys]


async def test_the_spawn_past_the_concurrency_limit_is_refused(tmp_path: Path) -> None:
    keys = [f"job number {i:02d}" for i in range(21)]
    model = routed(
        [[agent_call(k, subagent_type="Explore") for k in keys], [text("ok")]],
        {k: [[probe_call(k, 0.5)], [text("done")]] for k in keys},
    )
    options = QueryOptions(
        model=model, tools=tools(), cwd=tmp_path, limits=Limits(max_concurrency=30)
    )
    events = await run_all(query("go", options))
    blocks = [e.outcome.block for e in events if isinstance(e, ToolResultEvent)]
    refused = [b for b in blocks if b.is_error]
    assert len(blocks) == 21 and len(refused) == 1
    assert "limit of 20" in refused[0].text and "Do not retry" in refused[0].text


async def test_a_sub_agents_asks_reach_the_callers_handler(tmp_path: Path) -> None:
    asked: list[tuple[str, str | None, str | None]] = []

    async def ask(request: AskRequest) -> PermissionDecision:
        asked.append((request.tool.name, request.context.agent_type, request.context.agent_id))
        return PermissionDecision(behavior="allow", reason="user")

    model = routed(
        [[agent_call("change it")], [text("ok")]],
        {
            "change it": [
                [{"type": "tool_use", "name": "mutate", "input": {"label": "m"}}],
                [text("did")],
            ]
        },
    )
    options = QueryOptions(model=model, tools=tools(), cwd=tmp_path, ask=ask)
    events = await run_all(query("go", options))
    assert len(asked) == 1
    name, agent_type, agent_id = asked[0]
    assert (name, agent_type) == ("mutate", "general-purpose") and agent_id
    assert result_of(events).subtype == "success"


class _Broken:
    """A model whose streams break after a first text block."""

    def __init__(self, *, retryable: bool, then: ScriptedModel | None = None) -> None:
        self.retryable, self.then, self.calls = retryable, then, 0

    facts = facts_for("scripted")

    @property
    def name(self) -> str:
        return "scripted"

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        self.calls += 1
        if self.then is not None and self.calls > 1:
            async for event in self.then.stream(request):
                yield event
            return
        raise StreamInterruptedError("connection reset mid-turn", retryable=self.retryable)
        yield  # pragma: no cover


async def test_a_broken_sub_agent_stream_is_retried_and_a_failure_is_an_error_result(
    tmp_path: Path,
) -> None:
    healed = _Broken(retryable=True, then=ScriptedModel.from_turns([text("recovered")]))
    dead = _Broken(retryable=False)
    model = ScriptedAgents(
        ScriptedModel.from_turns(
            [agent_call("flaky one"), agent_call("dead one")], [text("parent goes on")]
        ),
        {"flaky one": healed, "dead one": dead},
    )
    options = QueryOptions(model=model, tools=tools(), cwd=tmp_path, stream_retry_delay_s=0)
    events = await run_all(query("go", options))
    blocks = [e.outcome.block for e in events if isinstance(e, ToolResultEvent)]
    assert not blocks[0].is_error and "recovered" in blocks[0].text
    assert blocks[1].is_error and "did not finish" in blocks[1].text
    assert "connection reset" in blocks[1].text
    assert result_of(events).result == "parent goes on"


async def test_a_long_result_is_saved_to_a_file_with_a_preview(tmp_path: Path) -> None:
    model = routed(
        [[agent_call("write a lot")], [text("ok")]], {"write a lot": [[text("x" * 40_000)]]}
    )
    events = await run_all(query("go", QueryOptions(model=model, tools=tools(), cwd=tmp_path)))
    block = next(e.outcome.block for e in events if isinstance(e, ToolResultEvent))
    assert "<persisted-output>" in block.text and len(block.text) < 5_000


async def test_the_sidechain_transcript_holds_the_sub_agents_conversation(tmp_path: Path) -> None:
    model = routed(
        [[agent_call("side task")], [text("ok")]],
        {"side task": [[probe_call("s")], [text("side done")]]},
    )
    q = query("go", QueryOptions(model=model, tools=tools(), cwd=tmp_path))
    await run_all(q)
    files = list((q.session.directory / "subagents").glob("agent-*.jsonl"))
    assert len(files) == 1
    lines = files[0].read_text().splitlines()
    assert len(lines) == 4 and "side task" in lines[0] and "side done" in lines[-1]
    # the parent's conversation has none of it
    assert all("s in default" not in str(m.to_wire()) for m in q.messages)
