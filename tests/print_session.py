"""``hands -p`` with a scripted model: one turn per call, then a closing text."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def tool_use(tool: str, /, **data: Any) -> dict[str, Any]:
    """A tool_use block."""
    return {"type": "tool_use", "name": tool, "input": data}


def print_run(
    project: Path,
    calls: Sequence[dict[str, Any]],
    *args: str,
    closing: str = "done",
    timeout: float = 120,
) -> list[dict[str, Any]]:
    """Each call in a turn of its own, then ``closing``; the stream-json lines."""
    turns = [{"blocks": [call]} for call in calls]
    turns.append({"blocks": [{"type": "text", "text": closing}]})
    script = project.parent / f"{project.name}-script.json"
    script.write_text(json.dumps({"turns": turns}))
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "-p", "go", "--model", f"scripted:{script}",
         "--output-format", "stream-json", "--verbose", *args],
        cwd=project, capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def tool_results(lines: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tool_result blocks of the stream, in order, with their text as ``text``."""
    out: list[dict[str, Any]] = []
    for line in lines:
        if line.get("type") != "user" or line.get("parent_tool_use_id"):
            continue
        for block in line["message"]["content"]:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                content = block.get("content")
                text = (
                    content
                    if isinstance(content, str)
                    else "".join(
                        part.get("text", "") for part in content or [] if isinstance(part, dict)
                    )
                )
                out.append({**block, "text": text})
    return out
