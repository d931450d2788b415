"""Fields of the SDK's messages: ``tool_use_result`` on each tool result's own user line;
``stream_event`` partials of the main conversation only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from claude_agent_sdk import (
    AgentDefinition,
    AssistantMessage,
    ResultMessage,
    StreamEvent,
    UserMessage,
)
from claude_agent_sdk.types import ToolResultBlock

from cli.sdk.kit import options, run, scripted, text, tool_use

pytestmark = pytest.mark.anyio


async def test_each_tool_result_is_a_line_with_the_tools_output(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "notes.txt").write_text("alpha\nbeta\n")
    model = scripted(
        tmp_path,
        [
            tool_use("Read", file_path=str(root / "notes.txt")),
            tool_use("Read", file_path=str(root / "missing.txt")),
        ],
        [text("read them")],
    )
    messages = await run("read both", options(tmp_path, model))
    results = [m for m in messages if isinstance(m, UserMessage)]
    assert len(results) == 2
    first, second = results
    assert isinstance(first.content, list) and isinstance(second.content, list)
    [ok], [failed] = first.content, second.content
    assert isinstance(ok, ToolResultBlock) and isinstance(failed, ToolResultBlock)
    assert not ok.is_error and failed.is_error
    assert isinstance(first.tool_use_result, dict)
    assert "alpha" in json.dumps(first.tool_use_result)
    assert str(root / "notes.txt") in json.dumps(first.tool_use_result)
    assert isinstance(second.tool_use_result, str) and "missing.txt" in second.tool_use_result
    assert first.uuid and second.uuid and first.uuid != second.uuid
    final = messages[-1]
    assert isinstance(final, ResultMessage) and final.result == "read them"


async def test_a_sub_agents_stream_sends_no_partials(tmp_path: Path) -> None:
    # as Claude Code: partials are the main conversation's; a sub-agent's messages come
    # whole, under its Agent call (parent_tool_use_id)
    call = tool_use(
        "Agent", subagent_type="poet", description="a poem", prompt="write one",
        run_in_background=False,
    )  # fmt: skip
    call["id"] = "toolu_poet_call"
    model = scripted(tmp_path, [call], [text("roses are red")], [text("the poet is done")])
    agents = {"poet": AgentDefinition(description="Writes poems", prompt="You write poems.")}
    opts = options(tmp_path, model, agents=agents, include_partial_messages=True)
    messages = await run("poem please", opts)
    partials = [m for m in messages if isinstance(m, StreamEvent)]
    assert {p.parent_tool_use_id for p in partials} == {None}
    deltas = [p.event["delta"] for p in partials if p.event["type"] == "content_block_delta"]
    assert "".join(d.get("text", "") for d in deltas) == "the poet is done"
    starts = [p.event["message"]["id"] for p in partials if p.event["type"] == "message_start"]
    assert len(starts) == 2
    main = [m for m in messages if isinstance(m, AssistantMessage) and m.parent_tool_use_id is None]
    assert [m.message_id for m in main] == starts  # the sub-agent's stream changes no id
    inner = [m for m in messages if getattr(m, "parent_tool_use_id", None) == "toolu_poet_call"]
    assert any("roses are red" in str(getattr(m, "content", "")) for m in inner)
