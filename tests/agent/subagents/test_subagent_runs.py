"""Sub-agents with hooks, interrupts, the background and stream-json."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands import tool
from hands.agent.loop import QueryOptions, query
from hands.agent.subagents.progress import SubagentUpdate
from hands.agent.subagents.tool import AgentTool
from hands.cli.output import stream_json_lines
from hands.core.background import BackgroundAgents
from hands.core.context import ToolContext
from hands.hooks.config import parse_hooks
from hands.hooks.engine import HookEngine
from hands.orchestration.events import ToolProgressEvent, ToolResultEvent
from hands.pipeline.pool import pool_for
from hands.tools.bash.task_output import TaskOutputInput, TaskOutputTool

from .support import agent_call, result_of, routed, run_all, text

pytestmark = pytest.mark.anyio


@tool(read_only=True)
async def nap(seconds: float) -> str:
    """Wait."""
    await anyio.sleep(seconds)
    return f"slept {seconds}"


def nap_call(seconds: float) -> dict[str, Any]:
    return {"type": "tool_use", "name": "nap", "input": {"seconds": seconds}}


HOOK = """\
import json, sys
data = json.load(sys.stdin)
with open(sys.argv[1], "a") as f:
    f.write(json.dumps(data) + "\\n")
if data["hook_event_name"] == "SubagentStart":
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "SubagentStart",
                                             "additionalContext": "the build is broken"}}))
if data["hook_event_name"] == "SubagentStop" and not data["stop_hook_active"]:
    print(json.dumps({"decision": "block", "reason": "say which file"}))
