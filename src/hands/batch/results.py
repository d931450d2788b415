"""The results file: one JSON line per finished task, written as tasks finish."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, cast

Status = Literal["passed", "failed", "completed", "error", "timeout"]
"""``passed``/``failed``: the check's exit code; ``completed``: no check, the session
ended normally; ``error``: the session or its setup failed; ``timeout``: stopped at
``timeout_s``."""


def finished_ids(path: Path) -> set[str]:
    """Ids already in the results file (a torn last line, from a crash, is ignored)."""
    if not path.exists():
        return set()
    ids: set[str] = set()
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            entry: object = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(entry, dict):
            task_id = cast("dict[str, object]", entry).get("id")
            if isinstance(task_id, str):
                ids.add(task_id)
    return ids


class ResultsFile:
    """Appends results, one whole line at a time, each on disk before the next."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._ids = finished_ids(path)
        self._repair()

    def _repair(self) -> None:
        # a line cut short by a crash would glue itself to the next one
        if self.path.exists() and self.path.stat().st_size:
            with self.path.open("rb") as f:
                f.seek(-1, os.SEEK_END)
                if f.read(1) != b"\n":
                    with self.path.open("ab") as out:
                        out.write(b"\n")

    def __contains__(self, task_id: object) -> bool:
        return task_id in self._ids

    def write(self, result: Mapping[str, Any]) -> bool:
        """Append ``result`` unless its id is there already (a retried task's twin)."""
        task_id = result["id"]
        if task_id in self._ids:
            return False
        line = json.dumps(result, ensure_ascii=False, default=str) + "\n"
        with self.path.open("a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())
        self._ids.add(task_id)
        return True
