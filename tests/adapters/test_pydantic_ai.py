"""pydantic-ai's own FunctionModel drives an agent whose tools are hands' tools."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("pydantic_ai")

from adapter_scenario import (
    CALL_ECHO,
    FIND_ECHO,
    MAKE_FILE,
    Step,
    check_before_approval,
    make_project,
    project_with_counting_hook,
    toolbox_with_deferred_mcp,
    toolbox_with_mcp,
    turns,
)
from framework_models import Script
from pydantic_ai import Agent, DeferredToolRequests, DeferredToolResults
from pydantic_ai.models.function import FunctionModel

from hands.adapters.pydantic_ai import HandsToolset
from hands.adapters.toolbox import Toolbox


def test_a_run_reads_edits_is_blocked_calls_mcp_and_pauses_for_approval(tmp_path: Path) -> None:
    project = make_project(tmp_path)

    async def go() -> None:
        async with toolbox_with_mcp(project) as box:
            script = Script(turns(project))
            toolset = HandsToolset(box)
            agent = Agent(
                FunctionModel(script), toolsets=[toolset], output_type=[str, DeferredToolRequests]
            )
            first = await agent.run("fix the bug")
            assert isinstance(first.output, DeferredToolRequests)
            assert [c.tool_call_id for c in first.output.approvals] == ["c7"]
            assert "Bash" in first.output.metadata["c7"]["message"]
            check_before_approval(project, script.seen)
            # Read, Grep, Edit, Bash are all offered; Bash is not "sequential" (some of its
            # calls are concurrency-safe) — hands' own gate orders its calls
            assert {"Read", "Grep", "Edit", "Bash", "mcp__demo__echo"} <= set(script.tool_names[0])

            second = await agent.run(
                message_history=first.all_messages(),
                deferred_tool_results=DeferredToolResults(approvals={"c7": True}),
            )
            assert second.output == "done"
            assert project.made.read_text() == "x"
            assert not script.seen["c7"][1]

    anyio.run(go)


async def make_file_answered(root: Path, approved: bool) -> tuple[Script, str]:
    """A run that asks to make a file, answered; (the model's script, the final output)."""
    script = Script([[Step(id="b1", name="Bash", input={"command": MAKE_FILE})]])
    async with HandsToolset(Toolbox(cwd=root, trusted=True)) as toolset:
        agent = Agent(
            FunctionModel(script), toolsets=[toolset], output_type=[str, DeferredToolRequests]
        )
        first = await agent.run("make a file")
        assert isinstance(first.output, DeferredToolRequests)
        second = await agent.run(
            message_history=first.all_messages(),
            deferred_tool_results=DeferredToolResults(approvals={"b1": approved}),
        )
    return script, str(second.output)


def test_a_call_that_needed_approval_runs_its_pre_tool_use_hook_once(tmp_path: Path) -> None:
    root, log = project_with_counting_hook(tmp_path)
    _, output = anyio.run(make_file_answered, root, True)
    assert output == "done" and (root / "made.txt").read_text() == "x"
    assert log.read_text().splitlines() == [MAKE_FILE]


def test_a_denied_call_is_not_run(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    script, output = anyio.run(make_file_answered, project.root, False)
    assert output == "done"
    assert not project.made.exists()
    assert script.seen["b1"][0]  # the model was told the call was denied


def test_tools_that_never_run_alongside_others_are_sequential(tmp_path: Path) -> None:
    project = make_project(tmp_path)

    async def go() -> None:
        toolset = HandsToolset(cwd=project.root, trusted=True)
        tools: dict[str, Any] = await toolset.get_tools(None)  # type: ignore[arg-type]
        assert tools["Edit"].tool_def.sequential and tools["Write"].tool_def.sequential
        assert not tools["Read"].tool_def.sequential and not tools["Bash"].tool_def.sequential
        assert tools["Read"].tool_def.parameters_json_schema["required"] == ["file_path"]
        await toolset.aclose()

    anyio.run(go)


def test_a_deferred_mcp_tool_is_offered_once_tool_search_finds_it(tmp_path: Path) -> None:
    project = make_project(tmp_path)

    async def go() -> None:
        async with toolbox_with_deferred_mcp(project) as box:
            script = Script([[FIND_ECHO], [CALL_ECHO]])
            agent = Agent(FunctionModel(script), toolsets=[HandsToolset(box)])
            run = await agent.run("echo")
            assert run.output == "done"
            assert "ToolSearch" in script.tool_names[0]
            assert "mcp__demo__echo" not in script.tool_names[0]
            assert "mcp__demo__echo" in script.tool_names[1]
            # the deferred tools are listed where the model looks for them
            assert "mcp__demo__echo" in script.search_description
            assert script.seen["d2"] == ("found", False)

    anyio.run(go)
