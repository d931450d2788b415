"""The Python Agent SDK's ``query()`` driving hands: messages, results, costs, stops."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from claude_agent_sdk import (
    AssistantMessage,
    ProcessError,
    ResultMessage,
    SystemMessage,
    TextBlock,
    UserMessage,
)

from cli.sdk.kit import (
    anthropic_env,
    calls,
    options,
    run,
    said,
    scripted,
    text,
    tool_use,
)
from models.loopback import LoopbackServer

pytestmark = pytest.mark.anyio


async def test_one_shot_query_gives_init_assistant_and_result(tmp_path: Path) -> None:
    model = scripted(tmp_path, [text("hello from hands")])
    messages = await run("hi", options(tmp_path, model))
    kinds = [type(m).__name__ for m in messages]
    assert kinds == ["SystemMessage", "AssistantMessage", "ResultMessage"]
    init, assistant, result = messages
    assert isinstance(init, SystemMessage) and init.subtype == "init"
    assert init.data["cwd"] == str(tmp_path / "project")
    assert "Read" in init.data["tools"] and init.data["permissionMode"] == "default"
    assert isinstance(assistant, AssistantMessage)
    assert assistant.content == [TextBlock(text="hello from hands")]
    assert isinstance(result, ResultMessage)
    assert (result.subtype, result.is_error) == ("success", False)
    assert result.result == "hello from hands"
    assert result.num_turns == 1 and result.session_id == init.data["session_id"]


async def test_cost_and_model_usage_come_from_the_provider_usage(
    tmp_path: Path, server: LoopbackServer
) -> None:
    server.queue(said("priced", input_tokens=1_000_000))
    opts = options(tmp_path, "claude-sonnet-4-5", env=anthropic_env(server))
    *_, result = await run("hi", opts)
    assert isinstance(result, ResultMessage) and not result.is_error
    # a million input tokens and 42 output tokens at the Sonnet list price
    assert result.total_cost_usd == pytest.approx(3.0 + 42 * 15 / 1_000_000)
    usage = result.model_usage
    assert usage is not None and usage["claude-sonnet-4-5"]["inputTokens"] == 1_000_000
    assert server.requests[0].body["model"] == "claude-sonnet-4-5"
    assert result.duration_api_ms <= result.duration_ms


async def test_max_turns_stops_with_error_subtype(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "a.txt").write_text("A")
    model = scripted(
        tmp_path,
        [tool_use("Read", file_path=str(tmp_path / "project" / "a.txt"))],
        [tool_use("Read", file_path=str(tmp_path / "project" / "a.txt"))],
        [text("never reached")],
    )
    *_, result = await run("read", options(tmp_path, model, max_turns=1))
    assert isinstance(result, ResultMessage)
    assert (result.subtype, result.is_error, result.num_turns) == ("error_max_turns", True, 1)


async def test_max_budget_stops_before_the_next_request(
    tmp_path: Path, server: LoopbackServer
) -> None:
    (tmp_path / "project").mkdir()
    target = tmp_path / "project" / "a.txt"
    target.write_text("A")
    server.queue(
        calls("Read", {"file_path": str(target)}, id="toolu_1"),
        said("never asked for"),
    )
    opts = options(tmp_path, "claude-sonnet-4-5", env=anthropic_env(server), max_budget_usd=0.00001)
    *_, result = await run("read", opts)
    assert isinstance(result, ResultMessage)
    assert (result.subtype, result.is_error) == ("error_max_budget_usd", True)
    assert len(server.requests) == 1  # the second request was never sent


async def test_json_schema_gives_structured_output(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {"answer": {"type": "integer"}},
        "required": ["answer"],
    }
    model = scripted(
        tmp_path,
        [tool_use("StructuredOutput", answer="not a number")],
        [tool_use("StructuredOutput", answer=42)],
        [text("done")],
    )
    opts = options(tmp_path, model, output_format={"type": "json_schema", "schema": schema})
    messages = await run("what is six times seven?", opts)
    result = messages[-1]
    assert isinstance(result, ResultMessage) and not result.is_error
    assert result.structured_output == {"answer": 42}
    # the invalid first call came back as an error the model could act on
    user_lines = [m for m in messages if isinstance(m, UserMessage)]
    first = json.dumps([b.__dict__ for b in user_lines[0].content], default=str)
    assert "does not match the required schema" in first


async def test_stderr_callback_gets_why_hands_would_not_start(tmp_path: Path) -> None:
    lines: list[str] = []
    model = scripted(tmp_path, [text("ok")])
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / ".claude").mkdir()
    (tmp_path / "project" / ".claude" / "settings.json").write_text("{not json")
    opts = options(tmp_path, model, stderr=lines.append)
    with pytest.raises(ProcessError, match="exit code 2"):
        await run("hi", opts)
    assert any("settings.json" in line and "not valid JSON" in line for line in lines), lines


async def test_stderr_callback_gets_the_ignored_project_input(tmp_path: Path) -> None:
    lines: list[str] = []
    model = scripted(tmp_path, [text("ok")])
    (tmp_path / "project" / ".claude").mkdir(parents=True)
    hook = {"hooks": [{"type": "command", "command": "touch ran"}]}
    settings = {"hooks": {"SessionStart": [hook]}}
    (tmp_path / "project" / ".claude" / "settings.json").write_text(json.dumps(settings))
    opts = options(tmp_path, model, stderr=lines.append)
    *_, result = await run("hi", opts)
    assert isinstance(result, ResultMessage) and not result.is_error
    assert any("ignored" in line and "touch ran" in line for line in lines), lines
    assert not (tmp_path / "project" / "ran").exists()
