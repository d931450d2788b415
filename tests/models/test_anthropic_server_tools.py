"""The API's own web search: its blocks stream as first-class blocks and go back as sent."""

from __future__ import annotations

from typing import Any

import pytest

from hands.core.messages import (
    Message,
    ServerToolUseBlock,
    TextBlock,
    WebSearchResult,
    WebSearchToolResultBlock,
    message_from_wire,
    user_text,
)
from hands.errors import MalformedStreamError, ModelAPIError
from hands.models.anthropic import AnthropicModel
from hands.models.base import BlockComplete, MessageStop, ModelRequest, ToolUseStart
from hands.models.openai import OpenAIModel
from hands.models.retry import RetryPolicy
from models.loopback import LoopbackServer, sse_reply
from models.streams import collect, collect_until_error, completed
from models.wire import (
    a_block_start,
    a_cited_text,
    a_end,
    a_search_result,
    a_server_search,
    a_start,
    a_stop,
    a_text,
    search_page,
    web_citation,
)

pytestmark = pytest.mark.anyio

SEARCH_TOOL = {"type": "web_search_20250305", "name": "web_search", "max_uses": 3}
PAGES = [
    search_page("https://docs.python.org/3/whatsnew/3.13.html", "What's New In Python 3.13"),
    search_page("https://peps.python.org/pep-0719/", "PEP 719", page_age=None),
]


def model(server: LoopbackServer, **kw: Any) -> AnthropicModel:
    return server.adopt(
        AnthropicModel(
            "claude-sonnet-4-6",
            api_key="test-key",
            base_url=server.url,
            retry=RetryPolicy(max_retries=0),
            **kw,
        )
    )


def searched_turn() -> list[bytes]:
    citation = web_citation(PAGES[0]["url"], PAGES[0]["title"], "Python 3.13 was released")
    return [
        a_start(),
        *a_text(0, "Let me look that up."),
        *a_server_search(1, "srvtoolu_01", "python 3.13 release date"),
        *a_search_result(2, "srvtoolu_01", PAGES),
        *a_cited_text(3, "Python 3.13 came out in October 2024.", citation),
        *a_end("end_turn"),
    ]


async def test_search_blocks_stream_whole_and_the_request_carries_the_server_tool(
    server: LoopbackServer,
) -> None:
    server.queue(sse_reply(*searched_turn()))
    m = model(server, server_tools=[SEARCH_TOOL])
    events = await collect(m, ModelRequest(messages=(user_text("when was 3.13 out?"),)))
    blocks = completed(events)
    assert [type(b) for b in blocks] == [
        TextBlock,
        ServerToolUseBlock,
        WebSearchToolResultBlock,
        TextBlock,
    ]
    use, result, cited = blocks[1], blocks[2], blocks[3]
    assert use == ServerToolUseBlock(
        id="srvtoolu_01", name="web_search", input={"query": "python 3.13 release date"}
    )
    assert result.tool_use_id == "srvtoolu_01" and result.error_code is None
    assert result.results[0] == WebSearchResult(
        url=PAGES[0]["url"],
        title=PAGES[0]["title"],
        encrypted_content=PAGES[0]["encrypted_content"],
        page_age="April 30, 2025",
    )
    assert result.results[1].page_age is None
    assert cited.citations[0]["url"] == PAGES[0]["url"]
    # a server tool is not the client's to run: nothing announces a tool start
    assert not [e for e in events if isinstance(e, ToolUseStart)]
    assert isinstance(events[-1], MessageStop) and events[-1].stop_reason == "end_turn"
    assert server.requests[0].body["tools"] == [SEARCH_TOOL]


async def test_the_blocks_go_back_to_the_api_exactly_as_they_came(
    server: LoopbackServer,
) -> None:
    server.queue(sse_reply(*searched_turn()), sse_reply(a_start(), *a_text(0, "ok"), *a_end()))
    m = model(server)
    request = ModelRequest(messages=(user_text("q"),), server_tools=(SEARCH_TOOL,))
    blocks = completed(await collect(m, request))
    assistant = Message(role="assistant", content=tuple(blocks))
    again = ModelRequest(
        messages=(user_text("q"), assistant, user_text("and 3.14?")), server_tools=(SEARCH_TOOL,)
    )
    await collect(m, again)
    sent = server.requests[1].body["messages"][1]["content"]
    assert sent[1] == {
        "type": "server_tool_use",
        "id": "srvtoolu_01",
        "name": "web_search",
        "input": {"query": "python 3.13 release date"},
    }
    assert sent[2] == {
        "type": "web_search_tool_result",
        "tool_use_id": "srvtoolu_01",
        "content": PAGES,
    }
    assert sent[3]["citations"][0]["encrypted_index"] == "Eo8BCioIAhgBIiQyYjQ0OWJmZi1"
    # and the stored form reads back to the same blocks
    assert message_from_wire(assistant.to_wire()) == assistant


async def test_a_search_error_is_a_block_too(server: LoopbackServer) -> None:
    error = {"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"}
    server.queue(
        sse_reply(
            a_start(),
            *a_server_search(0, "srvtoolu_02", "x"),
            *a_search_result(1, "srvtoolu_02", error),
            *a_text(2, "I could not search."),
            *a_end(),
        )
    )
    blocks = completed(await collect(model(server), ModelRequest(messages=(user_text("q"),))))
    assert blocks[1] == WebSearchToolResultBlock(
        tool_use_id="srvtoolu_02", error_code="max_uses_exceeded"
    )
    assert blocks[1].to_wire()["content"] == error


async def test_a_paused_turn_ends_with_pause_turn(server: LoopbackServer) -> None:
    server.queue(
        sse_reply(a_start(), *a_server_search(0, "srvtoolu_03", "x"), *a_end("pause_turn"))
    )
    events = await collect(model(server), ModelRequest(messages=(user_text("q"),)))
    assert isinstance(events[-1], MessageStop) and events[-1].stop_reason == "pause_turn"


async def test_a_search_call_cut_off_at_the_end_of_the_message_is_malformed(
    server: LoopbackServer,
) -> None:
    opened = a_block_start(
        0, {"type": "server_tool_use", "id": "srvtoolu_04", "name": "web_search", "input": {}}
    )
    server.queue(sse_reply(a_start(), opened, *a_end()))
    _, error = await collect_until_error(
        model(server), ModelRequest(messages=(user_text("q"),)), MalformedStreamError
    )
    assert "web_search" in str(error)


async def test_other_server_blocks_are_still_refused_by_name(server: LoopbackServer) -> None:
    block = {"type": "code_execution_tool_result", "tool_use_id": "srvtoolu_05", "content": {}}
    server.queue(sse_reply(a_start(), a_block_start(0, block), a_stop(0), *a_end()))
    _, error = await collect_until_error(
        model(server), ModelRequest(messages=(user_text("q"),)), MalformedStreamError
    )
    assert "code_execution_tool_result" in str(error)


async def test_chat_completions_refuses_server_tools(server: LoopbackServer) -> None:
    m = server.adopt(OpenAIModel("gpt-test", api_key="k", base_url=server.url + "/v1"))
    request = ModelRequest(messages=(user_text("q"),), server_tools=(SEARCH_TOOL,))
    with pytest.raises(ModelAPIError, match="web_search_20250305"):
        await collect(m, request)
    assert not server.requests


def test_blocks_complete_carry_server_blocks() -> None:
    use = ServerToolUseBlock(id="srvtoolu_06", name="web_search", input={"query": "q"})
    assert BlockComplete(index=0, block=use).tool_use is None
