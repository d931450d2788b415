"""AnthropicModel's own HTTP client against a loopback Messages API: headers, environment,
connections and every way a request can fail."""

from __future__ import annotations

import os
import re
import socket
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from anthropic import AsyncAnthropic

from hands.core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock, user_text
from hands.errors import MalformedStreamError, ModelAPIError
from hands.models.anthropic import AnthropicModel
from hands.models.base import ModelRequest, RetryWait, Usage
from hands.models.retry import RetryPolicy
from models.loopback import LoopbackServer, Reply, json_reply, serving, sse, sse_reply
from models.streams import collect, collect_until_error, completed
from models.wire import a_end, a_error, a_error_body, a_start, a_text, a_tool

pytestmark = pytest.mark.anyio

FAST = RetryPolicy(max_retries=2, initial_delay=0.01, max_delay=0.02)
HI = ModelRequest(messages=[user_text("hi")])


def model(server: LoopbackServer, **kw: Any) -> AnthropicModel:
    kw.setdefault("retry", FAST)
    kw.setdefault("base_url", server.url)
    if "auth_token" not in kw:
        kw.setdefault("api_key", "test-key")
    return server.adopt(AnthropicModel("claude-sonnet-4-6", **kw))


def text_turn(text: str = "ok", output_tokens: int = 42) -> Reply:
    return sse_reply(a_start(), *a_text(0, text), *a_end(output_tokens=output_tokens))


async def test_two_turns_share_one_connection_and_sum_their_usage(
    server: LoopbackServer,
) -> None:
    server.queue(
        sse_reply(
            a_start(input_tokens=30),
            *a_tool(0, "toolu_1", "Read", '{"file_path": "a.py"}'),
            *a_end("tool_use", output_tokens=7),
        ),
        text_turn("done", output_tokens=5),
    )
    m = model(server)
    first = await collect(m, HI)
    assert completed(first) == [
        ToolUseBlock(id="toolu_1", name="Read", input={"file_path": "a.py"})
    ]
    follow_up = (
        user_text("hi"),
        Message(role="assistant", content=tuple(completed(first))),
        Message(role="user", content=(ToolResultBlock(tool_use_id="toolu_1", content="x = 1"),)),
    )
    second = await collect(m, ModelRequest(messages=follow_up))
    assert completed(second) == [TextBlock(text="done")]
    assert m.total_usage == Usage(input_tokens=55, output_tokens=12)
    first_peer, second_peer = (r.peer for r in server.requests)
    assert first_peer == second_peer  # kept alive between the turns


async def test_an_api_key_goes_in_x_api_key(server: LoopbackServer) -> None:
    server.queue(text_turn(), text_turn())
    await collect(model(server, default_headers={"X-Team": "blue"}), HI)
    await collect(model(server, api_key="both-key", auth_token="both-token"), HI)
    headers, both = (r.headers for r in server.requests)
    assert headers["x-api-key"] == "test-key" and "authorization" not in headers
    assert headers["anthropic-version"] == "2023-06-01"
    assert headers["content-type"] == "application/json" and headers["x-team"] == "blue"
    assert both["x-api-key"] == "both-key" and "authorization" not in both  # the key wins


async def test_an_auth_token_goes_in_a_bearer_header(server: LoopbackServer) -> None:
    server.queue(text_turn())
    await collect(model(server, auth_token="oauth-tok"), HI)
    headers = server.requests[0].headers
    assert headers["authorization"] == "Bearer oauth-tok" and "x-api-key" not in headers


async def test_settings_from_the_environment(
    server: LoopbackServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url + "/gateway/")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "env-key")
    monkeypatch.setenv("ANTHROPIC_AUTH_TOKEN", "env-token")  # the key wins, as in the SDK
    monkeypatch.setenv("ANTHROPIC_CUSTOM_HEADERS", "X-One: 1\nX-Two: from env\nnot a header")
    server.queue(text_turn(), text_turn())
    await collect(server.adopt(AnthropicModel(retry=FAST)), HI)
    await collect(server.adopt(AnthropicModel(retry=FAST, default_headers={"X-Two": "mine"})), HI)
    env_only, overridden = server.requests
    assert env_only.path == "/gateway/v1/messages"
    assert env_only.headers["x-api-key"] == "env-key" and "authorization" not in env_only.headers
    assert env_only.headers["x-one"] == "1" and env_only.headers["x-two"] == "from env"
    assert overridden.headers["x-two"] == "mine"


