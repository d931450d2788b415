"""The task lists: one SQLite database under the hands home, shared by every session.

Each list (a project's, or one named by ``HANDS_TASK_LIST_ID``) holds numbered tasks and
the edges between them ("A blocks B"). The database runs in WAL mode so readers never
wait for a writer; every change is one ``BEGIN IMMEDIATE`` transaction, so two processes
updating the same list at once serialise instead of losing each other's work. Writers
queue on an ``flock`` beside the database first: the kernel wakes the next one the moment
the lock is free, where SQLite's own busy handler would sleep and poll (tens of
milliseconds under contention). Rules the
model might break are checked inside that transaction: a task with an unfinished blocker
cannot start, and an edge that would close a cycle is refused.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import threading
import time
from collections.abc import Generator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeAlias, cast

TaskStatus: TypeAlias = Literal["pending", "in_progress", "completed"]
TASK_STATUSES: tuple[TaskStatus, ...] = ("pending", "in_progress", "completed")
BUSY_TIMEOUT_MS = 10_000
"""How long a writer waits for another process's transaction before giving up."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS lists (
    list_id TEXT PRIMARY KEY,
    next_id INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tasks (
    list_id TEXT NOT NULL,
    id INTEGER NOT NULL,
    subject TEXT NOT NULL,
    description TEXT NOT NULL,
    active_form TEXT,
    status TEXT NOT NULL,
    owner TEXT,
    metadata TEXT NOT NULL DEFAULT '{}',
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (list_id, id)
);
CREATE TABLE IF NOT EXISTS edges (
    list_id TEXT NOT NULL,
    blocker INTEGER NOT NULL,
    blocked INTEGER NOT NULL,
    PRIMARY KEY (list_id, blocker, blocked)
);
CREATE INDEX IF NOT EXISTS edges_blocked ON edges (list_id, blocked);
"""


class TaskError(ValueError):
    """A change the list refuses: an unknown task, a blocked start, a cycle."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Task:
    """One task as stored."""

    id: str
    subject: str
    description: str
    status: TaskStatus
    active_form: str | None = None
    owner: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=lambda: dict[str, Any]())
    blocks: tuple[str, ...] = ()
    """Tasks that wait for this one."""
    blocked_by: tuple[str, ...] = ()
    """Tasks this one waits for."""
    open_blockers: tuple[str, ...] = ()
    """Those of ``blocked_by`` not completed yet."""

    def to_json(self) -> dict[str, Any]:
        """The task as JSON (``hands tasks --json``, tool outputs)."""
        return {
            "id": self.id,
            "subject": self.subject,
            "description": self.description,
            "activeForm": self.active_form,
            "status": self.status,
            "owner": self.owner,
            "metadata": dict(self.metadata),
            "blocks": list(self.blocks),
            "blockedBy": list(self.blocked_by),
        }


@dataclass(frozen=True, kw_only=True, slots=True)
class TaskChange:
    """What one update asks for; ``None`` leaves a field as it is."""

    status: TaskStatus | Literal["deleted"] | None = None
    subject: str | None = None
    description: str | None = None
    active_form: str | None = None
    owner: str | None = None
    metadata: Mapping[str, Any] | None = None
    """Keys merged into the task's metadata; a key set to ``None`` is removed."""
    add_blocks: Sequence[str] = ()
    add_blocked_by: Sequence[str] = ()


@dataclass(frozen=True, kw_only=True, slots=True)
class TaskUpdated:
    """What an update changed."""

    task_id: str
    fields: tuple[str, ...]
    old_status: TaskStatus | None = None
    new_status: TaskStatus | Literal["deleted"] | None = None


