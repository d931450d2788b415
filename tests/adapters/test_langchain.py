"""LangChain's create_agent and LangGraph's ToolNode run hands' tools, with a fake chat model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("langgraph")
pytest.importorskip("langchain")

from adapter_scenario import (
    MAKE_FILE,
    Step,
    check_before_approval,
    make_project,
    project_with_counting_hook,
    toolbox_with_mcp,
    turns,
)
from framework_models import CONFIG, ScriptedChat, script, seen_by_model
from langchain.agents import create_agent
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from hands.adapters.langchain import hands_tools
from hands.adapters.toolbox import Toolbox


def test_a_run_reads_edits_is_blocked_calls_mcp_and_pauses_for_approval(tmp_path: Path) -> None:
    project = make_project(tmp_path)

    async def go() -> None:
        async with toolbox_with_mcp(project) as box:
            model = ScriptedChat(messages=script(turns(project)))
            agent = create_agent(model, tools=hands_tools(box), checkpointer=InMemorySaver())
            first = await agent.ainvoke({"messages": [HumanMessage("fix the bug")]}, CONFIG)
            (pause,) = first["__interrupt__"]
            assert pause.value["type"] == "permission" and pause.value["tool"] == "Bash"
            assert pause.value["input"] == {"command": MAKE_FILE}
            check_before_approval(project, seen_by_model(first["messages"]))
            last = await agent.ainvoke(Command(resume=True), CONFIG)
            assert last["messages"][-1].content == "done"
            assert project.made.read_text() == "x"
            assert not seen_by_model(last["messages"])["c7"][1]

    anyio.run(go)


def test_a_refused_call_is_not_run_and_the_sync_path_works(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    box = Toolbox(cwd=project.root, trusted=True)
    steps = [
        [Step(id="s1", name="Bash", input={"command": "echo one; echo two"})],
        [Step(id="s2", name="Bash", input={"command": MAKE_FILE})],
    ]
    agent = create_agent(
        ScriptedChat(messages=script(steps)), tools=hands_tools(box), checkpointer=InMemorySaver()
    )
    chunks: list[Any] = []
    for mode, chunk in agent.stream(
        {"messages": [HumanMessage("go")]}, CONFIG, stream_mode=["custom", "updates"]
    ):
        if mode == "custom":
            chunks.append(chunk)
    # Bash's output reached the graph's custom stream while the command ran
    assert any(c["tool"] == "Bash" and "one" in str(c["data"]) for c in chunks)
    state = agent.get_state(CONFIG)
    assert state.interrupts and state.interrupts[0].value["tool"] == "Bash"
    final = agent.invoke(Command(resume=False), CONFIG)
    seen = seen_by_model(final["messages"])
    assert seen["s1"] == ("one\ntwo", False)
    text, is_error = seen["s2"]
    assert is_error and "not run" in text
    assert not project.made.exists()
    assert final["messages"][-1].content == "done"
    anyio.run(box.aclose)


@pytest.mark.parametrize("asynchronous", [True, False])
def test_a_call_that_needed_approval_runs_its_pre_tool_use_hook_once(
    tmp_path: Path, asynchronous: bool
) -> None:
    root, log = project_with_counting_hook(tmp_path)
    box = Toolbox(cwd=root, trusted=True)
    steps = [[Step(id="h1", name="Bash", input={"command": MAKE_FILE})]]
    agent = create_agent(
        ScriptedChat(messages=script(steps)), tools=hands_tools(box), checkpointer=InMemorySaver()
    )

    async def run_async() -> Any:
        first = await agent.ainvoke({"messages": [HumanMessage("go")]}, CONFIG)
        assert first["__interrupt__"]
        return await agent.ainvoke(Command(resume=True), CONFIG)

    if asynchronous:
        final = anyio.run(run_async)
    else:
        assert agent.invoke({"messages": [HumanMessage("go")]}, CONFIG)["__interrupt__"]
        final = agent.invoke(Command(resume=True), CONFIG)
    assert final["messages"][-1].content == "done"
    assert (root / "made.txt").read_text() == "x"
    anyio.run(box.aclose)
    assert log.read_text().splitlines() == [MAKE_FILE]
