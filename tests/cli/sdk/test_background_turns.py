"""A turn ends while its background work runs; the work's end wakes a turn of its own.

Driven by the real Python SDK against a loopback Anthropic API. The background command
waits for a file the test writes only after the first ``result`` has arrived, so the
order is fixed by events, not by time. Claude Code 2.1.332 behaves the same (compared
through the behavioural oracle): the first ``result`` comes while the work runs, then
``task_updated`` and ``task_notification``, then a new turn (its own ``init``) whose
request carries the notice, and a second ``result``; with input closed first (a one-shot
``query()``) the CLI waits for the work before it ends.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import anyio
import pytest
from claude_agent_sdk import (
    AssistantMessage,
    ClaudeSDKClient,
    Message,
    ResultMessage,
    SystemMessage,
    TaskNotificationMessage,
    TaskProgressMessage,
    TaskStartedMessage,
    TaskUpdatedMessage,
    TextBlock,
    query,
)

from cli.sdk.kit import anthropic_env, calls, options, said
from models.loopback import LoopbackServer, Wait, sse_reply
from models.wire import a_end, a_start, a_text

pytestmark = pytest.mark.anyio


def _waiting_command(go: Path) -> dict[str, Any]:
    return {
        "command": f"while [ ! -e {go} ]; do sleep 0.05; done; echo hi",
        "run_in_background": True,
        "description": "wait for the go file",
    }


def _kinds(messages: list[Message]) -> list[str]:
    return [
        f"system:{m.subtype}" if isinstance(m, SystemMessage) else type(m).__name__
        for m in messages
    ]


def _last_text(body: dict[str, Any]) -> str:
    content = body["messages"][-1]["content"]
    return content if isinstance(content, str) else " ".join(b.get("text", "") for b in content)


async def test_the_turn_ends_first_and_the_commands_end_wakes_a_turn(
    tmp_path: Path, server: LoopbackServer
) -> None:
    go = tmp_path / "go"
    server.queue(calls("Bash", _waiting_command(go)), said("started it"), said("it said hi"))
    opts = options(tmp_path, "claude-sonnet-4-5", env=anthropic_env(server), allowed_tools=["Bash"])
    first: list[Message] = []
    second: list[Message] = []
    running = False
    with anyio.fail_after(120):
        async with ClaudeSDKClient(opts) as client:
            await client.query("go")
            first = [m async for m in client.receive_response()]  # hangs if the turn waited
            running = not go.exists()
            go.touch()
            second = [m async for m in client.receive_response()]
    assert running
    ended = first[-1]
    assert isinstance(ended, ResultMessage) and ended.result == "started it"
    [started] = [m for m in first if isinstance(m, TaskStartedMessage)]
    assert not [m for m in first if isinstance(m, TaskNotificationMessage | TaskUpdatedMessage)]
    assert _kinds(second) == [
        "system:task_updated",
        "system:background_tasks_changed",
        "system:task_notification",
        "system:init",
        "AssistantMessage",
        "ResultMessage",
    ]
    notified = second[2]
    assert isinstance(notified, TaskNotificationMessage) and notified.task_id == started.task_id
    last = second[-1]
    assert isinstance(last, ResultMessage) and last.result == "it said hi" and last.num_turns == 1
    assert len(server.requests) == 3
    woke = _last_text(server.requests[2].body)
    assert "<task-notification>" in woke and started.task_id in woke


async def test_with_input_closed_the_cli_waits_for_the_work_and_its_turn(
    tmp_path: Path, server: LoopbackServer
) -> None:
    go = tmp_path / "go"
    server.queue(calls("Bash", _waiting_command(go)), said("started it"), said("it said hi"))
    opts = options(tmp_path, "claude-sonnet-4-5", env=anthropic_env(server), allowed_tools=["Bash"])
    messages: list[Message] = []
    async for message in query(prompt="go", options=opts):  # stdin closes at once
        messages.append(message)
        if isinstance(message, ResultMessage):
            go.touch()
    results = [m for m in messages if isinstance(m, ResultMessage)]
    assert [r.result for r in results] == ["started it", "it said hi"]
    kinds = _kinds(messages)
    assert kinds.index("system:task_notification") > kinds.index("ResultMessage")


async def test_a_background_agent_still_running_at_the_result_reports_after_it(
    tmp_path: Path, server: LoopbackServer
) -> None:
    gate = threading.Event()
    readme = tmp_path / "project" / "notes.txt"
    readme.parent.mkdir(parents=True)
    readme.write_text("milk\n")
    server.route = lambda body: "sub" if "SUBTASK" in str(body["messages"][0]) else None
    held = sse_reply(Wait(gate=gate, timeout=60), a_start(id="msg_sub"), *a_text(0, "x"), *a_end())
    server.queue_for(
        "sub",
        calls("Read", {"file_path": str(readme)}, id="toolu_sub"),
        held,
    )
    spawn = {"description": "read notes", "prompt": "SUBTASK: read notes.txt"}
    server.queue(calls("Agent", spawn), said("waiting for it"), said("it read milk"))
    opts = options(tmp_path, "claude-sonnet-4-5", env=anthropic_env(server))
    first: list[Message] = []
    second: list[Message] = []
    with anyio.fail_after(120):
        async with ClaudeSDKClient(opts) as client:
            await client.query("go")
            first = [m async for m in client.receive_response()]
            gate.set()
            second = [m async for m in client.receive_response()]
    ended = first[-1]
    assert isinstance(ended, ResultMessage) and ended.result == "waiting for it"
    [started] = [m for m in first if isinstance(m, TaskStartedMessage)]
    assert started.task_type == "local_agent"
    [notified] = [m for m in second if isinstance(m, TaskNotificationMessage)]
    assert notified.task_id == started.task_id and notified.tool_use_id == "toolu_1"
    assert notified.usage is not None and notified.usage["tool_uses"] == 1
    assert notified.usage["total_tokens"] > 0
    assert [m for m in first + second if isinstance(m, TaskProgressMessage)]
    replies = [
        b.text
        for m in second
        if isinstance(m, AssistantMessage) and m.parent_tool_use_id is None
        for b in m.content
        if isinstance(b, TextBlock)
    ]
    assert replies == ["it read milk"]
    last = second[-1]
    assert isinstance(last, ResultMessage) and last.result == "it read milk"
