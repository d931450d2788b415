"""AnthropicModel against a loopback server speaking the Messages SSE format."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from hands.core.messages import (
    ImageBlock,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    user_text,
)
from hands.core.tool import ToolSpec
from hands.errors import MalformedStreamError, ModelAPIError, StreamInterruptedError
from hands.models.anthropic import AnthropicModel
from hands.models.base import (
    BlockComplete,
    InputJsonDelta,
    MessageStart,
    MessageStop,
    ModelRequest,
    RetryWait,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolUseStart,
    Usage,
)
from hands.models.pricing import estimate_cost
from hands.models.retry import RetryPolicy
from models.loopback import Cut, LoopbackServer, json_reply, split_every, sse, sse_reply
from models.streams import collect, collect_until_error, completed
from models.wire import (
    a_block_start,
    a_delta,
    a_end,
    a_error,
    a_error_body,
    a_ping,
    a_start,
    a_stop,
    a_text,
    a_thinking,
    a_tool,
    a_tool_open,
)

pytestmark = pytest.mark.anyio

FAST = RetryPolicy(max_retries=2, initial_delay=0.01, max_delay=0.02)
TOOLS = [
    ToolSpec(name="Read", description="read", input_schema={"type": "object"}),
    ToolSpec(name="Glob", description="glob", input_schema={"type": "object"}),
]


def model(server: LoopbackServer, **kw: Any) -> AnthropicModel:
    kw.setdefault("retry", FAST)
    return server.adopt(
        AnthropicModel("claude-sonnet-4-6", api_key="test-key", base_url=server.url, **kw)
    )


def request(*messages: Message, system: str = "You are terse.") -> ModelRequest:
    return ModelRequest(messages=messages or (user_text("hi"),), tools=TOOLS, system=system)


async def run(m: AnthropicModel, req: ModelRequest | None = None) -> list[StreamEvent]:
    return await collect(m, req or request())


async def run_until_error(
    m: AnthropicModel, exc_type: type[Exception]
) -> tuple[list[StreamEvent], Exception]:
    return await collect_until_error(m, request(), exc_type)


async def test_thinking_text_and_parallel_tools_split_mid_token(server: LoopbackServer) -> None:
    stream = b"".join(
        [
            a_start(input_tokens=30, cache_creation=1200, cache_read=800),
            a_ping(),
            *a_thinking(0, "Two files", " to read."),
            *a_text(1, "Reading ", "both — ", "ünïcode ✓"),
            *a_tool(2, "toolu_01", "Read", '{"file_', 'path": "a.p', 'y"}'),
            a_ping(),
            *a_tool(3, "toolu_02", "Read", "", '{"file_path": ', '"b.py", "limit": 5}'),
            *a_end("tool_use", output_tokens=77),
        ]
    )
    # three-byte pieces cut SSE lines, JSON tokens and UTF-8 characters apart
    server.queue(sse_reply(*split_every(stream, 3)))
    m = model(server)
    events = await run(m)

    assert events[0] == MessageStart(id="msg_01", model="claude-sonnet-4-6")
    assert [e.thinking for e in events if isinstance(e, ThinkingDelta)] == [
        "Two files",
        " to read.",
    ]
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Reading both — ünïcode ✓"
    starts = [e for e in events if isinstance(e, ToolUseStart)]
    assert [(s.index, s.id, s.name) for s in starts] == [
        (2, "toolu_01", "Read"),
        (3, "toolu_02", "Read"),
    ]
    assert [e.partial_json for e in events if isinstance(e, InputJsonDelta) and e.index == 2] == [
        '{"file_',
        'path": "a.p',
        'y"}',
    ]
    assert completed(events) == [
        ThinkingBlock(thinking="Two files to read.", signature="c2lnbmF0dXJl"),
        TextBlock(text="Reading both — ünïcode ✓"),
        ToolUseBlock(id="toolu_01", name="Read", input={"file_path": "a.py"}),
        ToolUseBlock(id="toolu_02", name="Read", input={"file_path": "b.py", "limit": 5}),
    ]
    # the first tool is complete before the second one starts streaming
    first_done = next(
        i for i, e in enumerate(events) if isinstance(e, BlockComplete) and e.index == 2
    )
    assert first_done < events.index(starts[1])
    usage = Usage(
        input_tokens=30,
        output_tokens=77,
        cache_creation_input_tokens=1200,
        cache_read_input_tokens=800,
    )
    assert events[-1] == MessageStop(stop_reason="tool_use", usage=usage)
    assert m.total_usage == usage
    assert m.total_cost_usd == pytest.approx(
        (30 * 3 + 77 * 15 + 1200 * 3.75 + 800 * 0.3) / 1_000_000
    )
    assert len(server.requests) == 1


async def test_request_shape_and_cache_breakpoints(server: LoopbackServer) -> None:
    server.queue(sse_reply(a_start(), *a_text(0, "ok"), *a_end()))
    history = (
        user_text("read it"),
        Message(
            role="assistant",
            content=(
                ThinkingBlock(thinking="unsigned, from a script"),
                TextBlock(text=""),
                ToolUseBlock(id="toolu_9", name="Read", input={"file_path": "x.png"}),
            ),
        ),
        Message(
            role="user",
            content=(
                ToolResultBlock(
                    tool_use_id="toolu_9",
                    content=(
                        TextBlock(text="an image"),
                        ImageBlock(media_type="image/png", data="iVBO"),
                    ),
                ),
            ),
        ),
    )
    await run(model(server, thinking=2048), request(*history, system="Be brief."))
    [sent] = server.requests
    assert sent.path == "/v1/messages"
    body = sent.body
    assert body["model"] == "claude-sonnet-4-6" and body["stream"] is True
    assert body["system"] == [
        {"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}
    ]
    # tools in the order the pool gave them (it keeps the stable sorted prefix first);
    # the breakpoint on the last one caches the whole list
    assert [t["name"] for t in body["tools"]] == ["Read", "Glob"]
    assert "cache_control" not in body["tools"][0]
    assert body["tools"][1]["cache_control"] == {"type": "ephemeral"}
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert body["max_tokens"] == 8192
    # unsigned thinking and empty text are not sent; the last block is a breakpoint
    assistant = body["messages"][1]
    assert assistant == {
        "role": "assistant",
        "content": [
            {"type": "tool_use", "id": "toolu_9", "name": "Read", "input": {"file_path": "x.png"}}
        ],
    }
    result = body["messages"][2]["content"][0]
    assert result["type"] == "tool_result" and result["cache_control"] == {"type": "ephemeral"}
    assert result["content"][1] == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": "iVBO"},
    }
    assert "cache_control" not in body["messages"][0]["content"][0]


async def test_extra_request_fields_pass_through(server: LoopbackServer) -> None:
    server.queue(sse_reply(a_start(), *a_text(0, "ok"), *a_end()))
    req = ModelRequest(
        messages=[user_text("hi")], extra={"temperature": 0.2, "metadata": {"user_id": "u1"}}
    )
    await run(model(server, prompt_cache=False), req)
    body = server.requests[0].body
    assert body["temperature"] == 0.2 and body["metadata"] == {"user_id": "u1"}
    assert "system" not in body and "tools" not in body
    assert "cache_control" not in json.dumps(body)


async def test_unknown_event_types_and_pings_are_ignored(server: LoopbackServer) -> None:
    server.queue(
        sse_reply(
            a_start(),
            a_ping(),
            sse("some_future_event", {"type": "some_future_event", "detail": 1}),
            *a_text(0, "fine"),
            *a_end(),
        )
    )
    events = await run(model(server))
    assert completed(events) == [TextBlock(text="fine")]


async def test_overload_and_rate_limit_are_retried_before_any_event(server: LoopbackServer) -> None:
    server.queue(
        json_reply(529, a_error_body("overloaded_error", "Overloaded")),
        json_reply(429, a_error_body("rate_limit_error", "slow down"), {"retry-after-ms": "5"}),
        # a 200 whose stream says overloaded before any content: retried too
        sse_reply(a_start(), a_ping(), a_error()),
        sse_reply(a_start(), *a_text(0, "at last"), *a_end()),
    )
    m = model(server, retry=RetryPolicy(max_retries=3, initial_delay=0.01))
    events = await run(m)
    assert len(server.requests) == 4
    # each retry is announced before it waits; the turn itself starts once
    waits = [e for e in events if isinstance(e, RetryWait)]
    assert [(w.attempt, w.max_attempts) for w in waits] == [(2, 4), (3, 4), (4, 4)]
    assert "529 overloaded_error" in waits[0].error and waits[1].delay_s == 0.005
    assert events[: len(waits)] == waits
    assert [e for e in events if isinstance(e, MessageStart)] == [events[len(waits)]]
    assert completed(events) == [TextBlock(text="at last")]
    assert [r.headers.get("x-stainless-retry-count") for r in server.requests] == ["0"] * 4


async def test_retries_give_up_with_a_clear_error(server: LoopbackServer) -> None:
    for _ in range(3):
        server.queue(json_reply(529, a_error_body("overloaded_error", "Overloaded")))
    _, error = await run_until_error(model(server), ModelAPIError)
    assert len(server.requests) == 3  # first attempt + max_retries=2
    assert isinstance(error, ModelAPIError) and error.retryable and error.status == 529
    assert "overloaded_error" in str(error) and "gave up after 3 attempts" in str(error)


async def test_authentication_failure_is_not_retried(server: LoopbackServer) -> None:
    server.queue(json_reply(401, a_error_body("authentication_error", "invalid x-api-key")))
    _, error = await run_until_error(model(server), ModelAPIError)
    assert len(server.requests) == 1
    assert "ANTHROPIC_API_KEY" in str(error) and "invalid x-api-key" in str(error)
    assert isinstance(error, ModelAPIError) and not error.retryable and error.status == 401


async def test_error_event_after_content_interrupts_the_stream(server: LoopbackServer) -> None:
    server.queue(
        sse_reply(
            a_start(),
            *a_tool(0, "toolu_01", "Read", '{"file_path": "a.py"}'),
            *a_tool_open(1, "toolu_02", "Read", '{"file_pa'),
            a_error(),
        )
    )
    seen, error = await run_until_error(model(server), StreamInterruptedError)
    assert isinstance(error, StreamInterruptedError) and error.retryable
    assert "overloaded_error" in str(error)
    # the finished call was delivered; the partial one never is
    assert completed(seen) == [
        ToolUseBlock(id="toolu_01", name="Read", input={"file_path": "a.py"})
    ]
    assert len(server.requests) == 1


async def test_cut_connection_mid_tool_input(server: LoopbackServer) -> None:
    server.queue(
        sse_reply(
            a_start(),
            *a_text(0, "Reading."),
            *split_every(b"".join(a_tool_open(1, "toolu_01", "Read", '{"file_path": "a')), 7),
            Cut(),
        )
    )
    seen, error = await run_until_error(model(server), StreamInterruptedError)
    assert type(error) is StreamInterruptedError and error.retryable
    assert "connection" in str(error)
    assert completed(seen) == [TextBlock(text="Reading.")]
    assert any(isinstance(e, ToolUseStart) for e in seen)


async def test_stream_ending_without_message_stop(server: LoopbackServer) -> None:
    server.queue(sse_reply(a_start(), *a_text(0, "half")))  # body ends cleanly, message does not
    seen, error = await run_until_error(model(server), StreamInterruptedError)
    assert "no message_stop" in str(error) and completed(seen) == [TextBlock(text="half")]


async def test_cut_before_any_event_is_retried(server: LoopbackServer) -> None:
    server.queue(sse_reply(a_start(), Cut()), sse_reply(a_start(), *a_text(0, "ok"), *a_end()))
    events = await run(model(server))
    assert completed(events) == [TextBlock(text="ok")] and len(server.requests) == 2


async def test_invalid_tool_json_is_a_malformed_stream(server: LoopbackServer) -> None:
    server.queue(
        sse_reply(
            a_start(),
            *a_tool(0, "toolu_01", "Read", '{"file_path": ', '"a.py",,}'),
            *a_end("tool_use"),
        )
    )
    seen, error = await run_until_error(model(server), MalformedStreamError)
    assert isinstance(error, MalformedStreamError) and error.retryable
    assert "Read" in str(error) and "not valid JSON" in str(error)
    assert completed(seen) == []


async def test_unknown_block_type_is_a_clear_error(server: LoopbackServer) -> None:
    server.queue(
        sse_reply(
            a_start(),
            *a_text(0, "Searching."),
            a_block_start(1, {"type": "hologram", "data": "?"}),
            a_stop(1),
            *a_end(),
        )
    )
    seen, error = await run_until_error(model(server), MalformedStreamError)
    assert isinstance(error, MalformedStreamError) and not error.retryable
    assert "'hologram'" in str(error) and "text, thinking, tool_use and web search" in str(error)
    assert completed(seen) == [TextBlock(text="Searching.")]


@pytest.mark.parametrize("block_stopped", [True, False])
async def test_max_tokens_in_the_middle_of_tool_input(
    server: LoopbackServer, block_stopped: bool
) -> None:
    tool = a_tool_open(0, "toolu_01", "Write", '{"file_path": "big.py", "content": "def f(')
    if block_stopped:
        tool.append(a_stop(0))
    server.queue(sse_reply(a_start(), *tool, *a_end("max_tokens", output_tokens=8192)))
    seen, error = await run_until_error(model(server), MalformedStreamError)
    assert isinstance(error, MalformedStreamError) and not error.retryable
    assert "max_tokens" in str(error) and "'Write'" in str(error)
    assert completed(seen) == []


async def test_delta_for_a_block_never_started(server: LoopbackServer) -> None:
    server.queue(sse_reply(a_start(), a_delta(4, {"type": "text_delta", "text": "x"}), *a_end()))
    _, error = await run_until_error(model(server), MalformedStreamError)
    assert "block 4" in str(error)


def test_cost_per_model_family() -> None:
    million = Usage(input_tokens=1_000_000, output_tokens=1_000_000)
    assert estimate_cost("claude-sonnet-4-5-20250929", million) == pytest.approx(18.0)
    assert estimate_cost("claude-opus-4-1-20250805", million) == pytest.approx(90.0)
    assert estimate_cost("claude-opus-4-5", million) == pytest.approx(30.0)
    assert estimate_cost("claude-haiku-4-5", million) == pytest.approx(6.0)
    assert estimate_cost("claude-3-5-haiku-latest", million) == pytest.approx(4.8)
    cached = Usage(cache_creation_input_tokens=1_000_000, cache_read_input_tokens=1_000_000)
    assert estimate_cost("claude-sonnet-4-5", cached) == pytest.approx(3.75 + 0.3)
    assert estimate_cost("some-local-model", million) is None


async def test_effort_and_extra_objects_join_output_config_and_thinking(
    server: LoopbackServer,
) -> None:
    server.queue(sse_reply(a_start(), *a_text(0, "ok"), *a_end()))
    server.queue(sse_reply(a_start(), *a_text(0, "ok"), *a_end()))
    extra = {"output_config": {"task_budget": {"type": "tokens", "total": 9}}, "top_k": 3}
    shown = {"thinking": {"display": "omitted"}}
    req = dataclasses.replace(request(), effort="xhigh", extra={**extra, **shown})
    await run(model(server, thinking=2048), req)
    await run(model(server), req)  # thinking off: its display is not sent alone
    on, off = (r.body for r in server.requests)
    assert on["output_config"] == {"effort": "xhigh", "task_budget": {"type": "tokens", "total": 9}}
    assert on["thinking"] == {"type": "enabled", "budget_tokens": 2048, "display": "omitted"}
    assert on["top_k"] == 3
    assert "thinking" not in off and off["output_config"]["effort"] == "xhigh"
