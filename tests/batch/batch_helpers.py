"""Task files, scripted models and small git repositories for the batch tests."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

BUG = "def add(a, b):\n    return a - b\n"
CHECK = "python3 -c 'import calc; assert calc.add(2, 3) == 5'"


def script(path: Path, *turns: list[dict[str, Any]]) -> str:
    """A scripted model file with these turns of blocks; its ``--model`` value."""
    path.write_text(json.dumps({"turns": [{"blocks": blocks} for blocks in turns]}))
    return f"scripted:{path}"


def bash(command: str) -> list[dict[str, Any]]:
    return [{"type": "tool_use", "name": "Bash", "input": {"command": command}}]


def text(words: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": words}]


def fixing_model(tmp: Path) -> str:
    """A model that fixes calc.py with one Bash call and says so."""
    return script(tmp / "fix.json", bash("sed -i 's/a - b/a + b/' calc.py"), text("fixed"))


def git_repo(root: Path, files: Mapping[str, str]) -> tuple[str, str]:
    """A git repository with one commit of ``files``; (its path, the commit)."""
    root.mkdir(parents=True)
    for name, body in files.items():
        (root / name).write_text(body)
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin"}  # fmt: skip
    for argv in (["init", "-q"], ["add", "."], ["commit", "-qm", "start"]):
        subprocess.run(["git", *argv], cwd=root, check=True, env=env)
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=root, check=True, capture_output=True, text=True, env=env
    ).stdout.strip()
    return str(root), commit


def write_tasks(path: Path, tasks: Iterable[Mapping[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(t) + "\n" for t in tasks))
    return path


def read_results(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
