"""The REPL's input line in a real terminal (tmux): newlines, pastes, type-ahead, the mode bar.

The model is the Anthropic API on loopback, so each test reads the prompt as it was sent.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from models.loopback import LoopbackServer, sse_reply
from models.wire import a_end, a_start, a_text
from terminal import Terminal, start_on_api

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _answer(server: LoopbackServer, text: str = "Noted.") -> None:
    server.queue(sse_reply(a_start(), *a_text(0, text), *a_end()))


def _prompt_sent(server: LoopbackServer, request: int = -1) -> str:
    """The text of the last user message of a request the server received."""
    content: Any = server.requests[request].body["messages"][-1]["content"]
    if isinstance(content, str):
        return content
    return "".join(b["text"] for b in content if b["type"] == "text")


def test_backslash_enter_and_esc_enter_insert_newlines(
    terminal: Terminal, tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    start_on_api(terminal, tmp_path, hands_home, server.url)
    _answer(server)
    terminal.send("-l", "first line\\")
    terminal.send("Enter")
    terminal.send("-l", "second line")
    terminal.wait_for("second line")
    assert not server.requests  # Enter after a backslash did not send
    terminal.send("Escape", "Enter")
    terminal.send("-l", "a path C:\\dir\\ stays")
    terminal.send("Enter")
    terminal.wait_for("success · 1 turn")
    assert _prompt_sent(server) == "first line\nsecond line\na path C:\\dir\\ stays"
