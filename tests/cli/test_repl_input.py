"""The REPL's input line in a real terminal (tmux): newlines, pastes, type-ahead, the mode bar.

The model is the Anthropic API on loopback, so a test reads the prompt as it was sent.
"""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from models.loopback import LoopbackServer, Wait, sse_reply
from models.wire import a_end, a_start, a_text, a_tool
from terminal import MODE_BAR, Terminal, script, start, start_on_api

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _answer(server: LoopbackServer, text: str = "Noted.") -> None:
    server.queue(sse_reply(a_start(), *a_text(0, text), *a_end()))


def _prompt_sent(server: LoopbackServer, request: int = -1) -> str:
    """The text of the last user message of a request the server received."""
    content: Any = server.requests[request].body["messages"][-1]["content"]
    if isinstance(content, str):
        return content
    return "".join(b["text"] for b in content if b["type"] == "text")


def _call_after(
    server: LoopbackServer, text: str, tool: str, input: dict[str, Any]
) -> threading.Event:
    """A reply: ``text``, then one call once the returned gate is set."""
    gate = threading.Event()
    server.queue(
        sse_reply(
            a_start(),
            *a_text(0, text),
            Wait(gate=gate, timeout=60),
            *a_tool(1, "toolu_1", tool, json.dumps(input)),
            *a_end("tool_use"),
        )
    )
    return gate


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


def test_a_large_paste_shows_as_a_placeholder_and_is_sent_in_full(
    terminal: Terminal, tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    many_lines = "\n".join(f"pasted line {n}" for n in range(1, 7))
    one_long_line = "x" * 900
    start_on_api(terminal, tmp_path, hands_home, server.url)
    _answer(server)
    terminal.paste(many_lines)
    terminal.wait_for("> [Pasted text #1 +6 lines]")
    terminal.send("-l", " then ")
    terminal.paste("two words")  # small: inserted as it is
    terminal.send("-l", " and ")
    terminal.paste(one_long_line)
    terminal.send("C-a")  # to the start of the line, and type there
    terminal.send("-l", "Look: ")
    terminal.wait_for("> Look: [Pasted text #1 +6 lines] then two words and [Pasted text #2]")
    terminal.send("Enter")
    screen = terminal.wait_for("success · 1 turn")
    assert "pasted line 3" not in screen and "xxxxxxxx" not in screen
    sent = f"Look: {many_lines} then two words and {one_long_line}"
    assert _prompt_sent(server) == sent
    history = (hands_home / "history").read_text()
    assert "+pasted line 3\n" in history and "Pasted text" not in history  # kept in full


def test_pasting_the_same_text_again_expands_its_placeholder(
    terminal: Terminal, tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    many_lines = "\n".join(f"pasted line {n}" for n in range(1, 7))
    start_on_api(terminal, tmp_path, hands_home, server.url)
    _answer(server)
    terminal.paste(many_lines)
    terminal.wait_for("> [Pasted text #1 +6 lines]")
    terminal.paste(many_lines)  # again, right after it: shown in full, to edit
    screen = terminal.wait_for("pasted line 6")
    assert "Pasted text" not in screen and "pasted line 3" in screen
    terminal.send("Enter")
    terminal.wait_for("success · 1 turn")
    assert _prompt_sent(server) == many_lines


def _slow_answer(server: LoopbackServer, gate: threading.Event) -> None:
    server.queue(
        sse_reply(a_start(), *a_text(0, "Working on it."), Wait(gate=gate, timeout=60), *a_end())
    )


def test_what_is_typed_during_a_turn_is_shown_queued_and_sent_when_it_ends(
    terminal: Terminal, tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    gate = threading.Event()
    _slow_answer(server, gate)
    _answer(server, "Second answer.")
    start_on_api(terminal, tmp_path, hands_home, server.url)
    try:
        terminal.submit("first question", "Working on it.")
        terminal.send("-l", "second question")
        terminal.wait_for("> second question")  # shown while it is typed
        terminal.send("Enter")
        terminal.wait_for("queued: second question")
        terminal.send("-l", "a draft")
        screen = terminal.wait_for("> a draft")
        assert "Working…" in screen and len(server.requests) == 1  # the turn still runs
    finally:
        gate.set()
    terminal.wait_for("Second answer.")
    assert _prompt_sent(server, 1) == "second question"
    terminal.wait_for_input("a draft")  # the draft waits in the input line
    assert len(server.requests) == 2


def test_an_interrupted_turn_sends_nothing_queued_and_gives_it_back_to_edit(
    terminal: Terminal, tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    gate = threading.Event()
    _slow_answer(server, gate)
    start_on_api(terminal, tmp_path, hands_home, server.url)
    try:
        terminal.submit("first question", "Working on it.")
        terminal.send("-l", "queued one")
        terminal.send("Enter")
        terminal.send("-l", "and a draft")
        terminal.wait_for("> and a draft")
        terminal.send("Escape")
        terminal.wait_for("interrupted · 1 turn")
        screen = terminal.wait_for("> queued one\nand a draft")
    finally:
        gate.set()
    assert len(server.requests) == 1
    assert "queued:" not in screen.split("interrupted · 1 turn")[1]


def test_the_mode_shows_under_the_input_and_shift_tab_changes_it_in_place(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    status = 'python3 -c \'import json,sys; print("STATUS", json.load(sys.stdin)["model"]["id"])\''
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"statusLine": {"type": "command", "command": status}})
    )
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "hi"}]}])
    start(terminal, tmp_path, hands_home, s, user_home=home)
    screen = terminal.wait_for("STATUS scripted:")
    bottom = screen.rstrip().splitlines()[-2:]
    assert bottom[0].startswith("mode default · ") and bottom[0].endswith(MODE_BAR)
    assert bottom[1].startswith("STATUS scripted:")  # the status line stays, under it
    for mode in ("acceptEdits", "plan", "default", "acceptEdits"):
        terminal.send("BTab")
        screen = terminal.wait_for(f"mode {mode} · ")
        assert screen.count(MODE_BAR) == 1  # changed in place: nothing printed above
    terminal.wait_for_prompt()
    screen = terminal.submit("hello", "success · 1 turn")
    terminal.wait_for_prompt()
    screen = terminal.wait_for_bottom("STATUS scripted:")  # the status line stays last
    assert screen.count(MODE_BAR) == 1 and "mode acceptEdits · " in screen


