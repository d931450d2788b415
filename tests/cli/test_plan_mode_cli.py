"""Plan mode from the command line: approval by a hook in print mode, and in the REPL."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hands.tools.plan.exit_plan_mode import ExitPlanModeTool
from support import tool_results
from terminal import Terminal, script, start

EXIT = ExitPlanModeTool.name

APPROVE = """#!/usr/bin/env python3
import json, pathlib, sys
event = json.load(sys.stdin)
pathlib.Path(sys.argv[1]).write_text(json.dumps(event))
print(json.dumps({"hookSpecificOutput": {
    "hookEventName": "PreToolUse", "permissionDecision": "allow",
    "updatedInput": event["tool_input"]}}))
"""


def hands_p(cwd: Path, turns: list[Any], *args: str) -> subprocess.CompletedProcess[str]:
    path = cwd.parent / "script.json"
    path.write_text(json.dumps({"turns": turns}))
    return subprocess.run(
        [sys.executable, "-m", "hands", "-p", "go", "--model", f"scripted:{path}", *args],
        capture_output=True, text=True, cwd=cwd, timeout=60,
    )  # fmt: skip


def a_session(project: Path) -> str:
    """Start a session (one answer) and return its id, so the plan file's path is known."""
    proc = hands_p(
        project, [{"blocks": [{"type": "text", "text": "hi"}]}], "--output-format", "json"
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["session_id"]


def plan_then_exit(plan: Path) -> list[Any]:
    return [
        {"blocks": [{"type": "tool_use", "name": "Write",
                     "input": {"file_path": str(plan), "content": "1. add tests\n"}}]},
        {"blocks": [{"type": "tool_use", "name": EXIT, "input": {}}]},
        {"blocks": [{"type": "text", "text": "planned"}]},
    ]  # fmt: skip


def plan_in_print_mode(
    project: Path, hands_home: Path
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """A resumed print-mode session in plan mode writes its plan and asks to leave."""
    session_id = a_session(project)
    plan = hands_home / "sessions" / session_id / "plan.md"
    proc = hands_p(
        project,
        plan_then_exit(plan),
        *("--resume", session_id, "--permission-mode", "plan", "--output-format", "stream-json"),
        "--trust",  # the hook comes from the project's settings.local.json
    )
    assert proc.returncode == 0, proc.stderr
    return plan, proc


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    return root


def test_print_mode_plan_is_approved_by_a_pre_tool_use_hook(
    project: Path, hands_home: Path
) -> None:
    hook = project / "approve.py"
    hook.write_text(APPROVE)
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)
    seen = project / "seen.json"
    command = f"{hook} {seen}"
    handler = {"type": "command", "command": command}
    settings = {"hooks": {"PreToolUse": [{"matcher": EXIT, "hooks": [handler]}]}}
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json").write_text(json.dumps(settings))
    plan, proc = plan_in_print_mode(project, hands_home)
    wrote, exited = tool_results(proc.stdout)
    assert not wrote.get("is_error") and plan.read_text() == "1. add tests\n"
    assert not exited.get("is_error"), exited
    assert "approved" in json.dumps(exited["content"])
    # the hook saw the plan and where it is kept
    tool_input = json.loads(seen.read_text())["tool_input"]
    assert tool_input == {"plan": "1. add tests\n", "planFilePath": str(plan)}


def test_print_mode_plan_without_an_approver_is_refused_with_the_reason(
    project: Path, hands_home: Path
) -> None:
    plan, proc = plan_in_print_mode(project, hands_home)
    _, exited = tool_results(proc.stdout)
    assert exited["is_error"] is True
    text = json.dumps(exited["content"])
    assert "nobody is available to approve" in text
    assert "needs the user's approval" in text and str(plan) in text


def tool(name: str, **tool_input: Any) -> dict[str, Any]:
    return {"blocks": [{"type": "tool_use", "name": name, "input": tool_input}]}


def test_repl_plan_approval_with_auto_accept_edits_then_edits_go_ahead(
    terminal: Terminal, project: Path, tmp_path: Path, hands_home: Path
) -> None:
    target = project / "app.py"
    target.write_text("x = 1\n")
    session_id = a_session(project)
    plan = hands_home / "sessions" / session_id / "plan.md"
    turns = [
        tool("EnterPlanMode"),
        tool("Write", file_path=str(plan), content="1. set x to 2\n"),
        tool("Edit", file_path=str(target), old_string="x = 1", new_string="x = 3"),
        tool(EXIT),
        tool("Read", file_path=str(target)),
        tool("Edit", file_path=str(target), old_string="x = 1", new_string="x = 2"),
        {"blocks": [{"type": "text", "text": "Done as planned."}]},
    ]
    start(terminal, project, hands_home, script(tmp_path / "s.json", turns), "-r", session_id)
    terminal.send("change x", "Enter")
    screen = terminal.wait_for("Go ahead with this plan?")
    assert "1. set x to 2" in screen and "auto-accept file edits" in screen
    assert "● Plan ready for your review\n" in screen and "(the plan)" not in screen
    assert "x = 3" not in target.read_text()  # the edit while planning was refused
    terminal.send("2", "Enter")
    screen = terminal.wait_for("Done as planned.")
    assert target.read_text() == "x = 2\n"  # acceptEdits: no question about the edit
    assert screen.count("1. Yes") == 1
    terminal.wait_for_prompt()
    terminal.send("BTab")  # the session goes on in acceptEdits: plan is next
    terminal.wait_for("mode plan · ")


def test_repl_keep_planning_sends_the_feedback_and_stays_in_plan_mode(
    terminal: Terminal, project: Path, tmp_path: Path, hands_home: Path
) -> None:
    session_id = a_session(project)
    plan = hands_home / "sessions" / session_id / "plan.md"
    turns = [
        tool("Write", file_path=str(plan), content="1. rewrite it all\n"),
        tool(EXIT),
        {"blocks": [{"type": "text", "text": "Replanning."}]},
    ]
    start(
        terminal,
        project,
        hands_home,
        script(tmp_path / "s.json", turns),
        *("-r", session_id, "--permission-mode", "plan"),
    )
    terminal.send("plan it", "Enter")
    terminal.wait_for("Go ahead with this plan?")
    terminal.send("3", "Enter")
    terminal.wait_for("What should change")
    terminal.send("smaller steps", "Enter")
    terminal.wait_for("Replanning.")
    terminal.wait_for_prompt()
    transcript = next((hands_home / "projects").glob(f"*/{session_id}.jsonl")).read_text()
    assert "The user says: smaller steps" in transcript
    terminal.send("BTab")  # still planning: default is next
    terminal.wait_for("mode default · ")
