"""Two calls of one model message that may not run alongside others run alone and in the
message's order, through each framework's real agent loop and its own test model.

The frameworks start every call of a message as a task of its own. The project's
PreToolUse hook holds the first call until the second call's hook has run, so the second
is ready first; hands must still run the first before it, and never both at once. Each
run is repeated: the order must hold every time. (pydantic-ai hands a call over before its
hooks run, so its calls reach hands' gate in the message's order by themselves.)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from adapter_scenario import Step
from one_message import FRAMEWORKS

RUNS = 20

_HOOK = """
import json, os, sys, time
command = json.load(sys.stdin)["tool_input"].get("command", "")
marks = sys.argv[1]
if "second" in command:
    open(os.path.join(marks, command.split()[1] + ".ready"), "w").close()
elif "first" in command:
    # hold the first call until the second one's hook has run (it is then ready first)
    ready = os.path.join(marks, command.split()[1].replace("first", "second") + ".ready")
    deadline = time.monotonic() + 30
    while not os.path.exists(ready) and time.monotonic() < deadline:
        time.sleep(0.01)
"""


def ordered_project(tmp_path: Path, *, ask: tuple[str, ...] = ()) -> tuple[Path, Path]:
    """A project that allows Bash and its writes (but ``ask``), with the holding hook;
    (root, the marks folder)."""
    root = tmp_path / "project"
    marks = tmp_path / "marks"
    (root / ".claude").mkdir(parents=True)
    marks.mkdir()
    hook = root / ".claude" / "hold_first.py"
    hook.write_text(_HOOK)
    settings = {
        "permissions": {"allow": ["Bash", "Edit"], "ask": list(ask)},
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [{"type": "command", "command": f"{sys.executable} {hook} {marks}"}],
                }
            ]
        },
    }
    (root / ".claude" / "settings.local.json").write_text(json.dumps(settings))
    return root, marks


def two_writes(run: int) -> list[Step]:
    """Two Bash calls that write (not concurrency-safe), each marking its start and end."""

    def command(which: str) -> str:
        tag = f"{which}{run}"
        return f"echo {tag} start >> order.log && sleep 0.2 && echo {tag} end >> order.log"

    return [
        Step(id=f"w{run}a", name="Bash", input={"command": command("first")}),
        Step(id=f"w{run}b", name="Bash", input={"command": command("second")}),
    ]


def expected(run: int) -> list[str]:
    return [f"first{run} start", f"first{run} end", f"second{run} start", f"second{run} end"]


@pytest.mark.parametrize("framework", list(FRAMEWORKS))
def test_two_unsafe_calls_of_one_message_run_alone_in_the_message_s_order(
    tmp_path: Path, framework: str
) -> None:
    module, through = FRAMEWORKS[framework]
    pytest.importorskip(module)
    root, _ = ordered_project(tmp_path)
    log = root / "order.log"
    orders: list[list[str]] = []
    for run in range(RUNS):
        log.unlink(missing_ok=True)
        steps = two_writes(run)
        seen = anyio.run(through, root, steps)
        assert all(not seen[s.id][1] for s in steps), seen
        orders.append(log.read_text().splitlines())
    wrong = [(run, order) for run, order in enumerate(orders) if order != expected(run)]
    assert not wrong, f"{len(wrong)} of {RUNS} runs out of order or overlapping: {wrong[:3]}"


def test_a_call_paused_for_approval_does_not_hold_up_the_next_one(tmp_path: Path) -> None:
    """The first call of the message waits for the user; the second runs meanwhile."""
    pytest.importorskip("agents")
    pytest.importorskip("langgraph")
    root, _ = ordered_project(tmp_path, ask=("Bash(echo paused:*)",))
    log = root / "order.log"
    steps = [
        Step(id="p1", name="Bash", input={"command": "echo paused >> order.log"}),
        Step(id="p2", name="Bash", input={"command": "echo later >> order.log"}),
    ]

    async def openai_agents() -> None:
        from agents import Agent, Runner
        from framework_models import ScriptedModel

        from hands.adapters.openai_agents import hands_tools
        from hands.adapters.toolbox import Toolbox

        async with Toolbox(cwd=root, trusted=True) as box:
            agent = Agent(name="coder", model=ScriptedModel([steps]), tools=list(hands_tools(box)))
            first = await Runner.run(agent, "go")
            assert [i.raw_item.call_id for i in first.interruptions] == ["p1"]  # type: ignore[union-attr]
            assert log.read_text().splitlines() == ["later"]
            state = first.to_state()
            state.approve(first.interruptions[0])
            assert (await Runner.run(agent, state)).final_output == "done"

    async def langgraph() -> None:
        from framework_models import CONFIG, ScriptedChat, script
        from langchain.agents import create_agent
        from langchain_core.messages import HumanMessage
        from langgraph.checkpoint.memory import InMemorySaver
        from langgraph.types import Command

        from hands.adapters.langchain import hands_tools
        from hands.adapters.toolbox import Toolbox

        async with Toolbox(cwd=root, trusted=True) as box:
            chat = ScriptedChat(messages=script([steps]))
            agent: Any = create_agent(chat, tools=hands_tools(box), checkpointer=InMemorySaver())
            first = await agent.ainvoke({"messages": [HumanMessage("go")]}, CONFIG)
            assert [p.value["input"] for p in first["__interrupt__"]] == [steps[0].input]
            assert log.read_text().splitlines() == ["later"]
            last = await agent.ainvoke(Command(resume=True), CONFIG)
            assert last["messages"][-1].content == "done"

    for through in (openai_agents, langgraph):
        log.unlink(missing_ok=True)
        anyio.run(through)
        assert log.read_text().splitlines() == ["later", "paused"]