async def test_the_token_from_the_environment_when_there_is_no_key(
    server: LoopbackServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("ANTHROPIC_AUTH_TOKEN", "env-token")
    server.queue(text_turn())
    await collect(server.adopt(AnthropicModel(base_url=server.url, retry=FAST)), HI)
    assert server.requests[0].headers["authorization"] == "Bearer env-token"


async def test_extra_body_is_merged_over_the_request(server: LoopbackServer) -> None:
    server.queue(text_turn())
    request = ModelRequest(messages=[user_text("hi")], extra={"max_tokens": 5, "top_k": 3})
    await collect(model(server), request)
    body = server.requests[0].body
    assert body["max_tokens"] == 5 and body["top_k"] == 3 and "extra_body" not in body


@pytest.mark.parametrize("status", [408, 409, 500, 502])
async def test_retryable_statuses(server: LoopbackServer, status: int) -> None:
    server.queue(Reply(status=status, body=(b"<html>bad gateway</html>",)), text_turn())
    events = await collect(model(server), HI)
    [wait] = [e for e in events if isinstance(e, RetryWait)]
    assert f"answered {status} error: <html>bad gateway</html>" in wait.error
    assert completed(events) == [TextBlock(text="ok")] and len(server.requests) == 2


async def test_retry_after_in_seconds_is_obeyed(server: LoopbackServer) -> None:
    limited = a_error_body("rate_limit_error", "slow down")
    server.queue(json_reply(429, limited, {"retry-after": "0.05"}), text_turn())
    events = await collect(model(server), HI)
    [wait] = [e for e in events if isinstance(e, RetryWait)]
    assert wait.delay_s == 0.05 and "429 rate_limit_error: slow down" in wait.error


async def test_a_refused_request_is_explained_not_retried(server: LoopbackServer) -> None:
    server.queue(json_reply(400, a_error_body("invalid_request_error", "max_tokens: too big")))
    _, error = await collect_until_error(model(server), HI, ModelAPIError)
    assert isinstance(error, ModelAPIError) and error.status == 400 and not error.retryable
    assert "(400 invalid_request_error): max_tokens: too big" in str(error)
    assert len(server.requests) == 1


async def test_x_should_retry_overrides_the_status(server: LoopbackServer) -> None:
    overloaded = a_error_body("overloaded_error", "Overloaded")
    server.queue(json_reply(529, overloaded, {"x-should-retry": "false"}))
    _, error = await collect_until_error(model(server), HI, ModelAPIError)
    assert isinstance(error, ModelAPIError) and error.status == 529 and not error.retryable
    assert len(server.requests) == 1
    odd = a_error_body("invalid_request_error", "try again")
    server.queue(json_reply(400, odd, {"x-should-retry": "true"}), text_turn())
    events = await collect(model(server), HI)
    assert completed(events) == [TextBlock(text="ok")] and len(server.requests) == 3


async def test_an_unreachable_api_is_retried_then_reported(server: LoopbackServer) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}"
    _, error = await collect_until_error(model(server, base_url=url), HI, ModelAPIError)
    assert isinstance(error, ModelAPIError) and error.retryable and error.status is None
    assert "cannot reach the Anthropic API: ConnectError" in str(error)
    assert "gave up after 3 attempts" in str(error)


async def test_an_error_event_that_is_not_worth_retrying(server: LoopbackServer) -> None:
    server.queue(sse_reply(a_start(), a_error("invalid_request_error", "bad tool schema")))
    _, error = await collect_until_error(model(server), HI, ModelAPIError)
    assert isinstance(error, ModelAPIError) and not error.retryable
    assert "the stream reported invalid_request_error: bad tool schema" in str(error)
    assert len(server.requests) == 1