"""


async def test_subagent_start_and_stop_hooks_fire_with_claude_codes_fields(tmp_path: Path) -> None:
    script, log = tmp_path / "hook.py", tmp_path / "events.jsonl"
    script.write_text(HOOK)
    command = {"type": "command", "command": f"{sys.executable} {script} {log}"}
    hooks = HookEngine(
        parse_hooks(
            [
                (
                    "test settings",
                    {
                        "SubagentStart": [{"matcher": "Explore", "hooks": [command]}],
                        "SubagentStop": [{"matcher": "Explore", "hooks": [command]}],
                        "PreToolUse": [{"matcher": "nap", "hooks": [command]}],
                    },
                )
            ]
        )
    )
    model = routed(
        [[agent_call("look for it", subagent_type="Explore")], [text("ok")]],
        {"look for it": [[nap_call(0)], [text("found")], [text("found in a.py")]]},
    )
    options = QueryOptions(
        model=model, tools=pool_for(base=[nap], extra=[AgentTool()]), cwd=tmp_path, hooks=hooks
    )
    events = await run_all(query("go", options))
    block = next(e.outcome.block for e in events if isinstance(e, ToolResultEvent))
    assert "found in a.py" in block.text  # the SubagentStop block made it go on once
    seen = [json.loads(line) for line in log.read_text().splitlines()]
    names = [e["hook_event_name"] for e in seen]
    assert names == ["SubagentStart", "PreToolUse", "SubagentStop", "SubagentStop"]
    start, pre, stop = seen[0], seen[1], seen[2]
    assert start["agent_type"] == "Explore" and start["agent_id"].startswith("a")
    assert pre["agent_id"] == start["agent_id"] and pre["agent_type"] == "Explore"
    assert stop["agent_id"] == start["agent_id"] and stop["agent_type"] == "Explore"
    assert stop["last_assistant_message"] == "found" and stop["stop_hook_active"] is False
    assert seen[3]["stop_hook_active"] is True
    assert stop["agent_transcript_path"].endswith(f"agent-{start['agent_id']}.jsonl")
    # the SubagentStart context went to the sub-agent with its prompt
    route = model.routes["look for it"]
    first = route.requests[0].messages[0]  # type: ignore[attr-defined]
    assert "the build is broken" in first.text and "look for it" in first.text


async def test_interrupting_the_parent_stops_the_sub_agents_command(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    model = routed(
        [[agent_call("run the slow thing")], [text("never")]],
        {
            "run the slow thing": [
                [
                    {
                        "type": "tool_use",
                        "name": "Bash",
                        "input": {"command": f"sleep 1.5 && touch {marker}"},
                    }
                ],
                [text("never")],
            ]
        },
    )
    options = QueryOptions(
        model=model,
        tools=pool_for(extra=[AgentTool()]),
        cwd=tmp_path,
        permission_mode="bypassPermissions",
    )
    q = query("go", options)
    events: list[Any] = []
    async for event in q:
        events.append(event)
        if isinstance(event, ToolProgressEvent) and isinstance(event.data, SubagentUpdate):
            if (event.data.current or "").startswith("Bash"):
                await anyio.sleep(0.3)
                q.interrupt()
    assert result_of(events).subtype == "interrupted"
    block = next(e.outcome.block for e in events if isinstance(e, ToolResultEvent))
    assert block.is_error and "Interrupted" in block.text
    await anyio.sleep(1.8)
    assert not marker.exists()  # the command was killed with the agent


async def test_a_background_agent_reports_through_task_output_and_a_notice(
    tmp_path: Path,
) -> None:
    model = routed(
        [
            [agent_call("background job", run_in_background=True)],
            [text("I will wait for it.")],
            [text("It is done.")],
        ],
        {"background job": [[nap_call(0.2)], [text("bg result: 42")]]},
    )
    options = QueryOptions(
        model=model, tools=pool_for(base=[nap], extra=[AgentTool()]), cwd=tmp_path
    )
    q = query("go", options)
    events = await run_all(q)
    launched = next(e.outcome.block for e in events if isinstance(e, ToolResultEvent))
    assert not launched.is_error and "in the background" in launched.text
    found = re.search(r"agent id (a[0-9a-f]+)", launched.text)
    assert found is not None
    notices = [m for m in q.messages if "<task-notification>" in m.text]
    assert len(notices) == 1 and "bg result: 42" in notices[0].text
    assert "completed" in notices[0].text
    assert result_of(events).result == "It is done."
    ctx = ToolContext(cwd=tmp_path, session=q.session)
    out = await TaskOutputTool().call(TaskOutputInput(task_id=found.group(1)), ctx, lambda _: None)
    content = TaskOutputTool().to_content(out.output)
    assert "<status>completed</status>" in content and "bg result: 42" in content
    assert "nap(0.2)" in content  # its progress came first


async def test_background_agents_stop_when_the_session_ends(tmp_path: Path) -> None:
    model = routed(
        [[agent_call("endless job", run_in_background=True)], [text("leaving")]],
        {"endless job": [[nap_call(30)], [text("never")]]},
    )
    options = QueryOptions(
        model=model,
        tools=pool_for(base=[nap], extra=[AgentTool()]),
        cwd=tmp_path,
        wait_for_background=False,
    )
    q = query("go", options)
    await run_all(q)
    agents = BackgroundAgents.for_session(q.session)
    assert [a.status for a in agents.running()] == ["running"]
    with anyio.fail_after(5):
        await q.session.aclose()
    assert agents.running() == []


async def test_stream_json_puts_a_sub_agents_messages_under_its_agent_call(
    tmp_path: Path,
) -> None:
    model = routed(
        [[agent_call("inner work", id="toolu_outer")], [text("ok")]],
        {"inner work": [[nap_call(0)], [text("inner done")]]},
    )
    options = QueryOptions(
        model=model, tools=pool_for(base=[nap], extra=[AgentTool()]), cwd=tmp_path
    )
    events = await run_all(query("go", options))
    lines = [line for e in events for line in stream_json_lines(e, session_id="s", model="m")]
    inner = [line for line in lines if line.get("parent_tool_use_id") == "toolu_outer"]
    assert [line["type"] for line in inner] == ["user", "assistant", "user", "assistant"]
    assert inner[0]["message"]["content"][0]["text"] == "inner work"
    assert inner[1]["message"]["content"][0]["name"] == "nap"
    assert inner[3]["message"]["content"][0]["text"] == "inner done"
    top = [line for line in lines if line.get("parent_tool_use_id", "x") is None]
    results = [b for line in top if line["type"] == "user" for b in line["message"]["content"]]
    assert [b["tool_use_id"] for b in results] == ["toolu_outer"]


@tool
def change(label: str) -> str:
    """A tool that changes something."""
    return f"{label} changed"


async def test_a_background_agents_asks_reach_the_main_sessions_handler(tmp_path: Path) -> None:
    from hands.core.decision import AskRequest, PermissionDecision

    asked: list[str | None] = []

    async def ask(request: AskRequest) -> PermissionDecision:
        asked.append(request.context.agent_type)
        return PermissionDecision(behavior="allow", reason="user")

    model = routed(
        [
            [
                agent_call(
                    "change in the background",
                    run_in_background=True,
                    subagent_type="general-purpose",
                )
            ],
            [text("waiting")],
            [text("done")],
        ],
        {
            "change in the background": [
                [{"type": "tool_use", "name": "change", "input": {"label": "x"}}],
                [text("changed x")],
            ]
        },
    )
    options = QueryOptions(
        model=model, tools=pool_for(base=[change], extra=[AgentTool()]), cwd=tmp_path, ask=ask
    )
    q = query("go", options)
    await run_all(q)
    assert asked == ["general-purpose"]
    assert any("changed x" in m.text for m in q.messages)
