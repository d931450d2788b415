"""Durable cron jobs: the project's ``.claude/scheduled_tasks.json``, as Claude Code keeps it.

Shape: ``{"tasks": [{"id", "cron", "prompt", "createdAt", "lastFiredAt"?, "recurring"?}]}``
(times in epoch milliseconds). Every change reads the file, changes only its own entry
and writes the whole file to a temporary name then renames it over the old one, under
an exclusive lock on the ``.claude`` folder, so two sessions in the project lose
nothing of each other's and a crash leaves the old file. Entries hands cannot read are
kept as they are. A file that is not a list of tasks is never rewritten.

The file is project input: a repository can ship one, and its prompts would make the
model act on the repository's words, so its jobs are loaded only in a trusted folder.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any, cast

FILE = Path(".claude") / "scheduled_tasks.json"


class DurableFileError(Exception):
    """The project's scheduled tasks file cannot be read as a list of tasks (not changed)."""


def tasks_file(project: Path) -> Path:
    """Where the project's durable jobs are kept."""
    return project / FILE


def read_tasks(project: Path) -> list[dict[str, Any]]:
    """The file's entries (no file: none); DurableFileError when it is not a task list."""
    path = tasks_file(project)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise DurableFileError(f"{path} cannot be read ({exc})") from None
    if not text.strip():
        return []
    try:
        data: object = json.loads(text)
    except ValueError as exc:
        raise DurableFileError(f"{path} is not JSON ({exc})") from None
    tasks = cast(dict[str, Any], data).get("tasks") if isinstance(data, dict) else None
    if not isinstance(tasks, list):
        raise DurableFileError(f"{path} holds no list of tasks under 'tasks'")
    return list(cast(list[dict[str, Any]], tasks))


@contextlib.contextmanager
def _locked(project: Path) -> Generator[None]:
    """An exclusive lock on the ``.claude`` folder itself (no lock file left behind)."""
    folder = tasks_file(project).parent
    folder.mkdir(parents=True, exist_ok=True)
    handle = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # closing releases the lock


def change(project: Path, edit: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> None:
    """Apply ``edit`` to the file's entries and write them back whole (see the module doc).

    Raises DurableFileError (nothing changed) when the file is not a task list, OSError
    when it cannot be written.
    """
    path = tasks_file(project)
    with _locked(project):
        tasks = edit(read_tasks(project))
        partial = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        try:
            partial.write_text(json.dumps({"tasks": tasks}, indent=2) + "\n", encoding="utf-8")
            partial.replace(path)
        finally:
            partial.unlink(missing_ok=True)


def put(project: Path, entry: dict[str, Any]) -> None:
    """Add the entry, or replace the one with its id."""
    change(project, lambda tasks: [*(t for t in tasks if t.get("id") != entry["id"]), entry])


def drop(project: Path, task_id: str) -> None:
    """Remove the entry with ``task_id`` (if any)."""
    change(project, lambda tasks: [t for t in tasks if t.get("id") != task_id])


def fired(project: Path, task_id: str, at_ms: int) -> None:
    """Record that the recurring entry ``task_id`` fired at ``at_ms``."""

    def mark(tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**t, "lastFiredAt": at_ms} if t.get("id") == task_id else t for t in tasks]

    change(project, mark)
