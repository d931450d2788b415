"""OpenAIModel against a loopback server speaking the Chat Completions SSE format."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from hands.core.messages import (
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    user_text,
)
from hands.core.tool import ToolSpec
from hands.errors import MalformedStreamError, ModelAPIError, StreamInterruptedError
from hands.models.base import (
    BlockComplete,
    Effort,
    InputJsonDelta,
    MessageStart,
    MessageStop,
    ModelRequest,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolUseStart,
    Usage,
)
from hands.models.openai import OpenAIModel
from hands.models.retry import RetryPolicy
from models.loopback import Cut, LoopbackServer, json_reply, split_every, sse, sse_reply
from models.streams import collect, collect_until_error, completed
from models.wire import o_call, o_chunk, o_done, o_finish, o_role, o_text, o_usage

pytestmark = pytest.mark.anyio

FAST = RetryPolicy(max_retries=2, initial_delay=0.01, max_delay=0.02)
TOOLS = [
    ToolSpec(name="Read", description="read a file", input_schema={"type": "object"}),
    ToolSpec(name="Glob", description="find files", input_schema={"type": "object"}),
]


def model(server: LoopbackServer, **kw: Any) -> OpenAIModel:
    kw.setdefault("retry", FAST)
    kw.setdefault("base_url", server.url + "/v1")
    return server.adopt(OpenAIModel("qwen3:8b", **kw))


def request(*messages: Message) -> ModelRequest:
    return ModelRequest(messages=messages or (user_text("hi"),), tools=TOOLS, system="Be terse.")


async def run(m: OpenAIModel, req: ModelRequest | None = None) -> list[StreamEvent]:
    return await collect(m, req or request())


async def run_until_error(
    m: OpenAIModel, exc_type: type[Exception]
) -> tuple[list[StreamEvent], Exception]:
    return await collect_until_error(m, request(), exc_type)


async def test_text_then_parallel_tool_calls_split_mid_token(server: LoopbackServer) -> None:
    stream = b"".join(
        [
            o_role(),
            o_text("Reading "),
            o_text("both ✓"),
            o_call(0, id="call_a", name="Read", args=""),
            o_call(0, args='{"file_'),
            o_call(0, args='path": "a.'),
            o_call(0, args='py"}'),
            o_call(1, id="call_b", name="Glob", args='{"pattern"'),
            o_call(1, args=': "**/*.md"}'),
            o_finish("tool_calls"),
            o_usage(120, 40, cached=100),
            o_done(),
        ]
    )
    server.queue(sse_reply(*split_every(stream, 5)))
    m = model(server)
    events = await run(m)

    assert events[0] == MessageStart(id="chatcmpl-01", model="gpt-test")
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Reading both ✓"
    starts = [e for e in events if isinstance(e, ToolUseStart)]
    assert [(s.index, s.id, s.name) for s in starts] == [
        (1, "call_a", "Read"),
        (2, "call_b", "Glob"),
    ]
    fragments = [e.partial_json for e in events if isinstance(e, InputJsonDelta) and e.index == 1]
    assert fragments == ['{"file_', 'path": "a.', 'py"}']
    assert completed(events) == [
        TextBlock(text="Reading both ✓"),
        ToolUseBlock(id="call_a", name="Read", input={"file_path": "a.py"}),
        ToolUseBlock(id="call_b", name="Glob", input={"pattern": "**/*.md"}),
    ]
    # call 0 is complete as soon as call 1 starts, before the stream ends
    first_done = next(
        i for i, e in enumerate(events) if isinstance(e, BlockComplete) and e.index == 1
    )
    assert first_done < events.index(starts[1])
    usage = Usage(input_tokens=20, output_tokens=40, cache_read_input_tokens=100)
    assert events[-1] == MessageStop(stop_reason="tool_use", usage=usage)
    assert m.total_usage == usage
    assert len(server.requests) == 1


async def test_request_shape(server: LoopbackServer) -> None:
    server.queue(sse_reply(o_role(), o_text("ok"), o_finish("stop"), o_done()))
    history = (
        user_text("read a.py"),
        Message(
            role="assistant",
            content=(
                ThinkingBlock(thinking="hmm"),
                ToolUseBlock(id="call_1", name="Read", input={"file_path": "a.py"}),
            ),
        ),
        Message(role="user", content=(ToolResultBlock(tool_use_id="call_1", content="print(1)"),)),
    )
    await run(model(server), request(*history))
    [sent] = server.requests
    assert sent.path == "/v1/chat/completions"
    body = sent.body
    assert body["model"] == "qwen3:8b" and body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert body["max_tokens"] == 8192 and "max_completion_tokens" not in body
    assert [t["function"]["name"] for t in body["tools"]] == ["Glob", "Read"]
    assert body["tools"][1] == {
        "type": "function",
        "function": {
            "name": "Read",
            "description": "read a file",
            "parameters": {"type": "object"},
        },
    }
    assert body["messages"] == [
        {"role": "system", "content": "Be terse."},
        {"role": "user", "content": "read a.py"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "Read", "arguments": '{"file_path": "a.py"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "print(1)"},
    ]
    assert sent.headers["authorization"] == "Bearer no-key-required"


async def test_official_api_gets_max_completion_tokens(server: LoopbackServer) -> None:
    server.queue(sse_reply(o_role(), o_text("ok"), o_finish("stop"), o_done()))
    m = server.adopt(
        OpenAIModel(
            "gpt-4.1",
            api_key="sk-test",
            base_url=server.url + "/v1",
            max_tokens_param="max_completion_tokens",
            include_usage=False,
            retry=FAST,
        )
    )
    events = await run(m)
    body = server.requests[0].body
    assert body["max_completion_tokens"] == 8192 and "stream_options" not in body
    assert server.requests[0].headers["authorization"] == "Bearer sk-test"
    assert events[-1] == MessageStop(stop_reason="end_turn", usage=Usage())


async def test_whole_calls_in_one_chunk_without_ids_and_stop_reason(server: LoopbackServer) -> None:
    # the shape of servers that send each call whole and say "stop" after tool calls
    both = o_chunk(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"index": 0, "function": {"name": "Read", "arguments": {"file_path": "a.py"}}},
                {"index": 1, "function": {"name": "Read", "arguments": '{"file_path": "b.py"}'}},
            ],
        }
    )
    server.queue(sse_reply(both, o_finish("stop"), o_done()))
    events = await run(model(server))
    assert completed(events) == [
        ToolUseBlock(id="call_1", name="Read", input={"file_path": "a.py"}),
        ToolUseBlock(id="call_2", name="Read", input={"file_path": "b.py"}),
    ]
    assert isinstance(events[-1], MessageStop) and events[-1].stop_reason == "tool_use"


async def test_reasoning_deltas_become_thinking(server: LoopbackServer) -> None:
    server.queue(
        sse_reply(
            o_chunk({"role": "assistant", "reasoning_content": "Let me"}),
            o_chunk({"reasoning_content": " think."}),
            o_text("Done."),
            o_finish("stop"),
            o_done(),
        )
    )
    events = await run(model(server))
    assert [e.thinking for e in events if isinstance(e, ThinkingDelta)] == ["Let me", " think."]
    assert completed(events) == [ThinkingBlock(thinking="Let me think."), TextBlock(text="Done.")]
    assert [e.index for e in events if isinstance(e, BlockComplete)] == [0, 1]


async def test_rate_limit_and_server_errors_are_retried(server: LoopbackServer) -> None:
    server.queue(
        json_reply(
            429, {"error": {"message": "Rate limit reached", "type": "requests", "code": None}}
        ),
        json_reply(503, {"error": {"message": "busy"}}),
        sse_reply(o_role(), o_text("ok"), o_finish("stop"), o_done()),
    )
    events = await run(model(server))
    assert completed(events) == [TextBlock(text="ok")] and len(server.requests) == 3


async def test_retries_give_up(server: LoopbackServer) -> None:
    for _ in range(3):
        server.queue(json_reply(500, {"error": {"message": "boom"}}))
    _, error = await run_until_error(model(server), ModelAPIError)
    assert isinstance(error, ModelAPIError) and error.retryable and error.status == 500
    assert "gave up after 3 attempts" in str(error) and len(server.requests) == 3


async def test_quota_and_auth_errors_are_not_retried(server: LoopbackServer) -> None:
    server.queue(
        json_reply(
            429, {"error": {"message": "You exceeded your quota", "code": "insufficient_quota"}}
        )
    )
    _, error = await run_until_error(model(server), ModelAPIError)
    assert "insufficient_quota" in str(error) and len(server.requests) == 1
    server.queue(json_reply(401, {"error": {"message": "Incorrect API key provided"}}))
    _, error = await run_until_error(model(server), ModelAPIError)
    assert "OPENAI_API_KEY" in str(error) and len(server.requests) == 2


async def test_unknown_model_names_the_fix(server: LoopbackServer) -> None:
    server.queue(
        json_reply(404, {"error": {"message": 'model "qwen3:8b" not found, try pulling it first'}})
    )
    _, error = await run_until_error(model(server), ModelAPIError)
    assert "ollama pull qwen3:8b" in str(error) and "OPENAI_BASE_URL" in str(error)


async def test_unreachable_server(server: LoopbackServer) -> None:
    m = model(
        server,
        base_url="http://127.0.0.1:9/v1",
        retry=RetryPolicy(max_retries=1, initial_delay=0.01),
    )
    _, error = await run_until_error(m, ModelAPIError)
    assert "cannot reach http://127.0.0.1:9/v1" in str(error) and "is the server running" in str(
        error
    )


async def test_cut_connection_mid_call(server: LoopbackServer) -> None:
    server.queue(
        sse_reply(
            o_role(),
            o_call(0, id="call_a", name="Read", args='{"file_path": "a.py"}'),
            o_call(1, id="call_b", name="Read", args='{"file_pa'),
            Cut(),
        )
    )
    seen, error = await run_until_error(model(server), StreamInterruptedError)
    assert type(error) is StreamInterruptedError and error.retryable
    # call 0 was complete when call 1 started; the partial call 1 never is
    assert completed(seen) == [ToolUseBlock(id="call_a", name="Read", input={"file_path": "a.py"})]


async def test_stream_ending_without_finish_reason(server: LoopbackServer) -> None:
    server.queue(sse_reply(o_role(), o_text("half")))
    seen, error = await run_until_error(model(server), StreamInterruptedError)
    assert "no finish_reason" in str(error) and completed(seen) == []


async def test_error_chunk_mid_stream(server: LoopbackServer) -> None:
    server.queue(
        sse_reply(
            o_role(), o_text("par"), sse(None, {"error": {"message": "upstream died", "code": 502}})
        )
    )
    _, error = await run_until_error(model(server), StreamInterruptedError)
    assert "upstream died" in str(error)


async def test_output_limit_in_the_middle_of_a_call(server: LoopbackServer) -> None:
    server.queue(
        sse_reply(
            o_role(),
            o_call(0, id="call_a", name="Write", args='{"file_path": "big.py", "content": "de'),
            o_finish("length"),
            o_done(),
        )
    )
    seen, error = await run_until_error(model(server), MalformedStreamError)
    assert isinstance(error, MalformedStreamError) and not error.retryable
    assert "output limit" in str(error) and "'Write'" in str(error)
    assert completed(seen) == []


async def test_invalid_arguments_json(server: LoopbackServer) -> None:
    server.queue(
        sse_reply(
            o_role(),
            o_call(0, id="c", name="Read", args="{file_path: a.py}"),
            o_finish("tool_calls"),
            o_done(),
        )
    )
    _, error = await run_until_error(model(server), MalformedStreamError)
    assert (
        isinstance(error, MalformedStreamError)
        and error.retryable
        and "not valid JSON" in str(error)
    )


@pytest.mark.parametrize(("effort", "sent"), [("low", "low"), ("high", "high"), ("max", "high")])
async def test_effort_is_sent_as_reasoning_effort(
    server: LoopbackServer, effort: Effort, sent: str
) -> None:
    server.queue(sse_reply(o_role(), o_text("ok"), o_finish("stop"), o_done()))
    await run(model(server), dataclasses.replace(request(), effort=effort))
    [got] = server.requests
    assert got.body["reasoning_effort"] == sent


async def test_no_effort_no_reasoning_effort(server: LoopbackServer) -> None:
    server.queue(sse_reply(o_role(), o_text("ok"), o_finish("stop"), o_done()))
    await run(model(server))
    assert "reasoning_effort" not in server.requests[0].body
