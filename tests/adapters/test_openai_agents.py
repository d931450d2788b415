"""The OpenAI Agents SDK runs an agent whose tools are hands' tools, with a scripted model."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

pytest.importorskip("agents")

from adapter_scenario import (
    CALL_ECHO,
    FIND_ECHO,
    MAKE_FILE,
    Step,
    check_before_approval,
    make_project,
    toolbox_with_deferred_mcp,
    toolbox_with_mcp,
    turns,
)
from agents import Agent, Runner
from framework_models import ScriptedModel

from hands.adapters.openai_agents import hands_tools
from hands.adapters.toolbox import Toolbox


def test_a_run_reads_edits_is_blocked_calls_mcp_and_pauses_for_approval(tmp_path: Path) -> None:
    project = make_project(tmp_path)

    async def go() -> None:
        async with toolbox_with_mcp(project) as box:
            model = ScriptedModel(turns(project))
            agent = Agent(name="coder", model=model, tools=list(hands_tools(box)))
            first = await Runner.run(agent, "fix the bug")
            assert [item.raw_item.call_id for item in first.interruptions] == ["c7"]  # type: ignore[union-attr]
            check_before_approval(project, model.seen)
            assert {"Read", "Grep", "Edit", "Bash", "mcp__demo__echo"} <= set(model.tool_names[0])
            state = first.to_state()
            for item in first.interruptions:
                state.approve(item)
            second = await Runner.run(agent, state)
            assert second.final_output == "done"
            assert project.made.read_text() == "x"
            assert not model.seen["c7"][1]

    anyio.run(go)


def test_a_rejected_call_is_not_run(tmp_path: Path) -> None:
    project = make_project(tmp_path)

    async def go() -> None:
        box = Toolbox(cwd=project.root, trusted=True)
        model = ScriptedModel([[Step(id="b1", name="Bash", input={"command": MAKE_FILE})]])
        agent = Agent(name="coder", model=model, tools=list(hands_tools(box)))
        first = await Runner.run(agent, "make a file")
        assert len(first.interruptions) == 1
        state = first.to_state()
        state.reject(first.interruptions[0])
        second = await Runner.run(agent, state)
        assert second.final_output == "done"
        assert not project.made.exists()
        assert model.seen["b1"][0]
        await box.aclose()

    anyio.run(go)


def test_a_call_allowed_by_rule_is_never_interrupted(tmp_path: Path) -> None:
    project = make_project(tmp_path)

    async def go() -> None:
        box = Toolbox(cwd=project.root, trusted=True)
        model = ScriptedModel([[Step(id="r1", name="Bash", input={"command": "ls"})]])
        agent = Agent(name="coder", model=model, tools=list(hands_tools(box)))
        run = await Runner.run(agent, "list")
        assert not run.interruptions and run.final_output == "done"
        assert "calc.py" in model.seen["r1"][0]
        await box.aclose()

    anyio.run(go)


def test_a_deferred_mcp_tool_is_enabled_once_tool_search_finds_it(tmp_path: Path) -> None:
    project = make_project(tmp_path)

    async def go() -> None:
        async with toolbox_with_deferred_mcp(project) as box:
            model = ScriptedModel([[FIND_ECHO], [CALL_ECHO]])
            agent = Agent(name="coder", model=model, tools=list(hands_tools(box)))
            run = await Runner.run(agent, "echo")
            assert run.final_output == "done"
            assert "ToolSearch" in model.tool_names[0]
            assert "mcp__demo__echo" not in model.tool_names[0]
            assert "mcp__demo__echo" in model.tool_names[1]
            assert model.seen["d2"] == ("found", False)

    anyio.run(go)
