"""The task file: JSONL, one agent session to run per line."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from hands.errors import HandsError

PermissionMode = Literal["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"]


class TaskFileError(HandsError):
    """A task file that cannot be run, with the line and the problem."""


class BatchTask(BaseModel):
    """One session: a prompt, where it works, the model, and how its result is scored."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$")
    prompt: str = Field(min_length=1)
    repo: str | None = None
    """A git repository (path or URL) cloned as the workdir, at ``commit``."""
    commit: str | None = None
    path: str | None = None
    """A directory copied as the workdir."""
    files: Mapping[str, str] | None = None
    """Files written into the workdir (relative paths → text)."""
    model: str | None = None
    """``anthropic:NAME``, ``openai:NAME``, ``scripted:FILE``; default: the batch's."""
    settings: Mapping[str, Any] | None = None
    """A settings object (permissions, hooks...) the session loads as its local settings."""
    permission_mode: PermissionMode = "acceptEdits"
    max_turns: int | None = Field(default=None, ge=1)
    timeout_s: float = Field(default=1800.0, gt=0)
    setup: list[str] = Field(default_factory=list)
    """Shell commands run in the workdir before the session (in the sandbox)."""
    check: str | None = None
    """A shell command run after the session; its exit code scores the task (0 = pass)."""

    @model_validator(mode="after")
    def _one_source(self) -> BatchTask:
        given = [n for n in ("repo", "path") if getattr(self, n) is not None]
        if len(given) > 1:
            raise ValueError("give one workdir source: repo (+ commit) or path, not both")
        if self.commit is not None and self.repo is None:
            raise ValueError("commit needs repo")
        for name in self.files or {}:
            p = Path(name)
            if p.is_absolute() or ".." in p.parts or not name:
                raise ValueError(f"files: {name!r} must be a relative path inside the workdir")
        return self


def load_tasks(path: Path) -> list[BatchTask]:
    """Every task of the file; raises :class:`TaskFileError` naming the line of a bad one."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TaskFileError(f"{path}: cannot read the task file ({exc.strerror or exc})") from exc
    tasks: list[BatchTask] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TaskFileError(
                f"{path}:{number}: not JSON ({exc.msg}, column {exc.colno})"
            ) from exc
        try:
            task = BatchTask.model_validate(data)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'task'}: {e['msg']}" for e in exc.errors()
            )
            raise TaskFileError(f"{path}:{number}: {problems}") from exc
        if task.id in seen:
            raise TaskFileError(
                f"{path}:{number}: id {task.id!r} already used on line {seen[task.id]}"
            )
        seen[task.id] = number
        tasks.append(task)
    return tasks
