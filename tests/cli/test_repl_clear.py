"""``/clear`` starts a new session; ``--continue`` then resumes the newest conversation.

As in Claude Code: the cleared conversation stays on disk under its own id (``-r ID``
reaches it), the new session's transcript is written from its first message, so
``--continue`` after a ``/clear`` and more talk resumes the new conversation, and after a
``/clear`` with nothing said it resumes the earlier one.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from hands.agent.transcript import load, project_dir
from models.loopback import LoopbackServer, sse_reply
from models.wire import a_end, a_start, a_text
from terminal import Terminal, script, start


def _talk_then_clear(
    terminal: Terminal, tmp_path: Path, hands_home: Path, *after: str
) -> tuple[Path, str]:
    project = tmp_path / "project"
    project.mkdir()
    turns = [{"blocks": [{"type": "text", "text": f"answer {n}"}]} for n in (1, 2)]
    start(terminal, project, hands_home, script(tmp_path / "s.json", turns))
    terminal.submit("first question", "answer 1")
    terminal.wait_for_prompt()
    screen = terminal.submit("/clear", "Conversation cleared")
    found = re.search(r"new session (\w+) starts", " ".join(screen.split()))
    assert found is not None, screen
    for line in after:
        terminal.submit(line, "answer 2")
        terminal.wait_for_prompt()
    terminal.send("/exit", "Enter")
    terminal.wait_for("HANDS-EXITED-0")
    return project, found.group(1)


def _print_resuming(project: Path, server: LoopbackServer, *flags: str) -> str:
    """``hands -p`` with ``flags`` on the loopback API; the messages it sent, as JSON."""
    server.queue(sse_reply(a_start(input_tokens=10), *a_text(0, "ok"), *a_end(output_tokens=2)))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "OPENAI_"))}
    env |= {"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": server.url, "NO_PROXY": "127.0.0.1"}
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "-p", "third question", "--model", "sonnet",
         "--output-format", "json", *flags],
        capture_output=True, text=True, cwd=project, env=env, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    body = server.requests[-1].body
    assert body is not None
    return json.dumps(body["messages"])


def test_clear_starts_a_new_session_that_continue_resumes(
    terminal: Terminal, tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    project, new_id = _talk_then_clear(terminal, tmp_path, hands_home, "second question")
    transcripts = {p.stem: load(p) for p in project_dir(hands_home, project).glob("*.jsonl")}
    assert len(transcripts) == 2 and new_id in transcripts
    (old_id,) = set(transcripts) - {new_id}
    assert [m.text for m in transcripts[old_id].messages] == ["first question", "answer 1"]
    assert [m.text for m in transcripts[new_id].messages] == ["second question", "answer 2"]
    resumed = _print_resuming(project, server, "--continue")
    assert "second question" in resumed and "first question" not in resumed
    earlier = _print_resuming(project, server, "--resume", old_id)
    assert "first question" in earlier and "second question" not in earlier


def test_continue_after_a_clear_with_nothing_said_resumes_the_earlier_conversation(
    terminal: Terminal, tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    project, new_id = _talk_then_clear(terminal, tmp_path, hands_home)
    assert not (project_dir(hands_home, project) / f"{new_id}.jsonl").exists()
    resumed = _print_resuming(project, server, "--continue")
    assert "first question" in resumed and "answer 1" in resumed
