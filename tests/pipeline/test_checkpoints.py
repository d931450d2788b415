"""Checkpoints: a turn's writes can be undone, with bounded disk, across processes."""

from __future__ import annotations

from pathlib import Path

import anyio

from hands.agent.loop import query
from hands.agent.options import QueryOptions
from hands.core.messages import Message
from hands.core.session import Session
from hands.pipeline.checkpoints import CheckpointStore, store_for
from hands.testing import ScriptedModel


def test_rewind_puts_back_changed_files_and_removes_created_ones(tmp_path: Path) -> None:
    store = store_for(tmp_path / "session")
    kept, made = tmp_path / "kept.txt", tmp_path / "made.txt"
    kept.write_text("v1")
    store.begin_turn("first", message_index=0)
    store.record(kept)
    kept.write_text("v2")
    store.record(kept)  # a second write in the same turn keeps the first content
    kept.write_text("v3")
    store.begin_turn("second", message_index=2)
    store.record(kept)
    kept.write_text("v4")
    store.record(made)
    made.write_text("new")
    assert store.changed_since(2) == sorted([str(kept), str(made)])

    # another process (--resume) sees the same checkpoints
    again = store_for(tmp_path / "session")
    assert [t.prompt for t in again.turns()] == ["first", "second"]
    done = again.rewind(2)
    assert kept.read_text() == "v3" and not made.exists()
    assert done.restored == (str(kept),) and done.removed == (str(made),)
    assert [t.number for t in again.turns()] == [1]
    assert again.rewind_to_message(0).restored == (str(kept),) and kept.read_text() == "v1"


def test_a_file_too_large_to_keep_is_reported_not_restored(tmp_path: Path) -> None:
    store = CheckpointStore(directory=tmp_path / "cp", max_file_bytes=10)
    big = tmp_path / "big.bin"
    big.write_bytes(b"x" * 100)
    store.begin_turn("p", message_index=0)
    store.record(big)
    big.write_bytes(b"y")
    done = store.rewind(1)
    assert done.lost == (str(big),) and big.read_bytes() == b"y"


def test_the_oldest_turns_go_when_the_store_is_over_its_bound(tmp_path: Path) -> None:
    store = CheckpointStore(directory=tmp_path / "cp", max_store_bytes=2500)
    for n in range(5):
        target = tmp_path / f"f{n}.txt"
        target.write_text(str(n) * 1000)
        store.begin_turn(f"p{n}", message_index=n * 2)
        store.record(target)
    numbers = [t.number for t in store.turns()]
    assert numbers == [4, 5]
    blobs = list((tmp_path / "cp" / "blobs").iterdir())
    assert sum(p.stat().st_size for p in blobs) <= 2500


def test_the_agents_own_writes_are_checkpointed_per_user_turn(tmp_path: Path) -> None:
    target = tmp_path / "a.txt"
    write = {"file_path": str(target), "content": "one\n"}
    edit = {"file_path": str(target), "old_string": "one", "new_string": "two"}
    model = ScriptedModel.from_turns(
        [{"type": "tool_use", "name": "Write", "input": write}],
        [{"type": "text", "text": "written"}],
        [{"type": "tool_use", "name": "Edit", "input": edit}],
        [{"type": "text", "text": "edited"}],
    )
    session = Session(home=tmp_path / "home")

    async def go() -> None:
        history: list[Message] = []
        for prompt in ("write it", "edit it"):
            options = QueryOptions(
                model=model,
                cwd=tmp_path,
                session=session,
                history=history,
                permission_mode="acceptEdits",
            )
            q = query(prompt, options)
            async for _ in q:
                pass
            history = list(q.messages)

    anyio.run(go)
    assert target.read_text() == "two\n"
    store = session.service(CheckpointStore)
    assert [(t.prompt, t.message_index) for t in store.turns()] == [("write it", 0), ("edit it", 4)]
    store.rewind(2)
    assert target.read_text() == "one\n"
    store.rewind(1)
    assert not target.exists()


def test_old_sessions_checkpoints_are_pruned_recent_ones_kept(tmp_path: Path) -> None:
    import os
    import time

    from hands.pipeline.checkpoints import prune_checkpoints

    home = tmp_path / "home"
    for name in ("old", "new"):
        store = store_for(home / "sessions" / name)
        target = tmp_path / f"{name}.txt"
        target.write_text(name)
        store.begin_turn("p", message_index=0)
        store.record(target)
    old_index = home / "sessions" / "old" / "checkpoints" / "turns.json"
    forty_days_ago = time.time() - 40 * 86_400
    os.utime(old_index, (forty_days_ago, forty_days_ago))
    assert prune_checkpoints(home, days=30) == 1
    assert not old_index.parent.exists()
    assert (home / "sessions" / "new" / "checkpoints" / "turns.json").exists()


def test_forget_drops_later_turns_and_their_contents_files_untouched(tmp_path: Path) -> None:
    store = store_for(tmp_path / "session")
    target = tmp_path / "a.txt"
    target.write_text("v1")
    store.begin_turn("first", message_index=0)
    store.record(target)
    target.write_text("v2")
    store.begin_turn("second", message_index=2)
    store.record(target)
    target.write_text("v3")
    blobs = tmp_path / "session" / "checkpoints" / "blobs"
    assert len(list(blobs.iterdir())) == 2
    store.forget(2)
    assert target.read_text() == "v3"
    assert [t.prompt for t in store_for(tmp_path / "session").turns()] == ["first"]
    assert len(list(blobs.iterdir())) == 1
    store.rewind(1)
    assert target.read_text() == "v1"
