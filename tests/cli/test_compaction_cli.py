"""Compaction from the command line: print mode's boundary, --resume after it, /compact."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from hands.agent.transcript import load
from terminal import Terminal, script, start

LINE = "a line of a fairly long file that fills the context window quickly\n"


def hands_p(cwd: Path, turns: list[Any], *args: str) -> subprocess.CompletedProcess[str]:
    path = cwd.parent / "script.json"
    path.write_text(json.dumps({"turns": turns}))
    # simple mode: the few core tools, whose definitions (part of every request) do not
    # grow as hands gains tools; the threshold (8,700 tokens) falls between the request
    # after the third read (~7,700) and the one after the fourth (~9,800)
    env = {**os.environ, "HANDS_CONTEXT_WINDOW": "14500", "HANDS_AUTOCOMPACT_PCT": "60",
           "HANDS_SIMPLE": "1"}  # fmt: skip
    return subprocess.run(
        [sys.executable, "-m", "hands", "-p", "read them", "--model", f"scripted:{path}",
         "--output-format", "stream-json", *args],
        capture_output=True, text=True, cwd=cwd, timeout=60, env=env,
    )  # fmt: skip


def think_and_read(path: Path) -> dict[str, Any]:
    """A turn whose long text (which clearing results cannot shrink) comes before a Read."""
    thinking = {"type": "text", "text": LINE * 120}
    call = {"type": "tool_use", "name": "Read", "input": {"file_path": str(path)}}
    return {"blocks": [thinking, call]}


def say(text: str) -> dict[str, Any]:
    return {"blocks": [{"type": "text", "text": text}]}


def test_print_mode_compacts_records_a_boundary_and_resumes_after_it(
    tmp_path: Path, hands_home: Path
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    files = []
    for i in range(4):
        files.append(project / f"f{i}.txt")
        files[-1].write_text(f"file {i}\n")
    turns = [
        *(think_and_read(f) for f in files),
        say("NOTES: four files were read."),
        say("All read."),
    ]
    proc = hands_p(project, turns)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    (boundary,) = [e for e in lines if e.get("subtype") == "compact_boundary"]
    meta = boundary["compact_metadata"]
    assert meta["trigger"] == "auto" and meta["status"] == "compacted"
    assert meta["post_tokens"] < meta["pre_tokens"]
    assert lines[-1]["result"] == "All read."
    session_id = lines[-1]["session_id"]
    path = next((hands_home / "projects").glob(f"*/{session_id}.jsonl"))
    restored = load(path).messages
    assert "NOTES: four files were read." in restored[0].text
    assert restored[-1].text == "All read."
    # --resume goes on from the compacted conversation
    proc = hands_p(project, [say("Still here.")], "--resume", session_id)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1])["result"] == "Still here."
    restored = load(path).messages
    assert "NOTES: four files were read." in restored[0].text
    assert [m.text for m in restored[-2:]] == ["read them", "Still here."]


def test_repl_compact_summarises_with_the_users_instructions(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    turns = [
        say("First answer.\n" + LINE * 60),
        say("Second answer.\n" + LINE * 60),
        say("NOTES: two questions were answered."),
        say("Third answer."),
    ]
    # a small window keeps only the last answer verbatim: the first is summarised away
    env = {"HANDS_CONTEXT_WINDOW": "14500", "HANDS_AUTOCOMPACT_PCT": "60", "HANDS_SIMPLE": "1"}
    start(terminal, tmp_path, hands_home, script(tmp_path / "s.json", turns), env=env)
    terminal.submit("one", "First answer.")
    terminal.wait_for_prompt()
    terminal.submit("two", "Second answer.")
    terminal.wait_for_prompt()
    screen = terminal.submit("/compact keep the numbers", "Conversation compacted")
    assert "messages summarised" in screen and " saved)." in screen
    terminal.wait_for_prompt()
    terminal.submit("three", "Third answer.")
    terminal.wait_for_prompt()
    (path,) = hands_home.glob("projects/*/*.jsonl")
    entries = [json.loads(line) for line in path.read_text().splitlines()]
    boundary = next(e for e in entries if e["type"] == "compact_boundary")
    assert boundary["trigger"] == "manual"
    restored = load(path).messages
    assert "NOTES: two questions were answered." in restored[0].text
    assert restored[-1].text == "Third answer."
    # the list of sessions shows what the user first typed, not the summary
    listed = subprocess.run(
        [sys.executable, "-m", "hands", "sessions"],
        capture_output=True, text=True, cwd=tmp_path, timeout=60,
        env={**os.environ, "HANDS_HOME": str(hands_home)},
    )  # fmt: skip
    (row,) = listed.stdout.splitlines()
    assert row.endswith("  one") and "3 turns" in row, listed.stdout


def test_repl_compact_does_nothing_when_a_summary_would_not_save(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    turns = [say("Yes."), say("NOTES: " + LINE * 20), say("Still here.")]
    start(terminal, tmp_path, hands_home, script(tmp_path / "s.json", turns))
    terminal.submit("one", "Yes.")
    terminal.wait_for_prompt()
    screen = terminal.submit("/compact", "Compaction skipped")
    assert "nothing to save" in " ".join(screen.split())
    terminal.wait_for_prompt()
    terminal.submit("two", "Still here.")
    terminal.wait_for_prompt()
    (path,) = hands_home.glob("projects/*/*.jsonl")
    entries = [json.loads(line) for line in path.read_text().splitlines()]
    assert not [e for e in entries if e["type"] == "compact_boundary"]
    assert [m.text for m in load(path).messages] == ["one", "Yes.", "two", "Still here."]
