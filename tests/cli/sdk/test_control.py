"""The control protocol both ways, driven by the real Python SDK (``ClaudeSDKClient``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from claude_agent_sdk import (
    AssistantMessage,
    ClaudeSDKClient,
    HookMatcher,
    PermissionResultAllow,
    PermissionResultDeny,
    ResultMessage,
    SystemMessage,
    ToolPermissionContext,
    UserMessage,
    create_sdk_mcp_server,
    tool,
)

from cli.sdk.kit import (
    anthropic_env,
    calls,
    options,
    result_text,
    run,
    said,
    scripted,
    text,
    tool_results,
    tool_use,
)
from models.loopback import LoopbackServer

pytestmark = pytest.mark.anyio


async def test_client_runs_turns_in_one_conversation_and_interrupts(tmp_path: Path) -> None:
    model = scripted(
        tmp_path,
        [text("first answer")],
        [text("slow answer", delay_ms=60_000)],
        [text("after the interrupt")],
    )
    async with ClaudeSDKClient(options(tmp_path, model)) as client:
        await client.query("one")
        first = [m async for m in client.receive_response()]
        assert isinstance(first[-1], ResultMessage) and first[-1].result == "first answer"
        await client.query("two")
        async for message in client.receive_messages():
            if isinstance(message, SystemMessage):  # the turn is under way
                await client.interrupt()
            if isinstance(message, ResultMessage):
                stopped = message
                break
        assert stopped.is_error and stopped.subtype == "error_during_execution"
        await client.query("three")
        third = [m async for m in client.receive_response()]
    last, earlier = third[-1], first[-1]
    assert isinstance(last, ResultMessage) and last.result == "after the interrupt"
    assert isinstance(earlier, ResultMessage) and last.session_id == earlier.session_id


async def test_can_use_tool_suggestions_become_session_rules(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    model = scripted(
        tmp_path,
        [tool_use("Bash", command="touch one.txt")],
        [tool_use("Bash", command="touch one.txt")],
        [text("ok")],
    )
    asked: list[list[Any]] = []

    async def can_use_tool(
        name: str, input: dict[str, Any], context: ToolPermissionContext
    ) -> PermissionResultAllow:
        asked.append(context.suggestions)
        return PermissionResultAllow(updated_permissions=context.suggestions)

    *_, result = await run("touch", options(tmp_path, model, can_use_tool=can_use_tool))
    assert isinstance(result, ResultMessage) and not result.is_error
    assert len(asked) == 1  # the rule the first answer added allowed the second call
    [suggestion] = asked[0]
    assert suggestion.type == "addRules" and suggestion.behavior == "allow"
    rules = [(r.tool_name, r.rule_content) for r in suggestion.rules or []]
    assert rules == [("Bash", "touch one.txt")]
    assert result.permission_denials == []


async def test_can_use_tool_allow_rewrites_the_input(tmp_path: Path) -> None:
    target = tmp_path / "project" / "a.txt"
    model = scripted(
        tmp_path, [tool_use("Write", file_path=str(target), content="from the model")], [text("ok")]
    )
    asked: list[tuple[str, dict[str, Any]]] = []

    async def can_use_tool(
        name: str, input: dict[str, Any], context: ToolPermissionContext
    ) -> PermissionResultAllow:
        asked.append((name, input))
        return PermissionResultAllow(updated_input={**input, "content": "from the program"})

    *_, result = await run("write it", options(tmp_path, model, can_use_tool=can_use_tool))
    assert isinstance(result, ResultMessage) and not result.is_error
    assert asked == [("Write", {"file_path": str(target), "content": "from the model"})]
    assert target.read_text() == "from the program"


async def test_can_use_tool_deny_reaches_the_model_and_the_result(
    tmp_path: Path, server: LoopbackServer
) -> None:
    (tmp_path / "project").mkdir()
    keep = tmp_path / "project" / "keep.txt"
    keep.write_text("kept")
    server.queue(calls("Bash", {"command": f"rm {keep}"}), said("understood"))

    async def can_use_tool(
        name: str, input: dict[str, Any], context: ToolPermissionContext
    ) -> PermissionResultDeny:
        return PermissionResultDeny(message="no deleting in this project")

    opts = options(
        tmp_path, "claude-sonnet-4-5", env=anthropic_env(server), can_use_tool=can_use_tool
    )
    *_, result = await run("clean up", opts)
    assert keep.read_text() == "kept"
    [denied] = tool_results(server.requests[1].body)
    assert denied["is_error"] and "no deleting in this project" in result_text(denied)
    assert isinstance(result, ResultMessage)
    assert [d["tool_name"] for d in result.permission_denials or []] == ["Bash"]


async def test_hooks_block_add_context_and_see_prompts(
    tmp_path: Path, server: LoopbackServer
) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "a.txt").write_text("A")
    server.queue(
        calls("Bash", {"command": "echo hi"}, id="toolu_1"),
        calls("Read", {"file_path": str(tmp_path / "project" / "a.txt")}, id="toolu_2"),
        said("done"),
    )
    seen: list[tuple[str, Any]] = []

    async def prompt_hook(data: Any, tool_use_id: str | None, context: Any) -> Any:
        seen.append(("UserPromptSubmit", data["prompt"]))
        return {}

    async def no_bash(data: Any, tool_use_id: str | None, context: Any) -> Any:
        seen.append(("PreToolUse", data["tool_name"]))
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "shell is off today",
            }
        }

    async def after_read(data: Any, tool_use_id: str | None, context: Any) -> Any:
        seen.append(("PostToolUse", tool_use_id))
        return {
            "hookSpecificOutput": {
                "hookEventName": "PostToolUse",
                "additionalContext": "the file is generated",
            }
        }

    hooks: Any = {
        "UserPromptSubmit": [HookMatcher(hooks=[prompt_hook])],
        "PreToolUse": [HookMatcher(matcher="Bash", hooks=[no_bash])],
        "PostToolUse": [HookMatcher(matcher="Read", hooks=[after_read])],
    }
    opts = options(
        tmp_path,
        "claude-sonnet-4-5",
        env=anthropic_env(server),
        hooks=hooks,
        allowed_tools=["Read"],
    )
    *_, result = await run("look around", opts)
    assert isinstance(result, ResultMessage) and not result.is_error
    assert seen == [
        ("UserPromptSubmit", "look around"),
        ("PreToolUse", "Bash"),
        ("PostToolUse", "toolu_2"),
    ]
    [blocked] = tool_results(server.requests[1].body)
    assert blocked["is_error"] and "shell is off today" in result_text(blocked)
    assert "the file is generated" in str(server.requests[2].body["messages"][-1])


async def test_sdk_mcp_server_tool_runs_in_the_program(tmp_path: Path) -> None:
    got: list[dict[str, Any]] = []

    @tool("add", "Add two numbers", {"a": int, "b": int})
    async def add(args: dict[str, Any]) -> dict[str, Any]:
        got.append(args)
        return {"content": [{"type": "text", "text": str(args["a"] + args["b"])}]}

    server = create_sdk_mcp_server("calc", tools=[add])
    model = scripted(tmp_path, [tool_use("mcp__calc__add", a=2, b=3)], [text("five")])
    opts = options(tmp_path, model, mcp_servers={"calc": server}, allowed_tools=["mcp__calc__add"])
    messages = await run("add", opts)
    init = messages[0]
    assert isinstance(init, SystemMessage)
    assert {"name": "calc", "status": "connected", "source": "sdk"} in init.data["mcp_servers"]
    assert "mcp__calc__add" in init.data["tools"]
    assert got == [{"a": 2, "b": 3}]
    results = [m for m in messages if isinstance(m, UserMessage)]
    assert "5" in str(results[0].content)


async def test_agents_from_the_program_run_as_sub_agents(tmp_path: Path) -> None:
    from claude_agent_sdk import AgentDefinition

    model = scripted(
        tmp_path,
        [
            tool_use(
                "Agent",
                subagent_type="poet",
                description="a poem",
                prompt="write one",
                run_in_background=False,
            )
        ],
        [text("roses are red")],
        [text("the poet said roses are red")],
    )
    agents = {"poet": AgentDefinition(description="Writes poems", prompt="You write poems.")}
    messages = await run("poem please", options(tmp_path, model, agents=agents))
    init = messages[0]
    assert isinstance(init, SystemMessage) and "poet" in init.data["agents"]
    inner = [
        m for m in messages if isinstance(m, AssistantMessage) and m.parent_tool_use_id is not None
    ]
    assert any("roses are red" in str(m.content) for m in inner)
    result = messages[-1]
    assert isinstance(result, ResultMessage) and result.result == "the poet said roses are red"


async def test_control_requests_answer_or_refuse(tmp_path: Path) -> None:
    model = scripted(tmp_path, [text("one")], [text("two")])
    async with ClaudeSDKClient(options(tmp_path, model)) as client:
        await client.set_permission_mode("acceptEdits")
        await client.query("go")
        first = [m async for m in client.receive_response()]
        status = await client.get_mcp_status()
        usage = await client.get_context_usage()
        with pytest.raises(Exception, match="file checkpointing is off"):
            await client.rewind_files("some-message")
        with pytest.raises(Exception, match="bypassPermissions"):
            await client.set_permission_mode("bypassPermissions")
        with pytest.raises(Exception, match="does not support"):
            await client._query._send_control_request({"subtype": "no_such_request"})  # type: ignore[union-attr]
        await client.query("again")
        second = [m async for m in client.receive_response()]
    init = first[0]
    assert isinstance(init, SystemMessage) and init.data["permissionMode"] == "acceptEdits"
    assert status == {"mcpServers": []}
    assert usage["maxTokens"] > 0
    last = second[-1]
    assert isinstance(last, ResultMessage) and last.result == "two"


async def test_background_work_reports_task_started_and_notification(tmp_path: Path) -> None:
    from claude_agent_sdk import TaskNotificationMessage, TaskStartedMessage

    model = scripted(
        tmp_path,
        [tool_use("Bash", command="echo background", run_in_background=True,
                  description="say background")],
        [text("started it")],
        [text("it finished")],
    )  # fmt: skip
    messages = await run("go", options(tmp_path, model, allowed_tools=["Bash"]))
    [started] = [m for m in messages if isinstance(m, TaskStartedMessage)]
    [finished] = [m for m in messages if isinstance(m, TaskNotificationMessage)]
    assert started.description == "say background"
    assert finished.task_id == started.task_id and finished.status == "completed"
    result = messages[-1]
    assert isinstance(result, ResultMessage) and result.result == "it finished"


async def test_permission_mode_changed_mid_turn_applies_to_the_next_call(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "a.txt").write_text("A")
    target = tmp_path / "project" / "b.txt"
    model = scripted(
        tmp_path,
        [tool_use("Read", file_path=str(tmp_path / "project" / "a.txt"))],
        [tool_use("Write", file_path=str(target), content="written")],
        [text("done")],
    )
    clients: list[ClaudeSDKClient] = []

    async def switch_mode(data: Any, tool_use_id: str | None, context: Any) -> Any:
        await clients[0].set_permission_mode("acceptEdits")
        return {}

    hooks: Any = {"PreToolUse": [HookMatcher(matcher="Read", hooks=[switch_mode])]}
    async with ClaudeSDKClient(options(tmp_path, model, hooks=hooks)) as client:
        clients.append(client)
        await client.query("go")
        messages = [m async for m in client.receive_response()]
    result = messages[-1]
    assert isinstance(result, ResultMessage) and not result.is_error
    assert result.permission_denials == []
    assert target.read_text() == "written"


async def test_mcp_toggle_reconnect_and_stop_task(tmp_path: Path) -> None:
    @tool("ping", "Answer pong", {})
    async def ping(args: dict[str, Any]) -> dict[str, Any]:
        return {"content": [{"type": "text", "text": "pong"}]}

    server = create_sdk_mcp_server("net", tools=[ping])
    model = scripted(
        tmp_path,
        [tool_use("Bash", command="sleep 600", run_in_background=True, description="long")],
        [text("started")],
    )
    from claude_agent_sdk import TaskStartedMessage

    opts = options(tmp_path, model, mcp_servers={"net": server}, allowed_tools=["Bash"])
    async with ClaudeSDKClient(opts) as client:
        await client.query("go")
        started: list[TaskStartedMessage] = []
        async for message in client.receive_messages():
            if isinstance(message, TaskStartedMessage):
                started.append(message)
                await client.stop_task(message.task_id)
            if isinstance(message, ResultMessage):
                break
        with pytest.raises(Exception, match="no-such-task"):
            await client.stop_task("no-such-task")
        await client.toggle_mcp_server("net", enabled=False)
        off = await client.get_mcp_status()
        await client.toggle_mcp_server("net", enabled=True)
        on = await client.get_mcp_status()
        await client.reconnect_mcp_server("net")
        again = await client.get_mcp_status()
        with pytest.raises(Exception, match="no MCP server named 'nope'"):
            await client.reconnect_mcp_server("nope")
    assert len(started) == 1
    assert [s["status"] for s in off["mcpServers"]] == ["disabled"]
    assert [(s["name"], s["status"]) for s in on["mcpServers"]] == [("net", "connected")]
    assert [s.get("tools") for s in again["mcpServers"]] == [[{"name": "ping"}]]


async def test_hook_events_report_each_hook_run(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "a.txt").write_text("A")
    model = scripted(
        tmp_path, [tool_use("Read", file_path=str(tmp_path / "project" / "a.txt"))], [text("ok")]
    )

    async def note(data: Any, tool_use_id: str | None, context: Any) -> Any:
        return {"systemMessage": "seen"}

    hooks: Any = {"PreToolUse": [HookMatcher(matcher="Read", hooks=[note])]}
    opts = options(tmp_path, model, hooks=hooks, include_hook_events=True)
    messages = await run("go", opts)
    lines = [m for m in messages if isinstance(m, SystemMessage) and "hook" in m.subtype]
    assert [m.subtype for m in lines] == ["hook_started", "hook_response"]
    started, response = lines[0].data, lines[1].data
    assert started["hook_id"] == response["hook_id"] and started["hook_event"] == "PreToolUse"
    assert response["outcome"] == "success" and "seen" in response["output"]
