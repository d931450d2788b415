"""``/vim``: vi keys in the input line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from terminal import Terminal, script, start

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_vim_keys_edit_the_line_and_turn_off_again(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "Got it."}]}])
    start(terminal, tmp_path, hands_home, s)
    terminal.submit("/vim", "vi keys on")
    terminal.wait_for_prompt()
    terminal.send("-l", "Xhello")  # typed in insert mode
    terminal.send("Escape")
    terminal.wait_for("> Xhello")
    terminal.send("-l", "0x")  # normal mode: to the start, delete a character
    terminal.wait_for("> hello")
    terminal.send("Enter")
    terminal.wait_for("Got it.")
    terminal.wait_for_prompt()
    terminal.submit("/vim", "vi keys off")
