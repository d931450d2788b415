"""Sub-agents through the command line: stream-json, the transcript, --resume, agent files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def hands(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HANDS_HOME": str(home), "HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "hands", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def script(path: Path, *turns: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"turns": [{"blocks": t} for t in turns]}))
    return path


def test_print_mode_runs_a_custom_agent_and_resume_keeps_only_its_result(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".claude" / "agents").mkdir(parents=True)
    home.mkdir()
    (project / ".claude" / "agents" / "lister.md").write_text(
        "---\nname: lister\ndescription: lists files\ntools: Glob\n---\nYou list files.\n"
    )
    (project / ".claude" / "agents" / "bad.md").write_text("no frontmatter here\n")
    (project / "a.txt").write_text("a\n")
    agent = {
        "type": "tool_use",
        "id": "toolu_agent",
        "name": "Task",  # the legacy name still works
        "input": {
            "description": "list",
            "prompt": "List the files.",
            "subagent_type": "lister",
            "run_in_background": False,
        },
    }
    glob = {"type": "tool_use", "id": "toolu_glob", "name": "Glob", "input": {"pattern": "*.txt"}}
    run = script(
        tmp_path / "s.json",
        [agent],
        [glob],
        [{"type": "text", "text": "one file: a.txt"}],
        [{"type": "text", "text": "The agent found a.txt."}],
    )
    proc = hands(
        "-p", "go", "--model", f"scripted:{run}", "--output-format", "stream-json",
        cwd=project, home=home,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "bad.md was skipped" in proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert "Agent" in lines[0]["tools"]
    under = [line for line in lines if line.get("parent_tool_use_id") == "toolu_agent"]
    assert [line["type"] for line in under] == ["user", "assistant", "user", "assistant"]
    assert lines[-1]["result"] == "The agent found a.txt."
    # the session's transcript has the Agent call and its result, none of the agent's turns
    transcripts = list((home / "projects").rglob("*.jsonl"))
    assert len(transcripts) == 1
    saved = transcripts[0].read_text()
    assert "toolu_agent" in saved and "toolu_glob" not in saved
    sidechains = list((home / "sessions").rglob("agent-*.jsonl"))
    assert len(sidechains) == 1 and "toolu_glob" in sidechains[0].read_text()
    # resumed, the conversation goes on from the result; no agent runs again
    more = script(tmp_path / "more.json", [{"type": "text", "text": "still a.txt"}])
    again = hands("-c", "-p", "and now?", "--model", f"scripted:{more}", cwd=project, home=home)
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() == "still a.txt"
    assert len(list((home / "sessions").rglob("agent-*.jsonl"))) == 1
