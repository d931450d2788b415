"""OpenAIModel's own HTTP client against a loopback Chat Completions server: headers, the
environment, connections, and the SDK for what only it resolves."""

from __future__ import annotations

from typing import Any

import openai
import pytest

from hands.core.messages import TextBlock, user_text
from hands.errors import ModelAPIError
from hands.models.base import ModelRequest, RetryWait, Usage
from hands.models.openai import OpenAIModel
from hands.models.retry import RetryPolicy
from models.loopback import LoopbackServer, Reply, json_reply, sse, sse_reply
from models.streams import collect, collect_until_error, completed
from models.wire import o_done, o_finish, o_role, o_text, o_usage

pytestmark = pytest.mark.anyio

FAST = RetryPolicy(max_retries=2, initial_delay=0.01, max_delay=0.02)
HI = ModelRequest(messages=[user_text("hi")])


def model(server: LoopbackServer, **kw: Any) -> OpenAIModel:
    kw.setdefault("retry", FAST)
    kw.setdefault("base_url", server.url + "/v1")
    return server.adopt(OpenAIModel("qwen3:8b", **kw))


def text_turn(text: str = "ok") -> Reply:
    return sse_reply(o_role(), o_text(text), o_finish("stop"), o_usage(10, 3), o_done())


async def test_two_turns_share_one_connection(server: LoopbackServer) -> None:
    server.queue(text_turn("one"), text_turn("two"))
    m = model(server)
    assert completed(await collect(m, HI)) == [TextBlock(text="one")]
    assert completed(await collect(m, HI)) == [TextBlock(text="two")]
    assert m.total_usage == Usage(input_tokens=20, output_tokens=6)
    first, second = server.requests
    assert first.path == "/v1/chat/completions" and first.peer == second.peer


async def test_headers_and_settings_from_the_environment(
    server: LoopbackServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/proxy/v1/")
    monkeypatch.setenv("OPENAI_ORG_ID", "org-1")
    monkeypatch.setenv("OPENAI_PROJECT_ID", "proj-1")
    server.queue(text_turn())
    m = server.adopt(OpenAIModel("gpt-test", retry=FAST, default_headers={"X-Team": "blue"}))
    await collect(m, HI)
    [sent] = server.requests
    assert sent.path == "/proxy/v1/chat/completions"
    assert sent.headers["authorization"] == "Bearer sk-env"
    assert sent.headers["openai-organization"] == "org-1"
    assert sent.headers["openai-project"] == "proj-1" and sent.headers["x-team"] == "blue"
    assert "x-stainless-lang" not in sent.headers  # not the SDK
    assert "max_completion_tokens" in sent.body  # the official API's field, as before


async def test_custom_headers_from_the_environment_go_through_the_sdk(
    server: LoopbackServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_CUSTOM_HEADERS", "X-Gateway: g1")
    server.queue(text_turn())
    await collect(model(server, api_key="sk-test"), HI)
    headers = server.requests[0].headers
    assert headers["x-gateway"] == "g1" and "x-stainless-lang" in headers


async def test_a_client_passed_in_still_streams_through_the_sdk(server: LoopbackServer) -> None:
    client = openai.AsyncOpenAI(api_key="sk-sdk", base_url=server.url + "/v1", max_retries=0)
    m = server.adopt(OpenAIModel("qwen3:8b", client=client, retry=FAST))
    server.queue(json_reply(429, {"error": {"message": "slow down", "code": "rate"}}), text_turn())
    events = await collect(m, HI)
    [wait] = [e for e in events if isinstance(e, RetryWait)]
    assert "answered 429: slow down" in wait.error
    assert completed(events) == [TextBlock(text="ok")]
    assert "x-stainless-lang" in server.requests[1].headers


async def test_an_error_chunk_before_any_output_is_retried(server: LoopbackServer) -> None:
    broken = sse(None, {"error": {"message": "upstream died", "code": 502}})
    server.queue(sse_reply(o_role(), broken), text_turn())
    events = await collect(model(server), HI)
    [wait] = [e for e in events if isinstance(e, RetryWait)]
    assert "the stream reported an error: upstream died" in wait.error
    assert completed(events) == [TextBlock(text="ok")]


async def test_a_non_json_error_status(server: LoopbackServer) -> None:
    server.queue(Reply(status=401, body=(b"no entry",)))
    _, error = await collect_until_error(model(server), HI, ModelAPIError)
    assert "refused the request (401): no entry; check OPENAI_API_KEY" in str(error)


def test_without_any_key_the_sdk_refuses_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(openai.OpenAIError):
        OpenAIModel("gpt-test")
