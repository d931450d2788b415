"""ListAgents and SendMessage: background agents listed, and messages that reach them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hands.agent.loop import QueryOptions, query
from hands.agent.subagents.tool import AgentTool
from hands.core.context import ToolContext
from hands.core.inbox import Inbox
from hands.core.messages import TextBlock
from hands.core.schema import ToolInput
from hands.core.tool import Progress, ReadOnlyTool, ToolResult
from hands.models.base import ModelRequest
from hands.orchestration.events import ToolResultEvent
from hands.pipeline.pool import pool_for
from hands.testing import ScriptedAgents, ScriptedModel
from print_session import print_run, tool_results, tool_use

pytestmark = pytest.mark.anyio


class GateInput(ToolInput):
    """No input."""


class Gate(ReadOnlyTool[GateInput, str]):
    """Returns once a message waits for the calling agent: it stands for a long step."""

    name = "gate"
    description = "wait for a message"
    input_model = GateInput
    in_background_agents = True

    async def call(self, input: GateInput, ctx: ToolContext, progress: Progress) -> ToolResult[str]:
        inbox = ctx.session.service(Inbox)
        while not inbox.peek(ctx.agent_id):
            await inbox.wait(ctx.agent_id)
        return ToolResult(output="a message came")


def turn(*blocks: dict[str, Any]) -> list[dict[str, Any]]:
    return list(blocks)


def said(request: ModelRequest) -> str:
    return " ".join(
        b.text
        for m in request.messages
        if m.role == "user"
        for b in m.content
        if isinstance(b, TextBlock)
    )


async def test_a_message_reaches_a_running_background_agent_before_its_next_step(
    tmp_path: Path,
) -> None:
    agent = tool_use("Agent", description="watch build", prompt="watch the build")
    model = ScriptedAgents(
        ScriptedModel.from_turns(
            turn(agent),
            turn(tool_use("ListAgents")),
            turn(tool_use("SendMessage", to="watch build", message="Also run the linter.")),
            turn({"type": "text", "text": "Told it."}),
            turn({"type": "text", "text": "All done."}),
        ),
        {"watch the build": ScriptedModel.from_turns(
            turn(tool_use("gate")), turn({"type": "text", "text": "Build and lint are fine."})
        )},
    )  # fmt: skip
    options = QueryOptions(model=model, tools=pool_for(extra=[AgentTool(), Gate()]), cwd=tmp_path)
    events = [e async for e in query("go", options)]
    started, listed, sent = [e.outcome for e in events if isinstance(e, ToolResultEvent)]
    agent_id = started.output.agent_id
    assert f"{agent_id}  running    general-purpose: watch build" in listed.block.text
    assert not sent.is_error and f"Sent to agent {agent_id}" in sent.block.text
    sub = model.routes["watch the build"]
    assert isinstance(sub, ScriptedModel)
    second = said(sub.requests[1])
    assert "Message from the main agent:\nAlso run the linter." in second
    assert isinstance(model.main, ScriptedModel)
    assert "Build and lint are fine." in said(model.main.requests[-1])


async def test_a_background_agent_writes_to_main(tmp_path: Path) -> None:
    model = ScriptedAgents(
        ScriptedModel.from_turns(
            turn(tool_use("Agent", description="report", prompt="report progress")),
            turn({"type": "text", "text": "waiting"}),
            turn({"type": "text", "text": "got it"}),
            turn({"type": "text", "text": "over"}),
        ),
        {"report progress": ScriptedModel.from_turns(
            turn(tool_use("SendMessage", to="main", message="Half way there.")),
            turn({"type": "text", "text": "finished"}),
        )},
    )  # fmt: skip
    options = QueryOptions(model=model, tools=pool_for(extra=[AgentTool()]), cwd=tmp_path)
    [e async for e in query("go", options)]
    assert isinstance(model.main, ScriptedModel)
    heard = " ".join(said(r) for r in model.main.requests)
    assert "Half way there." in heard and "Message from agent " in heard


def test_through_print_mode_unknown_ended_and_empty_messages_say_what_to_do(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    lines = print_run(
        project,
        [
            tool_use("ListAgents"),
            tool_use("SendMessage", to="nobody", message="hi"),
            tool_use("SendMessage", to="main", message="hi"),
            tool_use("SendMessage", to="x", message="  "),
            tool_use("ListAgents", q="anything"),
        ],
    )
    assert {"ListAgents", "SendMessage"} <= set(lines[0]["tools"])
    empty, unknown, main, blank, noted = tool_results(lines)
    assert empty["text"] == "No background agents in this session."
    assert unknown["is_error"] and "No background agent is called 'nobody'" in unknown["text"]
    assert main["is_error"] and '"main" is you' in main["text"]
    assert blank["is_error"] and "The message is empty" in blank["text"]
    assert "q has no effect here" in noted["text"]


async def test_a_message_to_an_agent_that_ended_resumes_it_from_its_conversation(
    tmp_path: Path,
) -> None:
    model = ScriptedAgents(
        ScriptedModel.from_turns(
            turn(tool_use("Agent", description="count", prompt="count the files")),
            turn({"type": "text", "text": "waiting"}),
            turn(tool_use("SendMessage", to="count", message="Now count the lines.")),
            turn({"type": "text", "text": "waiting again"}),
            turn({"type": "text", "text": "all done"}),
        ),
        {"count the files": ScriptedModel.from_turns(
            turn({"type": "text", "text": "3 files."}),
            turn({"type": "text", "text": "40 lines."}),
        )},
    )  # fmt: skip
    options = QueryOptions(model=model, tools=pool_for(extra=[AgentTool()]), cwd=tmp_path)
    events = [e async for e in query("go", options)]
    started, sent = [e.outcome for e in events if isinstance(e, ToolResultEvent)]
    agent_id = started.output.agent_id
    assert not sent.is_error and f"Agent {agent_id} (count) had ended" in sent.block.text
    sub = model.routes["count the files"]
    assert isinstance(sub, ScriptedModel) and len(sub.requests) == 2
    # the resumed run goes on from its own conversation, the message as its next turn
    resumed = [m.text for m in sub.requests[1].messages]
    assert resumed[0].endswith("count the files") and resumed[1] == "3 files."
    assert resumed[-1] == "Message from the main agent:\nNow count the lines."
    assert isinstance(model.main, ScriptedModel)
    heard = [said(r) for r in model.main.requests]
    assert "3 files." in heard[2] and "40 lines." in heard[-1]


async def test_an_agent_that_cannot_be_resumed_takes_no_message(tmp_path: Path) -> None:
    from hands.core.background import BackgroundAgent, BackgroundAgents
    from hands.core.messages import ToolUseBlock
    from hands.core.session import Session
    from hands.pipeline.execution import run_tool_use
    from hands.pipeline.pool import ToolPool
    from hands.pipeline.runtime import ToolRuntime
    from hands.tools.agent.send_message import SendMessageTool

    session = Session(home=tmp_path / "home")
    done = BackgroundAgent(
        id="a1", agent_type="Explore", description="find it", output_path=tmp_path / "a1.out"
    )
    done.finish("stopped", "stopped before its first reply")
    BackgroundAgents.for_session(session).add(done)
    block = ToolUseBlock(id="t1", name="SendMessage", input={"to": "find it", "message": "more"})
    ctx = ToolContext(cwd=tmp_path, session=session)
    out = await run_tool_use(block, ctx, ToolRuntime(tools=ToolPool([SendMessageTool()])), print)
    assert out.is_error and "a1 (find it) has stopped and cannot be resumed" in out.block.text
    assert session.service(Inbox).peek("a1") == ()
