"""The same SDK program against Claude Code (the oracle) and hands: the same conversation.

Compared: the SDK messages the program receives, in order, and the control requests the
CLI sends the program, in order. Documented difference: hands starts a tool (and its
PreToolUse hook) as soon as the model's tool_use block is complete, so a hook_callback
may come before that block's assistant message; only the order of the control requests
among themselves is compared, not their place among the messages.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from cli.sdk.oracle_kit import OracleUnavailable, oracle, read_turns, run_program

pytestmark = pytest.mark.slow


def _conversation(result: dict[str, Any]) -> tuple[list[str], list[str], dict[str, Any]]:
    events = result["events"]
    kinds = [f"{e['kind']}:{e.get('subtype') or ''}" for e in events if e["type"] == "sdk_message"]
    [timing] = [e for e in events if e["type"] == "sdk_timing"]
    requests: list[str] = []
    for entry in timing["protocol"]:
        line = json.loads(entry["line"])
        if entry["to"] == "sdk" and line.get("type") == "control_request":
            requests.append(line["request"]["subtype"])
    [final] = [e for e in events if e["type"] == "result"]
    return kinds, requests, final


def test_same_program_same_messages_and_control_requests() -> None:
    try:
        oracle()
    except OracleUnavailable as exc:
        pytest.skip(f"NOT RUN - the behavioural oracle is not available: {exc}")
    write = {
        "blocks": [
            {
                "type": "tool_use",
                "name": "Write",
                "input": {"file_path": "/home/user/project/new.txt", "content": "x\n"},
            }
        ]
    }
    turns = [*read_turns(2), write]
    claude = _conversation(run_program("claude", [dict(t) for t in turns], record=True))
    hands = _conversation(run_program("hands", [dict(t) for t in turns], record=True))
    assert hands[0] == claude[0]
    assert hands[1] == claude[1] == ["hook_callback", "hook_callback", "can_use_tool"]
    assert (hands[2]["subtype"], hands[2]["num_turns"]) == (
        claude[2]["subtype"],
        claude[2]["num_turns"],
    )
