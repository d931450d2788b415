"""WebSearch through the Messages API's own web search: a loopback server speaking the API."""

from __future__ import annotations

from typing import Any

import pytest

from hands.errors import ToolError
from hands.models.anthropic import AnthropicModel
from hands.models.base import SessionModel
from hands.models.openai import OpenAIModel
from hands.models.retry import RetryPolicy
from hands.testing import ScriptedModel
from hands.tools.web._anthropic_search import AnthropicSearchBackend
from hands.tools.web._backends import DdgsBackend
from hands.tools.web._choice import backend_from_env
from hands.tools.web.web_search import WebSearchTool
from models.loopback import LoopbackServer, json_reply, sse_reply
from models.wire import (
    a_cited_text,
    a_end,
    a_error_body,
    a_search_result,
    a_server_search,
    a_start,
    a_text,
    search_page,
    web_citation,
)
from tools.web.conftest import Web

PAGES = [
    search_page("https://docs.python.org/3/library/asyncio.html", "asyncio"),
    search_page("https://realpython.com/async-io-python/", "Async IO in Python"),
    search_page("https://docs.python.org/3/library/asyncio-task.html", "Coroutines and Tasks"),
]


@pytest.fixture
def api(messages_api: LoopbackServer, monkeypatch: pytest.MonkeyPatch) -> LoopbackServer:
    for var in ("HANDS_WEBSEARCH_BACKEND", "BRAVE_API_KEY", "TAVILY_API_KEY", "SEARXNG_URL"):
        monkeypatch.delenv(var, raising=False)
    return messages_api


@pytest.fixture
def search(web: Web, api: LoopbackServer) -> Web:
    web.tools = [WebSearchTool()]
    model = AnthropicModel(
        "claude-sonnet-4-6", api_key="test-key", base_url=api.url, retry=RetryPolicy(max_retries=0)
    )
    web.session.service(SessionModel).model = model
    return web


def run(web: Web, **input: Any) -> Any:
    return web.run("WebSearch", engine=web.engine(allow=("WebSearch",)), **input)


def searched(*pages: dict[str, Any]) -> Any:
    citation = web_citation(
        pages[0]["url"], pages[0]["title"], "asyncio is a library to write concurrent code"
    )
    return sse_reply(
        a_start(),
        *a_server_search(0, "srvtoolu_01", "python asyncio"),
        *a_search_result(1, "srvtoolu_01", list(pages)),
        *a_cited_text(2, "asyncio runs coroutines.", citation),
        *a_end(),
    )


def test_the_session_model_runs_the_search_with_the_server_tool(
    search: Web, api: LoopbackServer
) -> None:
    api.queue(searched(*PAGES))
    out = run(search, query="python asyncio")
    text = out.block.text
    assert not out.is_error, text
    assert 'Web search for "python asyncio" (Anthropic web search)' in text
    assert (
        "1. asyncio\n   https://docs.python.org/3/library/asyncio.html\n"
        "   asyncio is a library to write concurrent code" in text
    )
    assert "3. Coroutines and Tasks" in text and "Sources:" in text
    (request,) = api.requests
    assert request.body["tools"] == [
        {"type": "web_search_20250305", "name": "web_search", "max_uses": 8}
    ]
    assert "python asyncio" in request.body["messages"][0]["content"][0]["text"]


def test_domain_filters_go_to_the_api_and_are_applied_to_what_comes_back(
    search: Web, api: LoopbackServer
) -> None:
    api.queue(searched(*PAGES), searched(*PAGES))
    out = run(search, query="python asyncio", allowed_domains=["docs.python.org"])
    assert "realpython" not in out.block.text and "Coroutines and Tasks" in out.block.text
    assert api.requests[0].body["tools"][0]["allowed_domains"] == ["docs.python.org"]
    out = run(search, query="python asyncio", blocked_domains=["python.org"])
    assert "docs.python.org" not in out.block.text and "realpython.com" in out.block.text
    assert api.requests[1].body["tools"][0]["blocked_domains"] == ["python.org"]


def test_a_search_error_block_is_an_error_result(search: Web, api: LoopbackServer) -> None:
    error = {"type": "web_search_tool_result_error", "error_code": "too_many_requests"}
    api.queue(
        sse_reply(
            a_start(),
            *a_server_search(0, "srvtoolu_02", "x"),
            *a_search_result(1, "srvtoolu_02", error),
            *a_text(2, "Searching failed."),
            *a_end(),
        )
    )
    out = run(search, query="anything")
    assert out.is_error and "limiting requests" in out.block.text
    assert "too_many_requests" in out.block.text


def test_an_api_refusal_says_how_to_go_on(search: Web, api: LoopbackServer) -> None:
    body = a_error_body("invalid_request_error", "web search is not enabled for this organization")
    api.queue(json_reply(400, body))
    out = run(search, query="anything")
    assert out.is_error and "not enabled" in out.block.text
    assert "HANDS_WEBSEARCH_BACKEND" in out.block.text


def test_an_anthropic_session_searches_with_the_api_unless_another_backend_is_set() -> None:
    claude = AnthropicModel("claude-x", api_key="k", base_url="http://127.0.0.1:9")
    assert isinstance(backend_from_env({}, model=claude), AnthropicSearchBackend)
    assert backend_from_env({"BRAVE_API_KEY": "k"}, model=claude).name == "Brave Search"
    assert isinstance(
        backend_from_env({"HANDS_WEBSEARCH_BACKEND": "ddgs"}, model=claude), DdgsBackend
    )
    gpt = OpenAIModel("gpt-x", api_key="k", base_url="http://127.0.0.1:9/v1")
    for other in (gpt, ScriptedModel({"turns": []}), None):
        assert isinstance(backend_from_env({}, model=other), DdgsBackend)
        with pytest.raises(ToolError, match="needs the session to run on an Anthropic model"):
            backend_from_env({"HANDS_WEBSEARCH_BACKEND": "anthropic"}, model=other)
