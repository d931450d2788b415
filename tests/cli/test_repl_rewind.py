"""``/rewind`` and Esc Esc: undo a prompt's file changes, the conversation, or both."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from terminal import Terminal, script, start

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _turns(target: Path) -> list[dict]:
    write = {"file_path": str(target), "content": "one\n"}
    edit = {"file_path": str(target), "old_string": "one", "new_string": "two"}
    return [
        {"blocks": [{"type": "tool_use", "name": "Write", "input": write}]},
        {"blocks": [{"type": "text", "text": "Wrote it."}]},
        {"blocks": [{"type": "tool_use", "name": "Edit", "input": edit}]},
        {"blocks": [{"type": "text", "text": "Edited it."}]},
        {"blocks": [{"type": "text", "text": "Fresh answer."}]},
    ]


def _two_prompts(terminal: Terminal, tmp_path: Path, hands_home: Path) -> Path:
    """A REPL where one prompt wrote ``a.txt`` and the next changed it; its path."""
    project = tmp_path / "project"
    project.mkdir()
    target = project / "a.txt"
    s = script(tmp_path / "s.json", _turns(target))
    start(terminal, project, hands_home, s, "--permission-mode", "acceptEdits")
    terminal.submit("make the file", "Wrote it.")
    terminal.wait_for_prompt()
    terminal.submit("change the file", "Edited it.")
    terminal.wait_for_prompt()
    return target


def test_rewind_restores_code_and_conversation_and_resume_keeps_it(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    target = _two_prompts(terminal, tmp_path, hands_home)
    assert target.read_text() == "two\n"
    terminal.send("Escape", "Escape")  # Esc Esc on the empty prompt opens the menu
    screen = terminal.wait_for("Rewind to before which prompt")
    assert "1. make the file  (1 file changed)" in screen
    assert "2. change the file  (1 file changed)" in screen
    terminal.send("2", "Enter")
    terminal.wait_for("1. code and conversation")
    terminal.send("1", "Enter")
    screen = terminal.wait_for("The conversation is back to before prompt 2.")
    assert f"restored {target}" in screen
    assert target.read_text() == "one\n"
    terminal.wait_for("> change the file")  # the prompt is back in the line, to edit
    terminal.send("C-u", "and now something else", "Enter")
    terminal.wait_for("Fresh answer.")
    terminal.wait_for_prompt()
    terminal.send("/exit", "Enter")
    terminal.wait_for("HANDS-EXITED-0")

    # the transcript resumes from the rewound conversation: prompt 2 is gone
    transcript = next((hands_home / "projects").rglob("*.jsonl"))
    from hands.agent.transcript import load

    texts = [m.text for m in load(transcript).messages]
    assert "make the file" in texts and "and now something else" in texts
    assert "change the file" not in texts


def test_conversation_only_rewind_keeps_files_and_drops_later_checkpoints(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    target = _two_prompts(terminal, tmp_path, hands_home)
    terminal.submit("/rewind", "Rewind to before which prompt")
    terminal.send("2", "Enter")
    terminal.wait_for("1. code and conversation")
    terminal.send("2", "Enter")
    terminal.wait_for("The conversation is back to before prompt 2.")
    assert target.read_text() == "two\n"  # the files stay as they are
    terminal.wait_for("> change the file")
    terminal.send("C-u", "and now something else", "Enter")
    terminal.wait_for("Fresh answer.")
    terminal.wait_for_prompt()
    terminal.send("/exit", "Enter")
    terminal.wait_for("HANDS-EXITED-0")

    from hands.pipeline.checkpoints import store_for

    [index] = (hands_home / "sessions").glob("*/checkpoints/turns.json")
    store = store_for(index.parent.parent)
    assert [t.prompt for t in store.turns()] == ["make the file", "and now something else"]
    store.rewind(1)  # the first prompt's checkpoint still undoes the file it created
    assert not target.exists()


def test_rewind_with_nothing_to_rewind_says_so(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "hi"}]}])
    start(terminal, tmp_path, hands_home, s)
    terminal.submit("/rewind", "Nothing to rewind yet")


def test_print_sessions_keep_checkpoints_across_resume(tmp_path: Path, hands_home: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    target = project / "a.txt"
    s = script(tmp_path / "s.json", _turns(target)[:2])
    s2 = script(tmp_path / "s2.json", _turns(target)[2:4])

    def run(*args: str) -> dict:
        proc = subprocess.run(
            [sys.executable, "-m", "hands", "-p", *args, "--permission-mode", "acceptEdits",
             "--output-format", "json"],
            capture_output=True, text=True, cwd=project, timeout=60,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    first = run("make it", "--model", f"scripted:{s}")
    run("change it", "--model", f"scripted:{s2}", "--resume", first["session_id"])
    assert target.read_text() == "two\n"
    from hands.pipeline.checkpoints import store_for

    store = store_for(hands_home / "sessions" / first["session_id"])
    assert [t.prompt for t in store.turns()] == ["make it", "change it"]
    store.rewind(2)
    assert target.read_text() == "one\n"


def test_a_turn_started_by_a_background_notice_is_named_by_its_summary() -> None:
    from hands.cli.repl_rewind import menu_line
    from hands.core.inbox import task_notice
    from hands.pipeline.checkpoints import Turn

    notice = task_notice(
        task_id="b1", status="completed", summary='Background task "run the tests" is over',
        output_file="/tmp/b1.out",
    )  # fmt: skip
    line = menu_line(3, Turn(number=3, prompt=notice, message_index=4, started=0.0))
    assert line == '  3. Background task "run the tests" is over  (no file changed)'
    assert "<task-notification>" not in menu_line(
        2, Turn(number=2, prompt=notice[:40], message_index=2, started=0.0)
    )
    typed = menu_line(1, Turn(number=1, prompt="fix it\nnow", message_index=0, started=0.0))
    assert typed == "  1. fix it  (no file changed)"