async def test_invalid_event_json(server: LoopbackServer) -> None:
    # before any content: retried; after it: the turn is malformed
    broken = sse("content_block_delta", "{not json")
    server.queue(sse_reply(a_start(), broken), text_turn())
    events = await collect(model(server), HI)
    assert completed(events) == [TextBlock(text="ok")] and len(server.requests) == 2
    server.queue(sse_reply(a_start(), *a_text(0, "half"), broken))
    seen, error = await collect_until_error(model(server), HI, MalformedStreamError)
    assert isinstance(error, MalformedStreamError) and error.retryable
    assert "not valid JSON" in str(error) and completed(seen) == [TextBlock(text="half")]


async def test_event_data_that_is_not_an_object(server: LoopbackServer) -> None:
    server.queue(sse_reply(a_start(), *a_text(0, "half"), sse("content_block_delta", "[1]")))
    _, error = await collect_until_error(model(server), HI, MalformedStreamError)
    assert "not a JSON object" in str(error)


async def test_an_answer_that_is_not_an_event_stream_is_retried(server: LoopbackServer) -> None:
    server.queue(*[json_reply(200, {"type": "message"})] * 3)
    _, error = await collect_until_error(model(server), HI, ModelAPIError)
    assert "text/event-stream" in str(error) and len(server.requests) == 3


async def test_aclose_closes_the_connection_and_the_model_can_reconnect(
    server: LoopbackServer,
) -> None:
    idle = AnthropicModel(api_key="k", base_url=server.url)
    await idle.aclose()  # never connected: nothing to close
    server.queue(text_turn(), text_turn())
    m = model(server)
    await collect(m, HI)
    await m.aclose()
    await collect(m, HI)
    first, second = server.requests
    assert first.peer != second.peer


async def test_a_client_passed_in_still_streams_through_the_sdk(server: LoopbackServer) -> None:
    client = AsyncAnthropic(api_key="sdk-key", base_url=server.url, max_retries=0)
    m = server.adopt(AnthropicModel(client=client, retry=FAST))
    server.queue(json_reply(529, a_error_body("overloaded_error", "Overloaded")), text_turn())
    events = await collect(m, HI)
    [wait] = [e for e in events if isinstance(e, RetryWait)]
    assert "529 overloaded_error: Overloaded" in wait.error
    assert completed(events) == [TextBlock(text="ok")]
    assert "x-stainless-lang" in server.requests[0].headers  # sent by the SDK


async def test_hands_p_does_not_import_the_sdk(server: LoopbackServer, tmp_path: Path) -> None:
    server.queue(text_turn("hello from the wire"))
    env = {
        **os.environ,
        "HANDS_HOME": str(tmp_path / "home"),
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": server.url,
    }
    env.pop("ANTHROPIC_AUTH_TOKEN", None)
    argv = ["-p", "hi", "--model", "anthropic:claude-sonnet-4-6"]
    proc = await anyio.run_process(
        [sys.executable, "-X", "importtime", "-m", "hands", *argv],
        env=env,
        cwd=tmp_path,
        check=False,
    )
    stderr = proc.stderr.decode(errors="replace")
    assert proc.returncode == 0, stderr[-2000:]
    assert proc.stdout.decode().strip() == "hello from the wire"
    imported = set(re.findall(r"^import time:.*\|\s*(\S+)$", stderr, re.MULTILINE))
    assert "httpx2" in imported and "hands.models.anthropic_wire" in imported
    assert not {m for m in imported if m == "anthropic" or m.startswith("anthropic.")}


def test_a_model_used_under_a_second_event_loop_reconnects(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with serving(monkeypatch) as srv:
        srv.queue(text_turn("one"), text_turn("two"))
        m = AnthropicModel(api_key="k", base_url=srv.url, retry=RetryPolicy(max_retries=0))
        first = anyio.run(collect, m, HI)
        second = anyio.run(collect, m, HI)  # the first loop, and its connection, are gone
        anyio.run(m.aclose)
    assert completed(first) == [TextBlock(text="one")]
    assert completed(second) == [TextBlock(text="two")]


async def test_a_proxy_from_the_environment_is_used(
    server: LoopbackServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.setenv("HTTP_PROXY", server.url)  # the loopback server plays the proxy
    server.queue(text_turn("proxied"))
    events = await collect(model(server, base_url="http://api.example.invalid"), HI)
    assert completed(events) == [TextBlock(text="proxied")]
    assert server.requests[0].path == "http://api.example.invalid/v1/messages"
