"""Background tasks' system messages, received by the real Python SDK as its own types.

A background shell command: ``task_started``, then ``task_updated`` (its status and end
time) before its ``task_notification``; a stopped one is ``killed``. A background
sub-agent also sends a ``task_progress`` per tool call, with its usage so far. A
foreground sub-agent is announced too, with its ``task_notification`` (and usage) before
its call's result, and a command it started carries its id as ``parent_task_id``. Claude
Code 2.1.332 sends the same sequences (compared through the behavioural oracle).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from claude_agent_sdk import (
    ClaudeSDKClient,
    Message,
    ResultMessage,
    SystemMessage,
    TaskNotificationMessage,
    TaskProgressMessage,
    TaskStartedMessage,
    TaskUpdatedMessage,
)

from cli.sdk.kit import anthropic_env, calls, options, run, said
from models.loopback import LoopbackServer

pytestmark = pytest.mark.anyio


def _tasks(messages: list[Message]) -> list[Message]:
    kinds = (TaskStartedMessage, TaskProgressMessage, TaskUpdatedMessage, TaskNotificationMessage)
    return [m for m in messages if isinstance(m, kinds)]


def _first_text(body: Any) -> str:
    content = body["messages"][0]["content"]
    return content if isinstance(content, str) else str(content[0].get("text", ""))


async def test_background_command_started_updated_then_notified(
    tmp_path: Path, server: LoopbackServer
) -> None:
    command = {"command": "echo hi", "run_in_background": True, "description": "say hi"}
    server.queue(calls("Bash", command), said("waiting"), said("it said hi"))
    opts = options(tmp_path, "claude-sonnet-4-5", env=anthropic_env(server), allowed_tools=["Bash"])
    messages = await run("go", opts)
    assert isinstance(messages[-1], ResultMessage) and not messages[-1].is_error
    started, updated, notified = _tasks(messages)
    assert isinstance(started, TaskStartedMessage) and started.task_type == "local_bash"
    assert started.description == "say hi" and started.tool_use_id == "toolu_1"
    assert isinstance(updated, TaskUpdatedMessage) and updated.task_id == started.task_id
    assert updated.status == "completed" and isinstance(updated.patch["end_time"], int)
    assert isinstance(notified, TaskNotificationMessage) and notified.status == "completed"
    assert messages.index(updated) < messages.index(notified)


async def test_a_stopped_command_is_updated_as_killed(
    tmp_path: Path, server: LoopbackServer
) -> None:
    command = {"command": "sleep 60", "run_in_background": True, "description": "long"}
    server.queue(calls("Bash", command), said("started it"))
    opts = options(tmp_path, "claude-sonnet-4-5", env=anthropic_env(server), allowed_tools=["Bash"])
    seen: list[Message] = []
    async with ClaudeSDKClient(opts) as client:
        await client.query("go")
        with anyio.fail_after(60):
            async for message in client.receive_messages():
                seen.append(message)
                if isinstance(message, TaskStartedMessage):
                    await client.stop_task(message.task_id)
                if isinstance(message, TaskUpdatedMessage):
                    break
    started, updated = _tasks(seen)
    assert isinstance(started, TaskStartedMessage) and isinstance(updated, TaskUpdatedMessage)
    assert updated.task_id == started.task_id and updated.status == "killed"


async def test_background_agent_reports_progress_per_tool_call(
    tmp_path: Path, server: LoopbackServer
) -> None:
    server.route = lambda body: "sub" if _first_text(body).startswith("SUBTASK") else None
    spawn = {"description": "read the notes", "prompt": "SUBTASK: read notes.txt"}
    notes = tmp_path / "project" / "notes.txt"
    notes.parent.mkdir(parents=True)
    notes.write_text("remember the milk\n")
    server.queue_for(
        "sub", calls("Read", {"file_path": str(notes)}, id="toolu_2"), said("it says milk")
    )
    server.queue(calls("Agent", spawn), said("waiting for it"), said("the notes say milk"))
    messages = await run("go", options(tmp_path, "claude-sonnet-4-5", env=anthropic_env(server)))
    assert isinstance(messages[-1], ResultMessage) and not messages[-1].is_error, messages[-1]
    started, progress, updated, notified = _tasks(messages)
    assert isinstance(started, TaskStartedMessage) and started.task_type == "local_agent"
    assert isinstance(progress, TaskProgressMessage)
    assert progress.task_id == started.task_id and progress.tool_use_id == "toolu_1"
    assert progress.last_tool_name == "Read" and progress.description == "read the notes"
    assert progress.usage["tool_uses"] == 1 and progress.usage["total_tokens"] > 0
    assert progress.usage["duration_ms"] >= 0
    assert isinstance(updated, TaskUpdatedMessage) and updated.status == "completed"
    assert isinstance(notified, TaskNotificationMessage) and notified.task_id == started.task_id


async def test_a_foreground_agent_and_a_command_it_started_are_announced(
    tmp_path: Path, server: LoopbackServer
) -> None:
    server.route = lambda body: "sub" if _first_text(body).startswith("SUBTASK") else None
    job = {"command": "echo sub", "run_in_background": True, "description": "sub job"}
    server.queue_for("sub", calls("Bash", job, id="toolu_2"), said("started"), said("heard"))
    spawn = {"description": "d", "prompt": "SUBTASK: start a job", "run_in_background": False}
    server.queue(calls("Agent", spawn), said("the agent is back"))
    opts = options(tmp_path, "claude-sonnet-4-5", env=anthropic_env(server), allowed_tools=["Bash"])
    messages = await run("go", opts)
    assert isinstance(messages[-1], ResultMessage) and not messages[-1].is_error, messages[-1]
    tasks = _tasks(messages)
    agent, command = [m for m in tasks if isinstance(m, TaskStartedMessage)]
    assert agent.task_type == "local_agent" and agent.tool_use_id == "toolu_1"
    assert "parent_task_id" not in agent.data
    assert command.task_type == "local_bash" and command.tool_use_id == "toolu_2"
    assert command.description == "sub job" and command.data["parent_task_id"] == agent.task_id
    [progress] = [m for m in tasks if isinstance(m, TaskProgressMessage)]
    assert progress.task_id == agent.task_id and progress.last_tool_name == "Bash"
    ended = [(m.task_id, m.status) for m in tasks if isinstance(m, TaskUpdatedMessage)]
    assert ended == [(command.task_id, "completed"), (agent.task_id, "completed")]
    [notified] = [m for m in tasks if isinstance(m, TaskNotificationMessage)]
    assert notified.task_id == agent.task_id and notified.status == "completed"
    assert notified.usage is not None and notified.usage["tool_uses"] == 1
    assert tasks[-1] is notified  # the agent's end is told before its call's result
    levels = [
        m.data["tasks"]
        for m in messages
        if isinstance(m, SystemMessage) and m.subtype == "background_tasks_changed"
    ]
    agent_entry = {"task_id": agent.task_id, "task_type": "local_agent", "description": "d"}
    command_entry = {"task_id": command.task_id, "task_type": "local_bash",
                     "description": "sub job", "parent_task_id": agent.task_id}  # fmt: skip
    assert levels == [[agent_entry], [agent_entry, command_entry], [agent_entry], []]
