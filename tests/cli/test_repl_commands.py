"""The slash commands, completion and mode cycling a Claude Code user reaches for."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from terminal import Terminal, call_then_reply, launch, script, start

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_help_lists_every_command_and_tab_completes_them(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    from hands.cli.repl_commands import COMMANDS

    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "hi"}]}])
    start(terminal, tmp_path, hands_home, s)
    screen = terminal.submit("/help", "Shift-Tab cycles the permission mode")
    for name in COMMANDS:
        assert f"\n{name} " in screen, name
    assert "!COMMAND" in screen and "@PATH" in screen
    terminal.send("/sta", "Tab")
    terminal.wait_for("> /status")
    terminal.send("Enter")
    screen = terminal.wait_for("none configured")
    assert "model        scripted:" in screen and "mode default" in screen


def test_model_cost_compact_config_and_unknown_input_never_crash(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps({"cleanupPeriodDays": 9}))
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "hi"}]}])
    other = script(tmp_path / "other.json", [{"blocks": [{"type": "text", "text": "other"}]}])
    launch(terminal, tmp_path, hands_home, s)
    terminal.wait_for("[y/N]")  # the project's settings file waits for trust
    terminal.send("y", "Enter")
    terminal.wait_for("(/help")
    terminal.wait_for_prompt()
    terminal.submit("/model", "model: scripted:")
    terminal.submit("/model nowhere.json", "The model stays scripted:")
    terminal.submit("/cost", "0 prompts so far")
    terminal.submit("hi", "success · 1 turn")
    screen = terminal.submit("/cost", "1 prompt so far")
    assert "tokens: " in screen and " out · " in screen
    assert "of 200,000 tokens (" in terminal.wait_for("compacts at 92%")
    terminal.submit(f"/model {other}", "Now using scripted:other.json")
    terminal.submit("again", "● other")
    terminal.submit("/compact", "Compaction did not summarise")
    terminal.submit("/config", "permission mode")
    terminal.wait_for_prompt()
    everything = terminal.scrollback()
    shown = everything[everything.rindex("> /config") :]
    assert "cleanupPeriodDays" in shown and "(projectSettings)" in shown
    screen = terminal.submit("/nonsense", "Unknown command /nonsense")
    assert "Traceback" not in screen


def test_shift_tab_cycles_the_permission_modes(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    target = tmp_path / "made.txt"
    write = {"file_path": str(target), "content": "x"}
    start(
        terminal, tmp_path, hands_home, call_then_reply(tmp_path / "s.json", "Write", write, "Ok.")
    )
    for mode in ("acceptEdits", "plan", "default", "acceptEdits"):
        terminal.send("BTab")
        terminal.wait_for(f"mode {mode} · ")
    assert "mode bypassPermissions" not in terminal.screen()  # only when started in it
    terminal.wait_for_prompt()
    terminal.send("write it", "Enter")  # acceptEdits: the write is not asked about
    screen = terminal.wait_for("success · 2 turns")
    assert "1. Yes" not in screen and target.read_text() == "x"


def test_shift_tab_reaches_bypass_only_when_started_in_it(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "hi"}]}])
    start(terminal, tmp_path, hands_home, s, "--permission-mode", "bypassPermissions")
    for mode in ("default", "acceptEdits", "plan", "bypassPermissions"):
        terminal.send("BTab")
        terminal.wait_for(f"mode {mode} · ")


def transcript(home: Path) -> str:
    """Every transcript line hands wrote, joined."""
    return "\n".join(p.read_text() for p in sorted(home.glob("projects/*/*.jsonl")))


def test_bang_runs_a_command_whose_output_goes_with_the_next_prompt(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    made = tmp_path / "made.txt"
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "Seen."}]}])
    start(terminal, tmp_path, hands_home, s)
    screen = terminal.submit("!echo from-the-shell", "⎿ from-the-shell")
    assert "● Bash(echo from-the-shell)" in screen
    terminal.wait_for_prompt()
    # the user's own command runs without a question (a model's call would be asked about)
    screen = terminal.submit(f"!touch {made}", "(No output)")
    assert made.exists() and "1. Yes" not in screen and "needs permission" not in screen
    terminal.submit("what did it say", "success · 1 turn")
    sent = transcript(hands_home)
    assert "The user ran `echo from-the-shell` in the shell; it printed:\\nfrom-the-shell" in sent
    assert f"The user ran `touch {made}`" in sent


def test_at_path_attaches_the_file_and_tab_completes_it(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    (tmp_path / "notes.txt").write_text("alpha\nbeta\n")
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "Read it."}]}])
    start(terminal, tmp_path, hands_home, s)
    terminal.send("-l", "summarise @no")
    terminal.send("Tab")
    terminal.wait_for("> summarise @notes.txt")
    terminal.send("-l", " for user@example.com")
    screen = terminal.submit("", "success · 1 turn")
    assert "⎿ attached notes.txt (2 lines)" in screen
    sent = transcript(hands_home)
    assert "(@notes.txt):\\n```\\nalpha\\nbeta\\n```" in sent
    assert sent.count("The user attached") == 1  # an e-mail address is only text


def test_init_writes_a_starter_file_and_memory_lists_what_is_read(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "README.md").write_text("# Proj\n\nA tool that counts stock.\n\nMore text.\n")
    (project / "Makefile").write_text("test:\n\tpytest\n\nlint:\n\truff check .\n")
    (project / "src").mkdir()
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "hi"}]}])
    start(terminal, project, hands_home, s)
    screen = terminal.submit("/memory", "Edit which file")
    assert "No instruction files are in use" in screen and "(new)" in screen
    terminal.send("Enter")
    terminal.wait_for_prompt()
    terminal.submit("/init", "Wrote ")
    written = (project / "CLAUDE.md").read_text()
    assert "A tool that counts stock." in written
    assert "`make test`" in written and "`make lint`" in written and "`src/`" in written
    screen = terminal.submit("/memory", f"{project / 'CLAUDE.md'} ({len(written):,} characters)")
    terminal.send("Enter")
    terminal.wait_for_prompt()
    (project / "CLAUDE.md").write_text("mine\n")
    terminal.submit("/init", "Replace it with a starter file?")
    terminal.submit("n", "CLAUDE.md left as it was.")
    assert (project / "CLAUDE.md").read_text() == "mine\n"  # never replaced without a yes


def editor_script(path: Path, said: str) -> Path:
    """A stand-in editor: appends a line to its last argument, shows its terminal."""
    path.write_text(
        f"#!/bin/sh\nfor last; do :; done\necho '{said}' >> \"$last\"\n"
        "echo EDITOR-RAN-ON-$(tty | cut -c1-8)\n"
        "sleep 0.5\n"
    )
    path.chmod(0o755)
    return path


def test_memory_opens_the_chosen_file_in_the_editor_and_comes_back(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    editor = editor_script(tmp_path / "my-editor", "Run the tests.")
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "hi"}]}])
    memory = tmp_path / "proj" / "CLAUDE.md"
    memory.parent.mkdir()
    memory.write_text("Be brief.\n")
    project = memory.parent
    start(terminal, project, hands_home, s, user_home=tmp_path, env={"EDITOR": f"{editor} -w"})
    screen = terminal.submit("/memory", "Edit which file")
    assert f"1. project  {memory} (10 characters)" in screen
    assert f"{tmp_path / '.claude' / 'CLAUDE.md'} (new)" in screen
    terminal.send("1", "Enter")
    screen = terminal.wait_for("Saved ")
    assert f"{editor} -w (from $EDITOR)" in " ".join(screen.split())
    assert "EDITOR-RAN-ON-/dev/pts" in screen  # it ran in the REPL's terminal
    assert memory.read_text() == "Be brief.\nRun the tests.\n"
    terminal.wait_for_prompt()
    terminal.submit("/cost", "cost")  # the REPL is back and answering
    # neither $VISUAL nor $EDITOR: the fallback is named
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    editor_script(bin_dir / "nano", "From nano.")
    path = f"{bin_dir}:/usr/bin:/bin"
    terminal.target = "plain"
    start(terminal, project, hands_home, s, user_home=tmp_path, session="plain",
          env={"PATH": path, "EDITOR": "", "VISUAL": ""})  # fmt: skip
    terminal.submit("/memory", "Edit which file")
    terminal.send("1", "Enter")
    screen = " ".join(terminal.wait_for("Saved ").split())
    assert "the fallback, as neither $VISUAL nor $EDITOR is set" in screen
    assert memory.read_text().endswith("From nano.\n")


def test_resume_inside_a_session_continues_an_earlier_one(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    import subprocess
    import sys

    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "The answer is 42."}]}])
    done = subprocess.run(
        [sys.executable, "-m", "hands", "-p", "what is the answer", "--model", f"scripted:{s}"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    start(terminal, tmp_path, hands_home, s)
    screen = terminal.submit("/resume", "Resume which session")
    assert "what is the answer" in screen
    terminal.submit("", "Staying in this session.")
    terminal.submit("/resume", "Resume which session")
    terminal.send("1", "Enter")
    screen = terminal.wait_for("(resumed)")
    assert "> what is the answer" in screen and "● The answer is 42." in screen
    terminal.wait_for_prompt()
