"""``/export``: the conversation as Markdown, to a file (atomically) or the clipboard."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from hands.cli.repl_export import clipboard_command, copy, to_markdown, write_file
from hands.core.messages import Message, TextBlock, ToolResultBlock, ToolUseBlock
from terminal import Terminal, call_then_reply, start


def test_markdown_has_each_turn_and_fences_that_hold_backticks() -> None:
    messages = [
        Message(role="user", content=(TextBlock(text="show me"),)),
        Message(
            role="assistant",
            content=(
                TextBlock(text="Reading it."),
                ToolUseBlock(id="t1", name="Read", input={"file_path": "/a.md"}),
            ),
        ),
        Message(
            role="user",
            content=(ToolResultBlock(tool_use_id="t1", content="```py\nx = 1\n```"),),
        ),
        Message(role="assistant", content=(TextBlock(text="Done."),)),
    ]
    text = to_markdown(messages, title="Conversation s1")
    assert text.startswith("# Conversation s1\n")
    assert text.count("## User") == 1 and text.count("## Assistant") == 2
    assert "## Tool results" in text and "**Read**" in text and '"file_path": "/a.md"' in text
    # the result's own fence cannot close the export's: the export's is longer
    assert "````\n```py\nx = 1\n```\n````" in text


def test_write_file_replaces_atomically_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "out.md"
    target.write_text("old")
    write_file(target, "new\n")
    assert target.read_text() == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.md"]
    with pytest.raises(OSError):
        write_file(tmp_path / "missing" / "x.md", "y")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.md"]


def _program(folder: Path, name: str, body: str) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def test_clipboard_is_used_only_with_a_display_and_a_program(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    _program(bin_dir, "xclip", f'cat > "{tmp_path}/clip"')
    assert clipboard_command({"PATH": str(bin_dir)}) is None  # no display
    command = clipboard_command({"PATH": str(bin_dir), "DISPLAY": ":0"})
    assert command == [str(bin_dir / "xclip"), "-selection", "clipboard"]
    assert command is not None
    assert copy("# hi\n", command) is None
    assert (tmp_path / "clip").read_text() == "# hi\n"
    broken = _program(tmp_path / "bin2", "xclip", "echo 'no display :0' >&2; exit 1")
    assert copy("x", [str(broken)]) == "no display :0"


pytestmark_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


@pytestmark_tmux
def test_export_to_a_file_a_missing_folder_and_no_clipboard(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    s = call_then_reply(tmp_path / "s.json", "Glob", {"pattern": "*.json"}, "One file.")
    start(terminal, tmp_path, hands_home, s, env={"DISPLAY": "", "WAYLAND_DISPLAY": ""})
    terminal.submit("/export", "Nothing to export")
    terminal.submit("find json", "success · 2 turns")
    terminal.submit("/export talk.md", "Exported the conversation to")
    text = (tmp_path / "talk.md").read_text()
    assert "## User\n\nfind json" in text and "**Glob**" in text and "One file." in text
    terminal.submit("/export nowhere/talk.md", "Cannot write")
    screen = terminal.submit("/export", "hands-conversation-")
    assert "Traceback" not in screen
    (named,) = tmp_path.glob("hands-conversation-*.md")
    assert named.read_text() == text


@pytestmark_tmux
def test_export_with_no_name_goes_to_the_clipboard(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    bin_dir = tmp_path / "bin"
    _program(bin_dir, "xclip", f'cat > "{tmp_path}/clip"')
    s = call_then_reply(tmp_path / "s.json", "Glob", {"pattern": "*.json"}, "One file.")
    env = {"DISPLAY": ":0", "WAYLAND_DISPLAY": "", "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    start(terminal, tmp_path, hands_home, s, env=env)
    terminal.submit("find json", "success · 2 turns")
    terminal.submit("/export", "on the clipboard")
    assert "One file." in (tmp_path / "clip").read_text()
    assert not list(tmp_path.glob("hands-conversation-*.md"))
