"""The same file-rewinding SDK program against Claude Code (the oracle) and hands.

Compared: one replayed prompt, the files the prompt's tools wrote, ``rewind_files`` to
that prompt (done) and to an unknown uuid (refused), and the files after the rewind (a
created file removed, a rewritten one back); the same when the rewinds are asked of a
fork of the session (``resume`` + ``fork_session``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cli.sdk.oracle_kit import OracleUnavailable, oracle, run_program

pytestmark = pytest.mark.slow

PROGRAM = Path(__file__).with_name("rewind_program.py")
PROJECT = "/home/user/project"


def _rewind(target: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    turns = [
        {"blocks": [{"type": "tool_use", "name": "Write",
                     "input": {"file_path": f"{PROJECT}/new.txt", "content": "created\n"}}]},
        {"blocks": [{"type": "tool_use", "name": "Read",
                     "input": {"file_path": f"{PROJECT}/README.md"}}]},
        {"blocks": [{"type": "tool_use", "name": "Write",
                     "input": {"file_path": f"{PROJECT}/README.md", "content": "rewritten\n"}}]},
    ]  # fmt: skip
    result = run_program(target, turns, program=PROGRAM, env=env)
    [line] = [e for e in result["events"] if e["type"] == "rewind"]
    return line


def test_same_program_rewinds_the_same_files() -> None:
    try:
        oracle()
    except OracleUnavailable as exc:
        pytest.skip(f"NOT RUN - the behavioural oracle is not available: {exc}")
    claude, hands = _rewind("claude"), _rewind("hands")
    assert claude["before"] == {"new.txt": "created\n", "README.md": "rewritten\n"}
    assert claude["after"]["new.txt"] is None
    assert (claude["known"], claude["unknown"], claude["prompts"]) == ("done", "refused", 1)
    assert hands == claude


def test_a_fork_rewinds_to_the_parents_prompt_in_both() -> None:
    try:
        oracle()
    except OracleUnavailable as exc:
        pytest.skip(f"NOT RUN - the behavioural oracle is not available: {exc}")
    fork = {"REWIND_ACROSS_FORK": "1"}
    claude, hands = _rewind("claude", fork), _rewind("hands", fork)
    assert claude["after"] == {"new.txt": None, "README.md": "# demo project\n"}
    assert (claude["known"], claude["unknown"]) == ("done", "refused")
    assert hands == claude
