"""WebFetch's prompt answered by a small model: the loopback Anthropic server."""

from __future__ import annotations

import pytest

from models.loopback import LoopbackServer, json_reply, sse_reply
from models.wire import a_end, a_error_body, a_start, a_text
from tools.web.conftest import Web


@pytest.fixture
def anthropic(messages_api: LoopbackServer, monkeypatch: pytest.MonkeyPatch) -> LoopbackServer:
    monkeypatch.setenv("ANTHROPIC_BASE_URL", messages_api.url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    return messages_api


def test_the_small_model_answers_the_prompt_in_one_capped_request(
    web: Web, anthropic: LoopbackServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_SMALL_FAST_MODEL", "claude-haiku-test")
    anthropic.queue(sse_reply(a_start(), *a_text(0, "Run ", "pip install widgets."), *a_end()))
    text = web.ok("/page.html", prompt="how do I install it?")
    assert "Run pip install widgets." in text
    assert "anthropic:claude-haiku-test read the page and answered" in text
    (request,) = anthropic.requests
    body = request.body
    assert body["model"] == "claude-haiku-test" and body["max_tokens"] == 1024
    sent = body["messages"][0]["content"][0]["text"]
    assert "how do I install it?" in sent and "# Installing widgets" in sent


def test_hands_small_model_wins_over_the_anthropic_variable(
    web: Web, anthropic: LoopbackServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_SMALL_FAST_MODEL", "claude-other")
    monkeypatch.setenv("HANDS_SMALL_MODEL", "anthropic:claude-chosen")
    anthropic.queue(sse_reply(a_start(), *a_text(0, "An answer."), *a_end()))
    assert "An answer." in web.ok("/page.html")
    assert anthropic.requests[0].body["model"] == "claude-chosen"


def test_a_failing_small_model_falls_back_to_the_page(
    web: Web, anthropic: LoopbackServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HANDS_SMALL_MODEL", "anthropic:claude-haiku-test")
    monkeypatch.setenv("ANTHROPIC_MAX_RETRIES", "0")
    anthropic.queue(json_reply(401, a_error_body("authentication_error", "invalid x-api-key")))
    text = web.ok("/page.html", prompt="p")
    assert "# Installing widgets" in text and "failed" in text and "Prompt: p" in text


def test_an_unusable_small_model_spec_falls_back_to_the_page(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HANDS_SMALL_MODEL", "nonsense:model")
    text = web.ok("/page.html")
    assert "cannot be used" in text and "# Installing widgets" in text
