"""Through each framework that asks "does this call need approval?" before running it
(openai-agents' ``needs_approval``, LangGraph's pause before the work): input that does
not validate is reported to the model, and no PreToolUse hook sees it, as in hands' own
loop. A valid call of the same message reaches the hook once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from adapter_scenario import Step, project_with_counting_hook

STEPS = [
    Step(id="v1", name="Bash", input={"command": ["ls"]}),  # not a string: invalid
    Step(id="v2", name="Bash", input={"command": "echo valid", "timeout": -5}),  # out of range
    Step(id="v3", name="Bash", input={"command": "echo valid"}),
]


async def through_openai_agents(root: Path) -> dict[str, tuple[str, bool]]:
    from agents import Agent, Runner
    from framework_models import ScriptedModel

    from hands.adapters.openai_agents import hands_tools
    from hands.adapters.toolbox import Toolbox

    async with Toolbox(cwd=root, trusted=True) as box:
        model = ScriptedModel([STEPS])
        agent = Agent(name="coder", model=model, tools=list(hands_tools(box)))
        run = await Runner.run(agent, "go")
        assert not run.interruptions and run.final_output == "done"
        return model.seen


async def through_langgraph(root: Path) -> dict[str, tuple[str, bool]]:
    from framework_models import CONFIG, ScriptedChat, script, seen_by_model
    from langchain.agents import create_agent
    from langchain_core.messages import HumanMessage
    from langgraph.checkpoint.memory import InMemorySaver

    from hands.adapters.langchain import hands_tools
    from hands.adapters.toolbox import Toolbox

    async with Toolbox(cwd=root, trusted=True) as box:
        chat = ScriptedChat(messages=script([STEPS]))
        agent: Any = create_agent(chat, tools=hands_tools(box), checkpointer=InMemorySaver())
        state = await agent.ainvoke({"messages": [HumanMessage("go")]}, CONFIG)
        assert state["messages"][-1].content == "done"
        return seen_by_model(state["messages"])


FRAMEWORKS = {
    "openai-agents": ("agents", through_openai_agents),
    "langgraph": ("langgraph", through_langgraph),
}


@pytest.mark.parametrize("framework", list(FRAMEWORKS))
def test_invalid_input_is_reported_and_no_pre_tool_use_hook_sees_it(
    tmp_path: Path, framework: str
) -> None:
    module, through = FRAMEWORKS[framework]
    pytest.importorskip(module)
    root, log = project_with_counting_hook(tmp_path)
    seen = anyio.run(through, root)
    for invalid in ("v1", "v2"):
        text, is_error = seen[invalid]
        assert is_error and "Bash" in text, (invalid, text)
    text, is_error = seen["v3"]
    assert text.strip() == "valid" and not is_error
    assert log.read_text().splitlines() == ["echo valid"]  # the hook saw only the valid call