class TaskStore:
    """One database file, opened once per process; safe to share between threads."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._queue = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        self._db = sqlite3.connect(
            path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
        )
        self._db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        self._db.execute("PRAGMA journal_mode = WAL")
        # WAL with synchronous NORMAL keeps every committed change through a crash of
        # the process; only a power loss may take back the last transactions
        self._db.execute("PRAGMA synchronous = NORMAL")
        with self._write():
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()
            os.close(self._queue)

    @contextmanager
    def _write(self) -> Generator[sqlite3.Connection]:
        """One write transaction, taken before the first read so no update is lost."""
        with self._lock:
            fcntl.flock(self._queue, fcntl.LOCK_EX)
            try:
                db = self._db
                db.execute("BEGIN IMMEDIATE")
                try:
                    yield db
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                db.execute("COMMIT")
            finally:
                fcntl.flock(self._queue, fcntl.LOCK_UN)

    @contextmanager
    def _read(self) -> Generator[sqlite3.Connection]:
        """A consistent snapshot for several reads."""
        with self._lock:
            db = self._db
            db.execute("BEGIN")
            try:
                yield db
            finally:
                db.execute("COMMIT")

    # -- changes --------------------------------------------------------------------

    def create(
        self,
        list_id: str,
        *,
        subject: str,
        description: str,
        active_form: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Task:
        """A new pending task with the list's next number."""
        now = time.time()
        with self._write() as db:
            row = db.execute("SELECT next_id FROM lists WHERE list_id = ?", (list_id,)).fetchone()
            number = 1 if row is None else int(row[0])
            db.execute(
                "INSERT INTO lists (list_id, next_id) VALUES (?, ?) "
                "ON CONFLICT (list_id) DO UPDATE SET next_id = excluded.next_id",
                (list_id, number + 1),
            )
            meta = {k: v for k, v in (metadata or {}).items() if v is not None}
            db.execute(
                "INSERT INTO tasks (list_id, id, subject, description, active_form, status, "
                "metadata, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?)",
                (list_id, number, subject, description, active_form, json.dumps(meta), now, now),
            )
        return Task(
            id=str(number),
            subject=subject,
            description=description,
            status="pending",
            active_form=active_form,
            metadata=meta,
        )

    def update(self, list_id: str, task_id: str, change: TaskChange) -> TaskUpdated:
        """Apply ``change`` to one task in one transaction; :class:`TaskError` if refused."""
        number = _number(task_id)
        with self._write() as db:
            row = db.execute(
                "SELECT status, metadata FROM tasks WHERE list_id = ? AND id = ?",
                (list_id, number),
            ).fetchone()
            if row is None:
                raise TaskError(f"There is no task #{task_id} in this list.")
            old_status = cast(TaskStatus, row[0])
            if change.status == "deleted":
                db.execute("DELETE FROM tasks WHERE list_id = ? AND id = ?", (list_id, number))
                db.execute(
                    "DELETE FROM edges WHERE list_id = ? AND (blocker = ? OR blocked = ?)",
                    (list_id, number, number),
                )
                return TaskUpdated(
                    task_id=task_id, fields=("status",), old_status=old_status, new_status="deleted"
                )
            fields = _add_edges(db, list_id, number, change)
            values: dict[str, Any] = {}
            for name, column in (
                ("subject", "subject"),
                ("description", "description"),
                ("active_form", "active_form"),
                ("owner", "owner"),
            ):
                value = getattr(change, name)
                if value is not None:
                    values[column] = value
                    fields.append(name)
            if change.metadata is not None:
                merged = dict(json.loads(row[1]))
                for key, value in change.metadata.items():
                    if value is None:
                        merged.pop(key, None)
                    else:
                        merged[key] = value
                values["metadata"] = json.dumps(merged)
                fields.append("metadata")
            if change.status is not None and change.status != old_status:
                if change.status == "in_progress":
                    _refuse_if_blocked(db, list_id, number)
                values["status"] = change.status
                fields.append("status")
            if values:
                values["updated_at"] = time.time()
                assignments = ", ".join(f"{column} = ?" for column in values)
                db.execute(
                    f"UPDATE tasks SET {assignments} WHERE list_id = ? AND id = ?",
                    (*values.values(), list_id, number),
                )
        new_status = change.status if "status" in fields else None
        return TaskUpdated(
            task_id=task_id, fields=tuple(fields), old_status=old_status, new_status=new_status
        )

    # -- reads ----------------------------------------------------------------------

    def get(self, list_id: str, task_id: str) -> Task | None:
        """One task with its edges, or None."""
        try:
            number = _number(task_id)
        except TaskError:
            return None
        with self._read() as db:
            row = db.execute(
                f"SELECT {_COLUMNS} FROM tasks WHERE list_id = ? AND id = ?", (list_id, number)
            ).fetchone()
            if row is None:
                return None
            edges = db.execute(
                "SELECT e.blocker, e.blocked, t.status FROM edges e "
                "JOIN tasks t ON t.list_id = e.list_id AND t.id = e.blocker "
                "WHERE e.list_id = ? AND (e.blocker = ? OR e.blocked = ?)",
                (list_id, number, number),
            ).fetchall()
        return _task(row, edges)

    def list(self, list_id: str) -> list[Task]:
        """Every task of the list, by number."""
        with self._read() as db:
            rows = db.execute(
                f"SELECT {_COLUMNS} FROM tasks WHERE list_id = ? ORDER BY id", (list_id,)
            ).fetchall()
            edges = db.execute(
                "SELECT e.blocker, e.blocked, t.status FROM edges e "
                "JOIN tasks t ON t.list_id = e.list_id AND t.id = e.blocker "
                "WHERE e.list_id = ?",
                (list_id,),
            ).fetchall()
        by_task: dict[int, list[tuple[int, int, str]]] = {}
        for blocker, blocked, status in edges:
            by_task.setdefault(blocker, []).append((blocker, blocked, status))
            by_task.setdefault(blocked, []).append((blocker, blocked, status))
        return [_task(row, by_task.get(int(row[0]), [])) for row in rows]


