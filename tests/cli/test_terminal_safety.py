"""The terminal shows text from outside, never obeys it: REPL, ``-p`` text and ``hands tool``."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from terminal import Terminal, script, start

TITLE_FROM_TOOL = "\x1b]2;TOOL-TITLE\x1b\\"
TITLE_FROM_MODEL = "\x1b]0;MODEL-TITLE\x07"
CLEAR = "\x1b[2J\x1b[H"

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _title(term: Terminal, target: str) -> str:
    return term.tmux("display-message", "-p", "-t", target, "#{pane_title}").strip()


@needs_tmux
def test_escape_sequences_from_a_tool_and_the_model_change_neither_title_nor_screen(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    # the check can fail: in this tmux, a program that prints the sequence sets the title
    terminal.tmux("new-session", "-d", "-s", "raw", "-x", "80", "-y", "10", "sh")
    raw = tmp_path / "raw.txt"
    raw.write_text(TITLE_FROM_TOOL)
    terminal.tmux("send-keys", "-t", "raw", f"cat {raw}", "Enter")
    for _ in range(100):
        if _title(terminal, "raw") == "TOOL-TITLE":
            break
        subprocess.run(["sleep", "0.1"], check=True)
    assert _title(terminal, "raw") == "TOOL-TITLE"

    payload = tmp_path / "payload.txt"
    payload.write_text(f"before{TITLE_FROM_TOOL}{CLEAR}FAKE 1. Yes, allow everything\n")
    s = script(
        tmp_path / "s.json",
        [
            {
                "blocks": [
                    {"type": "tool_use", "name": "Bash", "input": {"command": f"cat {payload}"}}
                ]
            },
            {"blocks": [{"type": "text", "text": f"said{TITLE_FROM_MODEL}\u202eevil done"}]},
        ],
    )
    start(terminal, tmp_path, hands_home, s)  # cat of a project file: read-only
    before = _title(terminal, "main")
    terminal.send("go", "Enter")
    screen = terminal.wait_for("success · 2 turns")
    assert "before␛]2;TOOL-TITLE␛\\␛[2J␛[HFAKE" in screen
    assert "said␛]0;MODEL-TITLE<U+202E>evil done" in screen  # rich drops the BEL itself
    assert "hands" in screen.splitlines()[0]  # the screen was not cleared
    title = _title(terminal, "main")
    assert title == before and "TITLE" not in title


def _hands(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hands", *args], capture_output=True, text=True, cwd=cwd, timeout=60
    )


def test_print_mode_text_and_tool_output_are_neutralised_and_json_is_exact(
    tmp_path: Path, hands_home: Path
) -> None:
    said = f"ok{TITLE_FROM_MODEL}\x9b2J\u202edone"
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": said}]}])
    text = _hands("-p", "hi", "--model", f"scripted:{s}", cwd=tmp_path)
    assert text.returncode == 0
    assert text.stdout == "ok␛]0;MODEL-TITLE␇<U+009B>2J<U+202E>done\n"
    as_json = _hands(
        "-p", "hi", "--model", f"scripted:{s}", "--output-format", "json", cwd=tmp_path
    )
    assert "\x9b" not in as_json.stdout and "\u202e" not in as_json.stdout
    assert json.loads(as_json.stdout)["result"] == said  # the data is whole

    target = tmp_path / "payload.txt"
    target.write_text(f"line{CLEAR}\n")
    read = _hands("tool", "Read", json.dumps({"file_path": str(target)}), cwd=tmp_path)
    assert read.returncode == 0 and "line␛[2J␛[H" in read.stdout and "\x1b" not in read.stdout
    exact = _hands("tool", "Read", json.dumps({"file_path": str(target)}), "--json", cwd=tmp_path)
    assert "line\x1b[2J" in json.loads(exact.stdout)["content"]


def test_the_console_shows_rich_styles_but_not_the_texts_sequences() -> None:
    from rich.text import Text

    from hands.cli.console import ShownConsole

    out = io.StringIO()
    console = ShownConsole(file=out, force_terminal=True, color_system="standard", width=80)
    text = Text("ok ", style="green")
    text.append("\x1b]0;pwned\x07\x1b[2Jdone")
    console.print(text)
    written = out.getvalue()
    assert "\x1b[32m" in written  # hands' own styling
    assert "\x1b]" not in written and "\x1b[2J" not in written and "\x07" not in written
    assert "␛]0;pwned␛[2Jdone" in written  # rich drops the BEL itself
