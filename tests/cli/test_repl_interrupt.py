"""Interrupting a turn in the REPL (tmux, a loopback Anthropic API): what stays on screen,
and what the next request carries."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from hands.agent.interruption import STOPPED_CALLS, STOPPED_REPLY
from models.loopback import LoopbackServer, Wait, sse_reply
from models.wire import a_block_start, a_delta, a_end, a_start, a_text, a_tool
from terminal import Terminal, start_on_api

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _texts(message: dict[str, Any]) -> list[str]:
    content = message["content"]
    if isinstance(content, str):
        return [content]
    return [b.get("text", "") for b in content if b["type"] == "text"]


def test_esc_at_a_permission_prompt_refuses_the_call_and_interrupts_the_turn(
    terminal: Terminal, tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    made = tmp_path / "made.txt"
    command = json.dumps({"command": f"touch {made}"})
    server.queue(
        sse_reply(
            a_start(),
            *a_text(0, "I will make the file."),
            *a_tool(1, "toolu_1", "Bash", command),
            *a_end("tool_use"),
        )
    )
    start_on_api(terminal, tmp_path, hands_home, server.url)
    terminal.send("make it", "Enter")
    terminal.wait_for("3. No")
    terminal.send("Escape")
    screen = terminal.wait_for("interrupted · 1 turn")
    assert "I will make the file." in screen
    assert not made.exists()
    assert len(server.requests) == 1  # the model was not asked again after the refusal
    terminal.wait_for_prompt()
    assert "HANDS-EXITED" not in terminal.screen()

    server.queue(sse_reply(a_start(), *a_text(0, "Understood."), *a_end()))
    terminal.submit("what happened?", "success · 1 turn")
    sent = server.requests[1].body["messages"]
    assert [m["role"] for m in sent] == ["user", "assistant", "user", "user", "user"]
    assert _texts(sent[1]) == ["I will make the file."]
    result = sent[2]["content"][0]
    assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_1"
    assert result["is_error"] is True and "denied" in json.dumps(result["content"])
    assert _texts(sent[3]) == [STOPPED_CALLS]
    assert _texts(sent[4]) == ["what happened?"]


def test_an_interrupted_streamed_reply_stays_on_screen_and_in_the_conversation(
    terminal: Terminal, tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    gate = threading.Event()
    server.queue(
        sse_reply(
            a_start(),
            a_block_start(0, {"type": "text", "text": ""}),
            a_delta(0, {"type": "text_delta", "text": "The first half of a long "}),
            a_delta(0, {"type": "text_delta", "text": "answer, then"}),
            Wait(gate=gate, timeout=60),
        )
    )
    start_on_api(terminal, tmp_path, hands_home, server.url)
    try:
        terminal.send("explain", "Enter")
        terminal.wait_for("answer, then")
        terminal.send("Escape")
        terminal.wait_for("interrupted · 1 turn")
        terminal.wait_for_prompt()
        screen = terminal.screen()
        assert "The first half of a long answer, then" in screen  # printed, not only live

        server.queue(sse_reply(a_start(), *a_text(0, "Going on."), *a_end()))
        terminal.submit("go on", "success · 1 turn")
    finally:
        gate.set()
    sent = server.requests[1].body["messages"]
    assert [m["role"] for m in sent] == ["user", "assistant", "user", "user"]
    assert _texts(sent[1]) == ["The first half of a long answer, then"]
    assert _texts(sent[2]) == [STOPPED_REPLY]
    assert _texts(sent[3]) == ["go on"]