def test_shift_tab_during_a_turn_changes_the_mode_of_its_next_calls(
    terminal: Terminal, tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    target = tmp_path / "made.txt"
    gate = _call_after(server, "Thinking.", "Write", {"file_path": str(target), "content": "x"})
    _answer(server, "Written.")
    start_on_api(terminal, tmp_path, hands_home, server.url)
    try:
        terminal.submit("write it", "Thinking.")
        terminal.wait_for("mode default · ")  # under the working line
        terminal.send("BTab")
        screen = terminal.wait_for("mode acceptEdits · ")
        assert "Working…" in screen
    finally:
        gate.set()
    screen = terminal.wait_for("success · 2 turns")
    assert "1. Yes" not in screen and target.read_text() == "x"  # not asked: acceptEdits
    terminal.wait_for_prompt()
    terminal.wait_for_bottom("mode acceptEdits · ")  # the mode stays changed


def test_prompts_queued_during_a_turn_go_with_its_tool_results(
    terminal: Terminal, tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("alpha\n")
    gate = _call_after(server, "Reading.", "Read", {"file_path": str(notes)})
    _answer(server, "It says alpha, and B is checked too.")
    start_on_api(terminal, tmp_path, hands_home, server.url)
    try:
        terminal.submit("read the notes", "Reading.")
        terminal.send("-l", "also check B")
        terminal.send("Enter")
        terminal.wait_for("queued: also check B")
    finally:
        gate.set()
    screen = terminal.wait_for("success · 2 turns")
    assert "B is checked too." in screen and "> also check B" in screen
    terminal.wait_for_prompt()
    assert len(server.requests) == 2  # read by the turn: not sent again after it
    sent = server.requests[1].body["messages"]
    assert sent[2]["content"][0]["type"] == "tool_result"
    assert _prompt_sent(server, 1).endswith("\n\nalso check B")
    assert sent[-1]["role"] == "user" and sent[-2]["role"] == "user"
