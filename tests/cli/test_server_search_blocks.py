"""The API's own web search in a whole session: stream-json, the transcript, resume, pause_turn.

The loopback server speaks the Messages API and answers with server_tool_use and
web_search_tool_result blocks, as the API does when the request carries its web search.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console

from cli.test_conventions import hands
from hands.agent.events import BlockEvent
from hands.cli.session_view import SessionView
from hands.core.messages import ServerToolUseBlock, WebSearchResult, WebSearchToolResultBlock
from hands.pipeline.pool import ToolPool
from models.loopback import LoopbackServer, sse_reply
from models.wire import (
    a_cited_text,
    a_end,
    a_search_result,
    a_server_search,
    a_start,
    a_text,
    a_tool,
    search_page,
    web_citation,
)

PAGE = search_page("https://example.org/news", "Example news")
USE = {
    "type": "server_tool_use",
    "id": "srvtoolu_01",
    "name": "web_search",
    "input": {"query": "example news"},
}
SEARCH_VARIABLES = (
    "HANDS_WEBSEARCH_BACKEND",
    "BRAVE_API_KEY",
    "BRAVE_SEARCH_API_KEY",
    "TAVILY_API_KEY",
    "SEARXNG_URL",
)
RESULT = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": [PAGE]}


def env(server: LoopbackServer) -> dict[str, str]:
    return {
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": server.url,
        "NO_PROXY": "127.0.0.1",
        "HTTP_PROXY": "",
        "HTTPS_PROXY": "",
        "ANTHROPIC_MAX_RETRIES": "0",
        **dict.fromkeys(SEARCH_VARIABLES, ""),  # no other search backend configured
    }


def searched(stop_reason: str = "end_turn") -> Any:
    citation = web_citation(PAGE["url"], PAGE["title"], "It happened.")
    return sse_reply(
        a_start(),
        *a_server_search(0, "srvtoolu_01", "example news"),
        *a_search_result(1, "srvtoolu_01", [PAGE]),
        *a_cited_text(2, "It happened.", citation),
        *a_end(stop_reason),
    )


def test_stream_json_shows_the_blocks_and_resume_sends_them_back_as_they_came(
    tmp_path: Path, server: LoopbackServer
) -> None:
    server.queue(searched(), sse_reply(a_start(), *a_text(0, "Nothing new."), *a_end()))
    first = hands(
        "-p", "what happened?", "--output-format", "stream-json", "--model",
        "anthropic:claude-x", env=env(server), cwd=tmp_path,
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    lines = [json.loads(line) for line in first.stdout.splitlines()]
    content = [
        b for line in lines if line["type"] == "assistant" for b in line["message"]["content"]
    ]
    assert content[0] == USE and content[1] == RESULT
    assert content[2]["text"] == "It happened." and content[2]["citations"][0]["url"] == PAGE["url"]
    result = lines[-1]
    assert result["type"] == "result" and result["result"] == "It happened."

    again = hands(
        "-r", result["session_id"], "-p", "anything newer?", "--model", "anthropic:claude-x",
        env=env(server), cwd=tmp_path,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() == "Nothing new."
    sent = server.requests[1].body["messages"]
    assistant = next(m for m in sent if m["role"] == "assistant")
    assert assistant["content"][0] == USE and assistant["content"][1] == RESULT
    assert assistant["content"][2]["citations"][0]["encrypted_index"]


def test_a_paused_turn_is_sent_again_and_goes_on(tmp_path: Path, server: LoopbackServer) -> None:
    server.queue(
        searched("pause_turn"),
        sse_reply(a_start(), *a_text(0, "Done searching."), *a_end()),
    )
    proc = hands(
        "-p", "dig", "--model", "anthropic:claude-x", env=env(server), cwd=tmp_path
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "Done searching."
    assert len(server.requests) == 2
    resent = server.requests[1].body["messages"]
    assert resent[-1]["role"] == "assistant"
    assert [b["type"] for b in resent[-1]["content"]][:2] == [
        "server_tool_use",
        "web_search_tool_result",
    ]


def test_the_screen_shows_what_the_api_searched_and_found() -> None:
    console = Console(record=True, width=100, force_terminal=False)
    view = SessionView(console, ToolPool())
    use = ServerToolUseBlock(id="srvtoolu_01", name="web_search", input={"query": "example news"})
    found = WebSearchToolResultBlock(
        tool_use_id="srvtoolu_01",
        results=(WebSearchResult(url=PAGE["url"], title=PAGE["title"]),) * 2,
    )
    failed = WebSearchToolResultBlock(tool_use_id="srvtoolu_02", error_code="unavailable")
    for block in (use, found, failed):
        view.show(BlockEvent(block=block))
    view.end()
    screen = console.export_text()
    assert "web_search (run by the API): example news" in screen
    assert "2 pages found" in screen and "the search failed (unavailable)" in screen


def test_websearch_in_an_anthropic_session_searches_through_the_session_model(
    tmp_path: Path, server: LoopbackServer
) -> None:
    call = '{"query": "example news"}'
    server.queue(
        sse_reply(a_start(), *a_tool(0, "toolu_01", "WebSearch", call), *a_end("tool_use")),
        searched(),  # the WebSearch call's own request, with the API's web search in it
        sse_reply(a_start(), *a_text(0, "Per Example news, it happened."), *a_end()),
    )
    proc = hands(
        "-p", "what happened?", "--model", "anthropic:claude-x", "--allowedTools", "WebSearch",
        env=env(server), cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "Per Example news, it happened."
    main, inner, last = (r.body for r in server.requests)
    assert inner["model"] == main["model"] == "claude-x"
    assert inner["tools"] == [{"type": "web_search_20250305", "name": "web_search", "max_uses": 8}]
    (result,) = [b for b in last["messages"][-1]["content"] if b["type"] == "tool_result"]
    text = result["content"] if isinstance(result["content"], str) else result["content"][0]["text"]
    assert "(Anthropic web search)" in text
    assert "1. Example news\n   https://example.org/news\n   It happened." in text
