"""A sub-agent in a real terminal: its live line under the Agent call, collapsed when done."""

from __future__ import annotations

from pathlib import Path

from terminal import Terminal, script, start


def test_the_agent_call_shows_the_sub_agents_current_tool_and_count_then_collapses(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    agent = {
        "type": "tool_use",
        "name": "Agent",
        "input": {
            "description": "wait a bit",
            "prompt": "Wait three seconds.",
            "run_in_background": False,
        },
    }
    wait = {"type": "tool_use", "name": "Bash", "input": {"command": "sleep 3"}}
    s = script(
        tmp_path / "s.json",
        [
            {"blocks": [agent]},
            {"blocks": [wait]},  # the sub-agent's turns come next in the script
            {"blocks": [{"type": "text", "text": "waited"}]},
            {"blocks": [{"type": "text", "text": "all finished"}]},
        ],
    )
    start(terminal, tmp_path, hands_home, s, "--permission-mode", "bypassPermissions")
    terminal.send("go", "Enter")
    live = terminal.wait_for("general-purpose: Bash(sleep 3) · 1 tool use")
    assert "wait a bit" in live  # under the Agent call it belongs to
    done = terminal.wait_for("all finished")
    assert "Bash(sleep 3) · 1 tool use" not in done  # the live line is gone
    assert "waited" in done
