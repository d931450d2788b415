"""Background tasks and model flags: one SDK program against Claude Code and hands.

:mod:`scenario_program` runs in the behavioural oracle's sandbox with a fake Anthropic
API of its own (a sub-agent's requests get their own script), once with Claude Code
2.1.332 and once with hands as its CLI. Compared:

* a background command and a background agent: the order of the task lines and results
  (the first ``result`` while the work runs; ``task_updated``, ``task_notification``, a
  new turn and its ``result`` when it ends), the live-task lists of
  ``background_tasks_changed``, and that the woken turn's request tells the model of the
  task (each side in its own words);
* the model flags: the request fields and betas ``effort``, ``max_thinking_tokens`` and
  ``task_budget`` give;
* a plugin (``plugins``): its name, skill and agent in ``init``, and its PreToolUse hook
  blocking a Bash call.

Documented differences: ``background_tasks_changed`` may come before or after the
``task_notification`` of the same end (the SDK's types leave that order unspecified);
Claude Code adds fields hands does not fill (``run_id``, ``is_backgrounded``,
``subagent_type``, ``prompt``, ``spawn_depth``) and sends defaults hands does not
(adaptive thinking, its own betas); on a model with adaptive thinking Claude Code sends
adaptive thinking whatever ``max_thinking_tokens`` says, hands the budget; Claude Code
lists built-in plugins of its own, and loads a project's plugin without a trust decision
(hands: only in a trusted folder, here ``--trust``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli.sdk.oracle_kit import OracleUnavailable, oracle, run_program

pytestmark = pytest.mark.slow

PROGRAM = Path(__file__).with_name("scenario_program.py")
GO = "/tmp/sdk-scenario-go"
ORDERED = ("init", "task_started", "task_progress", "task_updated", "task_notification")


def _ready() -> None:
    try:
        oracle()
    except OracleUnavailable as exc:
        pytest.skip(f"NOT RUN - the behavioural oracle is not available: {exc}")


def _run(target: str, scenario: dict[str, Any]) -> list[dict[str, Any]]:
    result = run_program(target, [], program=PROGRAM, env={"SDK_SCENARIO": json.dumps(scenario)})
    return result["events"]


def _order(events: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for e in events:
        if e["type"] != "sdk_message":
            continue
        if e["kind"] == "ResultMessage":
            out.append("result")
        elif e.get("subtype") in ORDERED:
            out.append(e["subtype"])
    return out


def _levels(events: list[dict[str, Any]]) -> list[list[tuple[str, str]]]:
    return [
        [(t["task_type"], t["description"]) for t in e["data"]["tasks"]]
        for e in events
        if e.get("subtype") == "background_tasks_changed"
    ]


def _woken(events: list[dict[str, Any]]) -> str:
    main = [e for e in events if e["type"] == "api" and e["who"] == "main"]
    return main[-1]["last"]


def _task_id(events: list[dict[str, Any]]) -> str:
    [started] = [e for e in events if e.get("subtype") == "task_started"]
    return started["data"]["task_id"]


def _background(scenario: dict[str, Any]) -> None:
    _ready()
    claude, hands = _run("claude", scenario), _run("hands", scenario)
    assert _order(hands) == _order(claude)
    assert _levels(hands) == _levels(claude)
    for events in (claude, hands):
        assert _task_id(events) in _woken(events)


def test_a_background_command_ends_after_the_turn_in_both() -> None:
    command = f"while [ ! -e {GO} ]; do sleep 0.05; done; echo hi"
    scenario = {
        "main": [
            [{"type": "tool_use", "name": "Bash", "input": {
                "command": command, "run_in_background": True, "description": "wait"}}],
            [{"type": "text", "text": "started"}],
            [{"type": "text", "text": "heard"}],
        ],
        "go_file": GO,
        "results": 2,
        "options": {"allowed_tools": ["Bash"]},
    }  # fmt: skip
    _background(scenario)


def test_a_background_agent_ends_after_the_turn_in_both() -> None:
    scenario = {
        "main": [
            [{"type": "tool_use", "name": "Agent", "input": {
                "description": "look", "prompt": "SUBTASK: read the readme",
                "subagent_type": "general-purpose", "run_in_background": True}}],
            [{"type": "text", "text": "waiting"}],
            [{"type": "text", "text": "reported"}],
        ],
        "sub": [
            [{"type": "tool_use", "name": "Read",
              "input": {"file_path": "/home/user/project/README.md"}}],
            [{"type": "text", "text": "sub done"}],
        ],
        "hold_sub": True,
        "results": 2,
        "options": {"allowed_tools": ["Agent", "Read"]},
    }  # fmt: skip
    _background(scenario)


def _main_request(target: str, options: dict[str, Any]) -> dict[str, Any]:
    scenario = {"main": [[{"type": "text", "text": "thought"}]], "options": options}
    [request] = [e for e in _run(target, scenario) if e["type"] == "api" and e["who"] == "main"]
    return request


def test_model_flags_give_the_same_request_fields() -> None:
    _ready()
    effort = {"model": "claude-opus-4-6", "effort": "high", "task_budget": {"total": 40000}}
    for target in ("claude", "hands"):
        request = _main_request(target, effort)
        assert request["output_config"] == {
            "effort": "high",
            "task_budget": {"type": "tokens", "total": 40000},
        }
        betas = (request["beta"] or "").split(",")
        assert {"effort-2025-11-24", "task-budgets-2026-03-13"} <= set(betas)
    budget = {"model": "claude-sonnet-4-5", "max_thinking_tokens": 2048}
    claude, hands = (_main_request(t, budget)["thinking"] for t in ("claude", "hands"))
    claude = {k: v for k, v in claude.items() if k != "display"}  # Claude Code's own default
    assert hands == claude == {"type": "enabled", "budget_tokens": 2048}


PLUGIN = {
    "notes/.claude-plugin/plugin.json": json.dumps({"name": "notes", "version": "1.2.0"}),
    "notes/agents/scribe.md": "---\nname: scribe\ndescription: writes notes\n---\nYou write.\n",
    "notes/skills/tidy/SKILL.md": "---\nname: tidy\ndescription: tidy files\n---\nTIDY\n",
    "notes/hooks/block.sh": 'echo "the notes plugin blocks Bash" >&2\nexit 2\n',
    "notes/hooks/hooks.json": json.dumps(
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "sh ${CLAUDE_PLUGIN_ROOT}/hooks/block.sh"}]}]}}
    ),
}  # fmt: skip


def _plugin_facts(events: list[dict[str, Any]]) -> tuple[Any, ...]:
    """The plugin's name in ``init`` (Claude Code's own built-in ``cc-plugin-*`` left out),
    its skill and agent there, and whether its hook blocked the Bash call."""
    [init, *_] = [e["data"] for e in events if e.get("subtype") == "init"]
    blocked = [e for e in events if e["type"] == "api" and e["who"] == "main"][1]["last"]
    return (
        [p["name"] for p in init["plugins"] if not p["name"].startswith("cc-plugin-")],
        "notes:tidy" in init["skills"],
        "notes:scribe" in init["agents"],
        "the notes plugin blocks Bash" in blocked,
    )


def test_a_plugin_gives_the_same_names_and_hook_effect() -> None:
    _ready()
    scenario = {
        "main": [
            [{"type": "tool_use", "name": "Bash", "input": {"command": "echo ran"}}],
            [{"type": "text", "text": "done"}],
        ],
        "files": PLUGIN,
        "options": {"plugins": ["notes"], "allowed_tools": ["Bash"]},
        "hands_extra_args": {"trust": None},  # hands loads a project's plugin only if trusted
    }
    claude, hands = (_plugin_facts(_run(t, scenario)) for t in ("claude", "hands"))
    assert hands == claude == (["notes"], True, True, True)
