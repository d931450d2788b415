"""Scripted sessions over the planning tools, through the whole pipeline."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hands.agent.loop import QueryOptions, query
from hands.core.context import PermissionMode
from hands.core.outcome import ToolCallOutcome
from hands.core.session import Session
from hands.orchestration.events import ToolResultEvent
from hands.permissions.engine import PermissionEngine
from hands.pipeline.pool import pool_for
from hands.testing import ScriptedModel

COLOR = {
    "question": "Which colour?",
    "header": "Colour",
    "options": [
        {"label": "Red", "description": "warm"},
        {"label": "Blue", "description": "cool"},
    ],
}
SIZES = {
    "question": "Which sizes?",
    "header": "Sizes",
    "multiSelect": True,
    "options": [
        {"label": "S", "description": "small"},
        {"label": "M", "description": "medium"},
        {"label": "L", "description": "large"},
    ],
}
"""Two questions for AskUserQuestion: one choice of two, and a multi-select of three."""


def use(name: str, **data: Any) -> dict[str, Any]:
    return {"type": "tool_use", "name": name, "input": data}


async def run(
    project: Path,
    calls: Sequence[dict[str, Any]],
    *,
    session: Session | None = None,
    mode: PermissionMode = "default",
    engine: bool = True,
    **options: Any,
) -> list[ToolCallOutcome]:
    """Each call in a turn of its own, then a text answer; the outcomes in order."""
    model = ScriptedModel.from_turns(*[[c] for c in calls], [{"type": "text", "text": "done"}])
    policy = PermissionEngine([], home=project.parent / "user-home") if engine else None
    q = query(
        "go",
        QueryOptions(
            model=model,
            tools=pool_for(policy),
            cwd=project,
            permission_mode=mode,
            policy=policy,
            session=session,
            **options,
        ),
    )
    return [e.outcome async for e in q if isinstance(e, ToolResultEvent)]


def print_session(
    project: Path, script: Path, call: dict[str, Any], *args: str
) -> list[dict[str, Any]]:
    """``hands -p`` with one scripted call then a text answer; the stream-json lines."""
    turns = [{"blocks": [call]}, {"blocks": [{"type": "text", "text": "done"}]}]
    script.write_text(json.dumps({"turns": turns}))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "hands",
            "-p",
            "go",
            "--model",
            f"scripted:{script}",
            "--output-format",
            "stream-json",
            "--verbose",
            *args,
        ],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def blocks_of(lines: list[dict[str, Any]], role: str, kind: str) -> list[dict[str, Any]]:
    """The content blocks of type ``kind`` in the stream-json messages of ``role``."""
    return [
        block
        for line in lines
        if line["type"] == role
        for block in line["message"]["content"]
        if isinstance(block, dict) and block.get("type") == kind
    ]
