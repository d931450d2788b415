"""``hands.query`` with real tools, driven by each provider against its loopback server.

The server holds the rest of the stream back until the test has seen the tool's result:
the turn can only finish if the tool ran while the model was still streaming.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands import QueryOptions, query, tool
from hands.agent.events import MessageEvent, QueryEvent, ResultEvent, StreamRetryEvent
from hands.core.messages import ToolResultBlock
from hands.models.anthropic import AnthropicModel
from hands.models.base import Model
from hands.models.openai import OpenAIModel
from hands.models.retry import RetryPolicy
from hands.orchestration.events import ToolResultEvent
from hands.tools.file.read import ReadTool
from models.loopback import LoopbackServer, Wait, sse_reply
from models.wire import (
    a_end,
    a_error,
    a_start,
    a_text,
    a_tool,
    o_call,
    o_done,
    o_finish,
    o_role,
    o_text,
    o_usage,
)

pytestmark = pytest.mark.anyio

FAST = RetryPolicy(max_retries=1, initial_delay=0.01)
started_slow: list[str] = []


@tool(read_only=True)
async def slow_probe(label: str) -> str:
    """Take a long time."""
    started_slow.append(label)
    await anyio.sleep(30)
    return label


async def drive(
    model: Model,
    cwd: Path,
    gate: threading.Event | None,
    tools: list[Any] | None = None,
    **options: Any,
) -> list[QueryEvent]:
    """Run a query; open ``gate`` once the first tool result is out."""
    events: list[QueryEvent] = []
    q = query(
        "What does notes.txt say?",
        QueryOptions(model=model, tools=tools or [ReadTool()], cwd=cwd, max_turns=4, **options),
    )
    with anyio.fail_after(20):
        async for event in q:
            events.append(event)
            if isinstance(event, ToolResultEvent) and gate is not None:
                gate.set()
    return events


def read_arguments(path: Path) -> str:
    return json.dumps({"file_path": str(path)})


def check_tool_ran_mid_stream(events: list[QueryEvent], server: LoopbackServer) -> ToolResultEvent:
    assert server.timed_out == [], "the tool did not run before the stream ended"
    result = next(e for e in events if isinstance(e, ToolResultEvent))
    first_message = next(e for e in events if isinstance(e, MessageEvent))
    # the tool's result was out before the assistant message (sent at stream end)
    assert events.index(result) < events.index(first_message)
    assert first_message.message.role == "assistant"
    assert "hello from the notes" in result.outcome.block.text
    final = events[-1]
    assert isinstance(final, ResultEvent)
    assert final.subtype == "success", final.error
    assert final.result == "The notes say hello." and final.num_turns == 2
    assert len(server.requests) == 2  # one request per model turn
    return result


async def test_anthropic_tool_starts_before_the_stream_ends(
    server: LoopbackServer, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("hello from the notes\n")
    gate = threading.Event()
    fragments = read_arguments(notes)
    server.queue(
        sse_reply(
            a_start(),
            *a_text(0, "Let me read it."),
            *a_tool(1, "toolu_read", "Read", fragments[:9], fragments[9:]),
            Wait(gate=gate),
            *a_text(2, " (still talking)"),
            *a_end("tool_use"),
        ),
        sse_reply(a_start(), *a_text(0, "The notes say hello."), *a_end("end_turn")),
    )
    model = server.adopt(
        AnthropicModel("claude-sonnet-4-6", api_key="k", base_url=server.url, retry=FAST)
    )
    events = await drive(model, tmp_path, gate)
    result = check_tool_ran_mid_stream(events, server)
    assert result.tool_use.id == "toolu_read"
    # the second request carries the tool result, with the cache breakpoint on it
    second = server.requests[1].body
    last = second["messages"][-1]["content"][0]
    assert last["type"] == "tool_result" and last["tool_use_id"] == "toolu_read"
    assert "hello from the notes" in json.dumps(last["content"])
    assert last["cache_control"] == {"type": "ephemeral"}
    assert [m["role"] for m in second["messages"]] == ["user", "assistant", "user"]
    assert second["tools"][-1]["name"] == "Read"


async def test_openai_call_starts_when_the_next_call_begins(
    server: LoopbackServer, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("hello from the notes\n")
    gate = threading.Event()
    arguments = read_arguments(notes)
    server.queue(
        sse_reply(
            o_role(),
            o_text("Reading."),
            o_call(0, id="call_1", name="Read", args=arguments[:5]),
            o_call(0, args=arguments[5:]),
            # call 0 is complete once call 1 begins; the server then waits for its result
            o_call(1, id="call_2", name="Read", args=""),
            Wait(gate=gate),
            o_call(1, args=read_arguments(tmp_path / "missing.txt")),
            o_finish("tool_calls"),
            o_usage(50, 20),
            o_done(),
        ),
        sse_reply(o_role(), o_text("The notes say hello."), o_finish("stop"), o_done()),
    )
    model = server.adopt(OpenAIModel("llama3", base_url=server.url + "/v1", retry=FAST))
    events = await drive(model, tmp_path, gate)
    result = check_tool_ran_mid_stream(events, server)
    assert result.tool_use.id == "call_1"
    second = server.requests[1].body["messages"]
    assert [m["role"] for m in second] == ["system", "user", "assistant", "tool", "tool"]
    assert second[3]["tool_call_id"] == "call_1" and "hello from the notes" in second[3]["content"]
    assert second[4]["tool_call_id"] == "call_2" and second[4]["content"].startswith("Error: ")
    final = events[-1]
    assert isinstance(final, ResultEvent) and final.usage.input_tokens == 50


async def test_broken_stream_settles_started_tools_then_is_retried(
    server: LoopbackServer, tmp_path: Path
) -> None:
    started_slow.clear()
    gate = threading.Event()
    server.queue(
        sse_reply(
            a_start(),
            *a_tool(0, "toolu_slow", "slow_probe", '{"label": "x"}'),
            Wait(gate=gate, timeout=2),
            a_error("overloaded_error", "Overloaded"),
        )
    )
    server.queue(sse_reply(a_start(), *a_text(0, "Recovered."), *a_end()))
    model = server.adopt(
        AnthropicModel("claude-sonnet-4-6", api_key="k", base_url=server.url, retry=FAST)
    )

    async def open_gate_when_started() -> None:
        while not started_slow:
            await anyio.sleep(0.01)
        gate.set()

    events: list[QueryEvent] = []
    async with anyio.create_task_group() as tg:
        tg.start_soon(open_gate_when_started)
        events = await drive(model, tmp_path, None, tools=[slow_probe], stream_retry_delay_s=0)
    final = events[-1]
    assert isinstance(final, ResultEvent) and final.subtype == "success"
    assert final.result == "Recovered."
    retries = [e for e in events if isinstance(e, StreamRetryEvent)]
    assert len(retries) == 1 and "overloaded_error" in retries[0].error
    results = [e.outcome.block for e in events if isinstance(e, ToolResultEvent)]
    assert [(r.tool_use_id, r.is_error) for r in results] == [("toolu_slow", True)]
    assert isinstance(results[0], ToolResultBlock) and results[0].text.startswith("Discarded")
    assert len(server.requests) == 2
    # the retried request carries no trace of the broken stream
    assert [m["role"] for m in server.requests[1].body["messages"]] == ["user"]


async def test_broken_stream_without_retries_ends_the_turn(
    server: LoopbackServer, tmp_path: Path
) -> None:
    server.queue(sse_reply(a_start(), *a_text(0, "Half"), a_error("overloaded_error", "Busy")))
    model = server.adopt(
        AnthropicModel("claude-sonnet-4-6", api_key="k", base_url=server.url, retry=FAST)
    )
    events = await drive(model, tmp_path, None, stream_retries=0)
    final = events[-1]
    assert isinstance(final, ResultEvent) and final.subtype == "error_during_execution"
    assert "overloaded_error" in final.error
    assert len(server.requests) == 1
