"""Builders of the streaming wire formats, in the shapes the real APIs send."""

from __future__ import annotations

import json
from typing import Any

from models.loopback import sse

# -- Anthropic Messages SSE -------------------------------------------------------------


def a_start(
    *,
    id: str = "msg_01",
    model: str = "claude-sonnet-4-6",
    input_tokens: int = 25,
    cache_creation: int = 0,
    cache_read: int = 0,
) -> bytes:
    return sse(
        "message_start",
        {
            "type": "message_start",
            "message": {
                "id": id,
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {
                    "input_tokens": input_tokens,
                    "cache_creation_input_tokens": cache_creation,
                    "cache_read_input_tokens": cache_read,
                    "output_tokens": 1,
                },
            },
        },
    )


def a_block_start(index: int, block: dict[str, Any]) -> bytes:
    return sse(
        "content_block_start",
        {"type": "content_block_start", "index": index, "content_block": block},
    )


def a_delta(index: int, delta: dict[str, Any]) -> bytes:
    return sse(
        "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
    )


def a_stop(index: int) -> bytes:
    return sse("content_block_stop", {"type": "content_block_stop", "index": index})


def a_text(index: int, *pieces: str) -> list[bytes]:
    return [
        a_block_start(index, {"type": "text", "text": ""}),
        *(a_delta(index, {"type": "text_delta", "text": p}) for p in pieces),
        a_stop(index),
    ]


def a_thinking(index: int, *pieces: str, signature: str = "c2lnbmF0dXJl") -> list[bytes]:
    return [
        a_block_start(index, {"type": "thinking", "thinking": ""}),
        *(a_delta(index, {"type": "thinking_delta", "thinking": p}) for p in pieces),
        a_delta(index, {"type": "signature_delta", "signature": signature}),
        a_stop(index),
    ]


def a_tool_open(index: int, id: str, name: str, *fragments: str) -> list[bytes]:
    return [
        a_block_start(index, {"type": "tool_use", "id": id, "name": name, "input": {}}),
        *(a_delta(index, {"type": "input_json_delta", "partial_json": f}) for f in fragments),
    ]


def a_tool(index: int, id: str, name: str, *fragments: str) -> list[bytes]:
    return [*a_tool_open(index, id, name, *fragments), a_stop(index)]


def a_end(stop_reason: str = "end_turn", output_tokens: int = 42) -> list[bytes]:
    return [
        sse(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                "usage": {"output_tokens": output_tokens},
            },
        ),
        sse("message_stop", {"type": "message_stop"}),
    ]


def a_ping() -> bytes:
    return sse("ping", {"type": "ping"})


def a_error(kind: str = "overloaded_error", message: str = "Overloaded") -> bytes:
    return sse("error", {"type": "error", "error": {"type": kind, "message": message}})


def a_error_body(kind: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


# -- OpenAI Chat Completions SSE ---------------------------------------------------------


def o_chunk(
    delta: dict[str, Any] | None = None,
    *,
    finish: str | None = None,
    usage: dict[str, Any] | None = None,
    no_choices: bool = False,
) -> bytes:
    body: dict[str, Any] = {
        "id": "chatcmpl-01",
        "object": "chat.completion.chunk",
        "created": 1_700_000_000,
        "model": "gpt-test",
        "system_fingerprint": "fp_1",
        "choices": []
        if no_choices
        else [{"index": 0, "delta": delta or {}, "logprobs": None, "finish_reason": finish}],
    }
    if usage is not None or no_choices:
        body["usage"] = usage
    return sse(None, body)


def o_role() -> bytes:
    return o_chunk({"role": "assistant", "content": "", "refusal": None})


def o_text(text: str) -> bytes:
    return o_chunk({"content": text})


def o_call(
    index: int, *, id: str | None = None, name: str | None = None, args: str | None = None
) -> bytes:
    call: dict[str, Any] = {"index": index}
    if id is not None:
        call["id"] = id
        call["type"] = "function"
    function: dict[str, Any] = {}
    if name is not None:
        function["name"] = name
    if args is not None:
        function["arguments"] = args
    if function:
        call["function"] = function
    return o_chunk({"tool_calls": [call]})


def o_finish(reason: str) -> bytes:
    return o_chunk({}, finish=reason)


def o_usage(prompt: int, completion: int, cached: int = 0) -> bytes:
    return o_chunk(
        no_choices=True,
        usage={
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
            "prompt_tokens_details": {"cached_tokens": cached},
        },
    )


def o_done() -> bytes:
    return b"data: [DONE]\n\n"


# -- Anthropic's server-side web search ------------------------------------------------


def a_server_search(index: int, id: str, query: str) -> list[bytes]:
    """A ``server_tool_use`` block: empty input at its start, the query as JSON deltas."""
    text = json.dumps({"query": query})
    half = len(text) // 2
    return [
        a_block_start(
            index, {"type": "server_tool_use", "id": id, "name": "web_search", "input": {}}
        ),
        a_delta(index, {"type": "input_json_delta", "partial_json": text[:half]}),
        a_delta(index, {"type": "input_json_delta", "partial_json": text[half:]}),
        a_stop(index),
    ]


def search_page(url: str, title: str, page_age: str | None = "April 30, 2025") -> dict[str, Any]:
    """One ``web_search_result`` as the API sends it (its content encrypted)."""
    page: dict[str, Any] = {
        "type": "web_search_result",
        "url": url,
        "title": title,
        "encrypted_content": "EqgfCioIARgBIiQ3YTAwMjY1Mi1" + title.replace(" ", ""),
    }
    if page_age is not None:
        page["page_age"] = page_age
    return page


def a_search_result(index: int, tool_use_id: str, content: Any) -> list[bytes]:
    """A ``web_search_tool_result`` block: it arrives whole in its start event."""
    block = {"type": "web_search_tool_result", "tool_use_id": tool_use_id, "content": content}
    return [a_block_start(index, block), a_stop(index)]


def a_cited_text(index: int, text: str, citation: dict[str, Any]) -> list[bytes]:
    """A text block whose sentence cites a search result (``citations_delta``)."""
    return [
        a_block_start(index, {"type": "text", "text": "", "citations": []}),
        a_delta(index, {"type": "citations_delta", "citation": citation}),
        a_delta(index, {"type": "text_delta", "text": text}),
        a_stop(index),
    ]


def web_citation(url: str, title: str, cited: str) -> dict[str, Any]:
    return {
        "type": "web_search_result_location",
        "url": url,
        "title": title,
        "encrypted_index": "Eo8BCioIAhgBIiQyYjQ0OWJmZi1",
        "cited_text": cited,
    }
