"""The OpenAI Agents SDK runs an agent whose tools are hands' tools, with a scripted model."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

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
from agents.items import ModelResponse, TResponseStreamEvent
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from hands.adapters.openai_agents import hands_tools
from hands.adapters.toolbox import Toolbox


class ScriptedModel(Model):
    """Answers each request with the next message of tool calls, then with text."""

    def __init__(self, messages: list[list[Step]]) -> None:
        self.messages = messages
        self.seen: dict[str, tuple[str, bool]] = {}
        self.tool_names: list[list[str]] = []

    async def get_response(
        self,
        system_instructions: Any,
        input: Any,
        model_settings: Any,
        tools: Any,
        *args: Any,
        **kwargs: Any,
    ) -> ModelResponse:
        self.tool_names.append([t.name for t in tools])
        for item in input if isinstance(input, list) else ():
            entry: dict[str, Any] = item if isinstance(item, dict) else {}  # type: ignore[assignment]
            if entry.get("type") == "function_call_output":
                output = entry["output"]
                text = (
                    output
                    if isinstance(output, str)
                    else "".join(p.get("text", "") for p in output)
                )
                # hands' error results are plain strings; successes are typed text parts
                self.seen[entry["call_id"]] = (text, isinstance(output, str))
        if not self.messages:
            text = ResponseOutputText(type="output_text", text="done", annotations=[])
            message = ResponseOutputMessage(
                id="m", type="message", role="assistant", status="completed", content=[text]
            )
            return ModelResponse(output=[message], usage=Usage(), response_id=None)
        calls = [
            ResponseFunctionToolCall(
                id=f"fc_{s.id}",
                call_id=s.id,
                name=s.name,
                arguments=json.dumps(s.input),
                type="function_call",
                status="completed",
            )
            for s in self.messages.pop(0)
        ]
        return ModelResponse(output=list(calls), usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[TResponseStreamEvent]:
        raise NotImplementedError


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
