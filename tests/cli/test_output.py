"""Print-mode output shapes: the ``result`` object, and a deferred call in json/stream-json."""

# ruff: noqa: E501  (the hook script is kept as it would be written)

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hands.agent.events import ResultEvent
from hands.cli.output import result_message, stream_json_lines
from hands.core.messages import ToolUseBlock


def test_result_object_has_a_stop_reason_and_no_deferred_call_by_default() -> None:
    event = ResultEvent(
        subtype="success", result="hi", num_turns=1, duration_ms=12.4, session_id="s1"
    )
    out = result_message(event)
    assert out["stop_reason"] is None and "deferred_tool_use" not in out
    assert out["type"] == "result" and out["result"] == "hi" and out["duration_ms"] == 12


def test_a_deferred_call_is_reported_like_claude_code() -> None:
    call = ToolUseBlock(id="toolu_9", name="Bash", input={"command": "make deploy"})
    event = ResultEvent(
        subtype="success",
        result="",
        num_turns=1,
        duration_ms=1,
        session_id="s1",
        stop_reason="tool_deferred",
        deferred_tool_use=call,
    )
    (line,) = stream_json_lines(event, session_id="s1", model="m")
    for out in (result_message(event), line):
        assert out["stop_reason"] == "tool_deferred" and out["is_error"] is False
        assert out["deferred_tool_use"] == {
            "id": "toolu_9",
            "name": "Bash",
            "input": {"command": "make deploy"},
        }
        json.dumps(out)  # plain JSON


HOOK = """#!/usr/bin/env bash
command=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["tool_input"]["command"])')
case "$command" in
  *deploy*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"deploys need a human"}}' ;;
esac
exit 0
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project whose committed settings defer deploys, as a team would write it."""
    root = tmp_path / "proj"
    hook = root / ".claude" / "hooks" / "gate-deploys.sh"
    hook.parent.mkdir(parents=True)
    hook.write_text(HOOK)
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)
    settings = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {
                            "type": "command",
                            "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/gate-deploys.sh',
                            "timeout": 30,
                        }
                    ],
                }
            ]
        }
    }
    (root / ".claude" / "settings.json").write_text(json.dumps(settings, indent=2))
    return root


def run_p(project: Path, turns: list[Any], fmt: str) -> list[dict[str, Any]]:
    script = project.parent / "script.json"
    script.write_text(json.dumps({"turns": turns}))
    proc = subprocess.run(
        [
            sys.executable, "-m", "hands", "-p", "ship it", "--model", f"scripted:{script}",
            "--output-format", fmt, "--allowedTools", "Bash", "--trust",
        ],
        capture_output=True, text=True, cwd=project, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


DEPLOY = {"type": "tool_use", "id": "toolu_deploy", "name": "Bash",
          "input": {"command": "touch deploy-done"}}  # fmt: skip


@pytest.mark.parametrize("fmt", ["json", "stream-json"])
def test_print_mode_ends_with_the_deferred_call(project: Path, fmt: str) -> None:
    lines = run_p(project, [{"blocks": [DEPLOY]}, {"blocks": [{"type": "text", "text": "x"}]}], fmt)
    result = lines[-1]
    assert result["type"] == "result" and result["subtype"] == "success"
    assert result["stop_reason"] == "tool_deferred"
    assert result["deferred_tool_use"] == {
        "id": "toolu_deploy",
        "name": "Bash",
        "input": {"command": "touch deploy-done"},
    }
    assert not (project / "deploy-done").exists()
    if fmt == "json":
        assert len(lines) == 1


def test_print_mode_with_several_calls_runs_the_deferred_one_normally(project: Path) -> None:
    other = {"type": "tool_use", "id": "toolu_other", "name": "Bash",
             "input": {"command": "echo checked"}}  # fmt: skip
    lines = run_p(
        project,
        [{"blocks": [DEPLOY, other]}, {"blocks": [{"type": "text", "text": "shipped"}]}],
        "stream-json",
    )
    result = lines[-1]
    assert result["stop_reason"] is None and "deferred_tool_use" not in result
    assert result["result"] == "shipped"
    assert (project / "deploy-done").exists()
