"""``/add-dir``: another working directory for the session, as ``--add-dir`` gives."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hands.cli.repl_add_dir import USAGE, directory_of
from terminal import Terminal, script, start


def test_directory_of_resolves_and_refuses_clearly(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "f.txt").write_text("x")
    home = tmp_path / "home"
    (home / "code").mkdir(parents=True)
    assert directory_of("d", cwd=tmp_path, home=home) == tmp_path / "d"
    assert directory_of("~/code", cwd=tmp_path, home=home) == home / "code"
    assert directory_of("d/../d/", cwd=tmp_path, home=home) == tmp_path / "d"
    assert directory_of("  ", cwd=tmp_path, home=home) == USAGE
    assert directory_of("nope", cwd=tmp_path, home=home) == (
        f"{tmp_path / 'nope'} does not exist; nothing was added."
    )
    assert directory_of("f.txt", cwd=tmp_path, home=home) == (
        f"{tmp_path / 'f.txt'} is not a directory; nothing was added."
    )


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_a_read_outside_asks_until_the_directory_is_added(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("remember the milk\n")
    read = {"file_path": str(other / "notes.txt")}
    call = {"blocks": [{"type": "tool_use", "name": "Read", "input": read}]}
    s = script(
        tmp_path / "s.json",
        [call, {"blocks": [{"type": "text", "text": "First."}]},
         call, {"blocks": [{"type": "text", "text": "Second."}]}],
    )  # fmt: skip
    start(terminal, project, hands_home, s)
    terminal.send("read it", "Enter")
    terminal.wait_for("1. Yes")  # outside the working directory: asked
    terminal.send("1", "Enter")
    terminal.wait_for("First.")
    terminal.wait_for_prompt()
    terminal.submit("/add-dir ../nowhere", "nowhere does not exist; nothing was added.")
    terminal.submit("/add-dir ../other", f"Added {other} as a working directory.")
    terminal.submit("/add-dir ../other", "is already a working directory")
    screen = terminal.submit("read it again", "Second.")
    assert screen.count("1. Yes") == 1  # the second read was not asked about
    assert "Traceback" not in screen
