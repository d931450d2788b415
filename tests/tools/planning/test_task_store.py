"""The task database: persistence, concurrent writers, blocked tasks and cycles."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from hands.tools.planning._task_store import TaskChange, TaskError, TaskStore

WORKER = """
import sys
from pathlib import Path
from hands.tools.planning._task_store import TaskChange, TaskStore

path, name, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
store = TaskStore(path)
print("ready", flush=True)
sys.stdin.readline()  # start together
for k in range(count):
    store.create("shared", subject=f"{name}-{k}", description="")
    store.update("shared", "1", TaskChange(metadata={f"{name}-{k}": k}))
store.close()
"""


@pytest.fixture
def store(tmp_path: Path) -> TaskStore:
    return TaskStore(tmp_path / "tasks.db")


def test_tasks_are_numbered_per_list_and_kept_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "tasks.db"
    first = TaskStore(path)
    a = first.create("one", subject="Write the parser", description="", active_form="Writing")
    b = first.create("one", subject="Test it", description="cases")
    other = first.create("two", subject="Elsewhere", description="")
    assert (a.id, b.id, other.id) == ("1", "2", "1")
    first.close()
    again = TaskStore(path)
    assert [(t.id, t.subject, t.status) for t in again.list("one")] == [
        ("1", "Write the parser", "pending"),
        ("2", "Test it", "pending"),
    ]
    assert [t.subject for t in again.list("two")] == ["Elsewhere"]
    mode = sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_a_deleted_task_leaves_its_number_and_links_behind(store: TaskStore) -> None:
    for name in ("a", "b", "c"):
        store.create("l", subject=name, description="")
    store.update("l", "3", TaskChange(add_blocked_by=("1", "2")))
    store.update("l", "3", TaskChange(status="deleted"))
    store.update("l", "2", TaskChange(status="deleted"))
    assert store.get("l", "3") is None
    assert store.get("l", "1") is not None and store.get("l", "1").blocks == ()  # type: ignore[union-attr]
    assert store.create("l", subject="d", description="").id == "4"  # numbers are not reused


def test_a_blocked_task_cannot_start_and_the_error_names_the_blocker(store: TaskStore) -> None:
    store.create("l", subject="Design the schema", description="")
    store.create("l", subject="Write the migration", description="")
    store.update("l", "2", TaskChange(add_blocked_by=("1",)))
    with pytest.raises(TaskError, match=r"#1 \(Design the schema\)"):
        store.update("l", "2", TaskChange(status="in_progress"))
    assert store.get("l", "2").status == "pending"  # type: ignore[union-attr]
    store.update("l", "1", TaskChange(status="completed"))
    done = store.update("l", "2", TaskChange(status="in_progress"))
    assert done.fields == ("status",) and done.old_status == "pending"
    two = store.get("l", "2")
    assert two is not None and two.blocked_by == ("1",) and two.open_blockers == ()


def test_a_refused_update_changes_nothing_at_all(store: TaskStore) -> None:
    store.create("l", subject="a", description="")
    store.create("l", subject="b", description="")
    store.update("l", "2", TaskChange(add_blocked_by=("1",)))
    with pytest.raises(TaskError):  # one transaction: the subject is not half-applied
        store.update("l", "2", TaskChange(subject="renamed", status="in_progress"))
    assert store.get("l", "2").subject == "b"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "change",
    [
        TaskChange(add_blocked_by=("3",)),  # 1 blocks 2 blocks 3; then 1 waits for 3
        TaskChange(add_blocks=("1",)),  # the same cycle, said from 3's side
    ],
)
def test_links_that_would_make_a_cycle_are_refused(store: TaskStore, change: TaskChange) -> None:
    for name in ("a", "b", "c"):
        store.create("l", subject=name, description="")
    store.update("l", "2", TaskChange(add_blocked_by=("1",)))
    store.update("l", "3", TaskChange(add_blocked_by=("2",)))
    target = "1" if change.add_blocked_by else "3"
    with pytest.raises(TaskError, match="cycle"):
        store.update("l", target, change)
    assert store.get("l", "1").blocked_by == ()  # type: ignore[union-attr]


def test_links_to_itself_or_to_missing_tasks_are_refused(store: TaskStore) -> None:
    store.create("l", subject="a", description="")
    with pytest.raises(TaskError, match="itself"):
        store.update("l", "1", TaskChange(add_blocks=("1",)))
    with pytest.raises(TaskError, match="no task #9"):
        store.update("l", "1", TaskChange(add_blocked_by=("9",)))
    with pytest.raises(TaskError, match="no task #5"):
        store.update("l", "5", TaskChange(status="completed"))
    with pytest.raises(TaskError, match="numbers"):
        store.update("l", "first", TaskChange(status="completed"))


def test_metadata_is_merged_and_a_null_removes_a_key(store: TaskStore) -> None:
    store.create("l", subject="a", description="", metadata={"keep": 1, "drop": 2})
    store.update("l", "1", TaskChange(metadata={"drop": None, "new": [1, 2]}))
    assert dict(store.get("l", "1").metadata) == {"keep": 1, "new": [1, 2]}  # type: ignore[union-attr]


def test_two_processes_writing_at_once_lose_no_update(tmp_path: Path) -> None:
    path = tmp_path / "tasks.db"
    TaskStore(path).create("shared", subject="counter", description="")
    count = 150
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(path), name, str(count)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name in ("left", "right")
    ]
    for worker in workers:
        assert worker.stdout is not None and worker.stdout.readline().strip() == "ready"
    for worker in workers:
        assert worker.stdin is not None
        worker.stdin.write("go\n")
        worker.stdin.flush()
    for worker in workers:
        assert worker.wait(timeout=120) == 0
    store = TaskStore(path)
    tasks = store.list("shared")
    assert [int(t.id) for t in tasks] == list(range(1, 2 * count + 2))  # no number twice
    meta = dict(tasks[0].metadata)
    assert len(meta) == 2 * count, "an update was lost"
    assert json.dumps(meta["left-149"]) == "149" and meta["right-0"] == 0


def test_an_id_of_digits_that_are_not_ascii_names_no_task(store: TaskStore) -> None:
    # "²" and "٣" count as digits for str.isdigit, but int() refuses them
    for task_id in ("²", "٣"):
        assert store.get("default", task_id) is None


def test_an_id_past_what_the_store_can_hold_is_no_task(store: TaskStore) -> None:
    huge = "9" * 30  # beyond SQLite's 64-bit integers
    store.create("L", subject="A task", description="")
    assert store.get("L", huge) is None
    with pytest.raises(TaskError, match="no task"):
        store.update("L", huge, TaskChange(status="completed"))
