"""Signs of life while a turn waits: the working line, retry notices, a command's output."""

from __future__ import annotations

import re
import shutil
import socket
import threading
from pathlib import Path

import pytest

from models.loopback import LoopbackServer, Wait, json_reply, sse_reply
from models.wire import a_end, a_error_body, a_start, a_text
from terminal import Terminal, call_then_reply, launch, start

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

MODEL = "anthropic:claude-sonnet-4-6"


def start_against(term: Terminal, cwd: Path, home: Path, url: str) -> None:
    env = {"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": url, "NO_PROXY": "127.0.0.1"}
    launch(term, cwd, home, cwd / "unused.json", model=MODEL, env=env)
    term.wait_for("(/help")
    term.wait_for_prompt()


def test_a_slow_first_token_shows_the_working_line_with_time_and_tokens(
    terminal: Terminal, tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    gate = threading.Event()
    server.queue(
        sse_reply(Wait(gate=gate, timeout=60), a_start(), *a_text(0, "Hello there."), *a_end())
    )
    start_against(terminal, tmp_path, hands_home, server.url)
    terminal.send("hi", "Enter")
    screen = terminal.wait_for("Working…")
    assert "↓ 0 tokens · Esc to interrupt" in screen
    terminal.wait_for("(2s ·")  # the elapsed time counts while nothing has arrived
    gate.set()
    screen = terminal.wait_for("success · 1 turn")
    assert "● Hello there." in screen
    assert "Working…" not in screen  # the line goes with the turn


def test_overloaded_answers_are_retried_with_a_notice_each(
    terminal: Terminal, tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    overloaded = a_error_body("overloaded_error", "Overloaded")
    server.queue(
        json_reply(529, overloaded),
        json_reply(529, overloaded),
        sse_reply(a_start(), *a_text(0, "Made it."), *a_end()),
    )
    start_against(terminal, tmp_path, hands_home, server.url)
    terminal.send("hi", "Enter")
    screen = terminal.wait_for("success · 1 turn")
    notices = [line for line in screen.splitlines() if "retrying in" in line]
    assert len(notices) == 2, screen
    assert "529 overloaded_error: Overloaded" in notices[0]
    assert "(attempt 2/5)" in notices[0] and "(attempt 3/5)" in notices[1]
    assert "● Made it." in screen


def test_an_unreachable_api_is_retried_visibly_and_esc_stops_waiting(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    start_against(terminal, tmp_path, hands_home, f"http://127.0.0.1:{port}")
    terminal.send("hi", "Enter")
    screen = terminal.wait_for("(attempt 3/5)")
    assert "cannot reach the Anthropic API" in screen
    assert "Working…" in screen or "Retrying" in screen
    terminal.send("Escape")
    terminal.wait_for("interrupted · 1 turn")
    terminal.wait_for_prompt()


def test_a_running_command_shows_its_output_tail_and_elapsed_time(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    command = "for i in 1 2 3 4 5 6; do echo line$i; done; sleep 30"
    s = call_then_reply(tmp_path / "s.json", "Bash", {"command": command}, "not reached")
    start(terminal, tmp_path, hands_home, s, "--permission-mode", "bypassPermissions")
    terminal.send("run it", "Enter")
    screen = terminal.wait_for("line6")
    assert re.search(r"Bash\(for i in .*\) · \d+s", screen), screen
    lines = [line.strip() for line in screen.splitlines()]
    tail = lines.index("line6")
    assert lines[tail - 4 : tail] == ["⎿ line2", "line3", "line4", "line5"]
    assert "line1" not in screen  # the tail: the last five lines
    assert "Working…" in screen
    terminal.send("Escape")
    terminal.wait_for("interrupted · 1 turn")
