"""``--resume-session-at`` with the same SDK program against Claude Code (the oracle) and hands.

The program (:mod:`resume_at_program`) sends two prompts, then forks the session cut at
the first reply (``resume_session_at``, with ``resume_drops_turn`` naming the second
prompt) and asks again. Compared: the uuids the program saw, every result's subtype and
the conversation the resumed session sent the API: the first prompt, its reply and the
new prompt, with the dropped turn gone. Each side's own ``<system-reminder>`` blocks
(context hands and Claude Code word differently) are left out of the comparison.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cli.sdk.oracle_kit import OracleUnavailable, oracle, run_program

pytestmark = pytest.mark.slow

PROGRAM = Path(__file__).with_name("resume_at_program.py")


def _conversation(body: dict[str, Any]) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for message in body["messages"]:
        content = message["content"]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        texts = [
            b["text"].split("] ", 1)[-1]  # the oracle's marker differs run to run
            for b in blocks
            if b.get("type") == "text" and not b["text"].startswith("<system-reminder>")
        ]
        out.append((message["role"], texts))
    return out


def _resume(target: str) -> tuple[dict[str, Any], list[tuple[str, list[str]]]]:
    turns = [
        {"blocks": [{"type": "text", "text": "noted apples"}]},
        {"blocks": [{"type": "text", "text": "forgotten"}]},
    ]
    result = run_program(target, turns, program=PROGRAM)
    [line] = [e for e in result["events"] if e["type"] == "resume_at"]
    [last] = result["main_bodies"]
    return line, _conversation(last)


def test_same_program_resumes_at_the_same_place() -> None:
    try:
        oracle()
    except OracleUnavailable as exc:
        pytest.skip(f"NOT RUN - the behavioural oracle is not available: {exc}")
    claude, hands = _resume("claude"), _resume("hands")
    assert claude[0] == {"type": "resume_at", "replies": 2, "prompts": 2,
                         "results": ["success", "success", "success"]}  # fmt: skip
    assert claude[1] == [
        ("user", ["remember apples"]),
        ("assistant", ["noted apples"]),
        ("user", ["what did I say?"]),
    ]
    assert hands == claude
