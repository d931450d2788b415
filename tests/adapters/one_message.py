"""One model message of tool calls through each framework that runs them as tasks of its
own (openai-agents, LangGraph), with the framework's own test model; what the model saw
of each call comes back as ``{call id: (text, is_error)}``."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from adapter_scenario import Step

Seen = dict[str, tuple[str, bool]]


async def through_openai_agents(root: Path, steps: list[Step]) -> Seen:
    from agents import Agent, Runner
    from framework_models import ScriptedModel

    from hands.adapters.openai_agents import hands_tools
    from hands.adapters.toolbox import Toolbox

    async with Toolbox(cwd=root, trusted=True) as box:
        model = ScriptedModel([steps])
        agent = Agent(name="coder", model=model, tools=list(hands_tools(box)))
        run = await Runner.run(agent, "go")
        assert not run.interruptions and run.final_output == "done"
        return model.seen


async def through_langgraph(root: Path, steps: list[Step], *, sync: bool = False) -> Seen:
    from framework_models import CONFIG, ScriptedChat, script, seen_by_model
    from langchain.agents import create_agent
    from langchain_core.messages import HumanMessage
    from langgraph.checkpoint.memory import InMemorySaver

    from hands.adapters.langchain import hands_tools
    from hands.adapters.toolbox import Toolbox

    async with Toolbox(cwd=root, trusted=True) as box:
        chat = ScriptedChat(messages=script([steps]))
        agent: Any = create_agent(chat, tools=hands_tools(box), checkpointer=InMemorySaver())
        start = {"messages": [HumanMessage("go")]}
        # synchronously, the graph runs each call in a thread of its own
        state = agent.invoke(start, CONFIG) if sync else await agent.ainvoke(start, CONFIG)
        assert state["messages"][-1].content == "done"
        return seen_by_model(state["messages"])


Through = Callable[[Path, list[Step]], Awaitable[Seen]]

FRAMEWORKS: dict[str, tuple[str, Through]] = {
    "openai-agents": ("agents", through_openai_agents),
    "langgraph": ("langgraph", through_langgraph),
    "langgraph-sync": ("langgraph", functools.partial(through_langgraph, sync=True)),
}
"""Name → (the module the framework needs, the run)."""
