"""Transcripts, --continue and --resume: the conversation and the read-state come back."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hands.agent.transcript import load, project_dir, sessions


def run(
    cwd: Path, home: Path, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hands", *args, "--cwd", str(cwd)],
        capture_output=True, text=True, timeout=60, input=stdin,
        env={"HANDS_HOME": str(home), "PATH": "/usr/bin:/bin", "HOME": str(home)},
    )  # fmt: skip


def script(path: Path, turns: list) -> str:
    path.write_text(json.dumps({"turns": turns}))
    return f"scripted:{path}"


def test_continue_restores_the_conversation_and_the_read_state(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    notes = project / "notes.txt"
    notes.write_text("alpha\n")
    first = script(tmp_path / "one.json", [
        {"blocks": [{"type": "tool_use", "name": "Read", "input": {"file_path": str(notes)}}]},
        {"blocks": [{"type": "text", "text": "It says alpha."}]},
    ])  # fmt: skip
    proc = run(project, home, "-p", "what does it say?", "--model", first)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "It says alpha.\n"

    # the second session edits without reading again: allowed only because the read-state
    # of the first session came back with the conversation
    second = script(tmp_path / "two.json", [
        {"blocks": [{"type": "tool_use", "name": "Edit", "input": {
            "file_path": str(notes), "old_string": "alpha", "new_string": "beta"}}]},
        {"blocks": [{"type": "text", "text": "Changed."}]},
    ])  # fmt: skip
    proc = run(
        project,
        home,
        "-p",
        "change it to beta",
        "--model",
        second,
        "--continue",
        "--permission-mode",
        "acceptEdits",
        "--output-format",
        "stream-json",
    )
    assert proc.returncode == 0, proc.stderr
    assert notes.read_text() == "beta\n"

    (path,) = sessions(home, project)
    transcript = load(path)
    prompts = [m.text for m in transcript.messages if m.role == "user" and m.text]
    assert prompts == ["what does it say?", "change it to beta"]
    assert [b.name for m in transcript.messages for b in m.tool_uses] == ["Read", "Edit"]
    assert "read_state" in transcript.states
    init = json.loads(proc.stdout.splitlines()[0])
    assert init["session_id"] == path.stem


def test_resume_by_id_and_a_clear_error_for_an_unknown_one(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    hello = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "Hi."}]}])
    assert run(project, home, "-p", "hello", "--model", hello).returncode == 0
    (path,) = sessions(home, project)
    again = script(tmp_path / "t.json", [{"blocks": [{"type": "text", "text": "Again."}]}])
    proc = run(project, home, "-p", "once more", "--model", again, "--resume", path.stem)
    assert proc.returncode == 0, proc.stderr
    assert [m.text for m in load(path).messages] == ["hello", "Hi.", "once more", "Again."]
    proc = run(project, home, "-p", "x", "--model", again, "--resume", "nope")
    assert proc.returncode == 2 and "no session with id 'nope'" in proc.stderr
    listed = run(project, home, "sessions")
    assert path.stem in listed.stdout


def test_a_torn_transcript_tail_is_dropped(tmp_path: Path) -> None:
    directory = project_dir(tmp_path, tmp_path)
    directory.mkdir(parents=True)
    path = directory / "abc.jsonl"
    lines = [
        {"type": "user", "message": {"role": "user", "content": "hi"}},
        {"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Read", "input": {}}]}},
    ]  # fmt: skip
    path.write_text("\n".join(json.dumps(x) for x in lines) + '\n{"type": "user", "mess')
    transcript = load(path)
    assert [m.role for m in transcript.messages] == ["user"]


def test_going_on_after_a_torn_tail_loses_only_the_torn_line(tmp_path: Path) -> None:
    from hands.agent.transcript import TranscriptWriter
    from hands.core.messages import user_text

    path = tmp_path / "abc.jsonl"
    first = TranscriptWriter(path, session_id="abc", cwd=tmp_path)
    first.message(user_text("before the crash"))
    path.write_bytes(path.read_bytes() + b'{"type": "user", "mess')  # killed mid-write
    again = TranscriptWriter(path, session_id="abc", cwd=tmp_path)
    again.message(user_text("after the resume"))
    again.state("read_state", {"x": 1})
    transcript = load(path)
    assert [m.text for m in transcript.messages] == ["before the crash", "after the resume"]
    assert transcript.states == {"read_state": {"x": 1}} and transcript.skipped == 1


def test_prompt_from_stdin(tmp_path: Path) -> None:
    home = tmp_path / "home"
    model = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "Got it."}]}])
    proc = run(
        tmp_path,
        home,
        "-p",
        "-",
        "--model",
        model,
        "--output-format",
        "json",
        stdin="summarise this\n",
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["result"] == "Got it."
    (path,) = sessions(home, tmp_path)
    assert load(path).messages[0].text == "summarise this\n"


def test_text_that_is_not_valid_unicode_never_ends_the_session(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    odd = "caf\udcff.txt"  # a lone surrogate: what undecodable file-name bytes become
    model = script(tmp_path / "s.json", [
        {"blocks": [{"type": "tool_use", "name": "Read",
                     "input": {"file_path": str(project / odd)}}]},
        {"blocks": [{"type": "text", "text": "No such file: " + odd}]},
    ])  # fmt: skip
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "-p", "-", "--model", model, "--cwd", str(project)],
        capture_output=True, timeout=60, input=b"read caf\xff.txt please\n",
        env={"HANDS_HOME": str(home), "PATH": "/usr/bin:/bin", "HOME": str(home)},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert b"Traceback" not in proc.stderr
    assert proc.stdout.startswith(b"No such file: caf")
    (path,) = sessions(home, project)
    transcript = load(path)
    assert transcript.skipped == 0
    assert transcript.messages[0].text == "read caf\ufffd.txt please\n"  # stdin: replaced
    (use,) = [b for m in transcript.messages for b in m.tool_uses]
    assert use.input["file_path"].endswith(odd)  # stored and read back exactly
    again = script(tmp_path / "t.json", [{"blocks": [{"type": "text", "text": "Still here."}]}])
    proc2 = run(project, home, "-p", "and now?", "--model", again, "--continue")
    assert proc2.returncode == 0, proc2.stderr
    assert proc2.stdout == "Still here.\n"


def test_unreadable_transcript_lines_are_skipped_with_a_warning(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    hello = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "Hi."}]}])
    assert run(project, home, "-p", "hello", "--model", hello).returncode == 0
    (path,) = sessions(home, project)
    with path.open("ab") as f:
        f.write(b'{"type": "user", "message": "\xff\xfe"}\n[1, 2, 3]\n"just a string"\n')
    again = script(tmp_path / "t.json", [{"blocks": [{"type": "text", "text": "Again."}]}])
    proc = run(project, home, "-p", "once more", "--model", again, "--continue")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "3 lines of" in proc.stderr and "left out of the resumed conversation" in proc.stderr
    assert [m.text for m in load(path).messages] == ["hello", "Hi.", "once more", "Again."]