_COLUMNS = "id, subject, description, active_form, status, owner, metadata"


_MAX_ID = 2**63 - 1
"""The largest id SQLite can store."""


def _number(task_id: str) -> int:
    text = task_id.strip().removeprefix("#")
    # ASCII digits only: str.isdigit also takes "²" and other digits int() refuses
    if not (text.isascii() and text.isdigit()):
        raise TaskError(
            f"Task ids are numbers (as TaskCreate and TaskList give them), not {task_id!r}."
        )
    number = int(text)
    if number > _MAX_ID:  # past SQLite's integers: no task can have it
        raise TaskError(f"There is no task #{text} in this list; check the id with TaskList.")
    return number


def _task(row: Sequence[Any], edges: Sequence[Sequence[Any]]) -> Task:
    number = int(row[0])
    blocks: tuple[str, ...] = ()
    blocked_by: tuple[str, ...] = ()
    open_blockers: tuple[str, ...] = ()
    if edges:
        blocks = tuple(str(b) for b in sorted(int(b) for a, b, _ in edges if int(a) == number))
        blockers = sorted((int(a), s) for a, b, s in edges if int(b) == number)
        blocked_by = tuple(str(a) for a, _ in blockers)
        open_blockers = tuple(str(a) for a, s in blockers if s != "completed")
    raw = row[6]
    return Task(
        id=str(number),
        subject=row[1],
        description=row[2],
        active_form=row[3],
        status=row[4],
        owner=row[5],
        metadata={} if raw == "{}" else json.loads(raw),
        blocks=blocks,
        blocked_by=blocked_by,
        open_blockers=open_blockers,
    )


def _add_edges(db: sqlite3.Connection, list_id: str, number: int, change: TaskChange) -> list[str]:
    """Insert the change's edges, refusing unknown tasks, self-edges and cycles."""
    fields: list[str] = []
    pairs = [(number, _number(t)) for t in change.add_blocks]
    pairs += [(_number(t), number) for t in change.add_blocked_by]
    for blocker, blocked in pairs:
        other = blocked if blocker == number else blocker
        if other == number:
            raise TaskError(f"Task #{number} cannot block itself.")
        found = db.execute(
            "SELECT 1 FROM tasks WHERE list_id = ? AND id = ?", (list_id, other)
        ).fetchone()
        if found is None:
            raise TaskError(f"There is no task #{other} in this list.")
        if _reaches(db, list_id, start=blocked, goal=blocker):
            raise TaskError(
                f"#{blocker} cannot block #{blocked}: #{blocked} already blocks #{blocker} "
                "(directly or through other tasks), and a cycle could never be finished."
            )
        db.execute(
            "INSERT OR IGNORE INTO edges (list_id, blocker, blocked) VALUES (?, ?, ?)",
            (list_id, blocker, blocked),
        )
    if change.add_blocks:
        fields.append("blocks")
    if change.add_blocked_by:
        fields.append("blocked_by")
    return fields


def _reaches(db: sqlite3.Connection, list_id: str, *, start: int, goal: int) -> bool:
    """Whether ``start`` blocks ``goal``, directly or through other tasks."""
    row = db.execute(
        "WITH RECURSIVE down(id) AS (SELECT ? UNION "
        "SELECT e.blocked FROM edges e JOIN down ON e.blocker = down.id WHERE e.list_id = ?) "
        "SELECT 1 FROM down WHERE id = ? LIMIT 1",
        (start, list_id, goal),
    ).fetchone()
    return row is not None


def _refuse_if_blocked(db: sqlite3.Connection, list_id: str, number: int) -> None:
    rows = db.execute(
        "SELECT t.id, t.subject FROM edges e JOIN tasks t "
        "ON t.list_id = e.list_id AND t.id = e.blocker "
        "WHERE e.list_id = ? AND e.blocked = ? AND t.status != 'completed' ORDER BY t.id",
        (list_id, number),
    ).fetchall()
    if rows:
        names = ", ".join(f"#{r[0]} ({r[1]})" for r in rows)
        raise TaskError(
            f"Task #{number} cannot start: it is blocked by {names}, not completed yet. "
            "Finish the blocker first, or work on a task that is not blocked."
        )


_STORES: dict[tuple[int, Path], TaskStore] = {}
_STORES_LOCK = threading.Lock()


def store_at(path: Path) -> TaskStore:
    """The process's store for the database at ``path`` (opened on first use).

    Keyed by process too: a forked child opens its own connection, never its parent's.
    """
    key = (os.getpid(), path.absolute())
    with _STORES_LOCK:
        found = _STORES.get(key)
        if found is None:
            found = _STORES[key] = TaskStore(key[1])
        return found
