"""The read-state cache: read first, and never overwrite changes made since."""

from __future__ import annotations

import os
import subprocess
import sys

from hands.tools.file._state import ReadStateCache

from .conftest import Harness


def test_edit_write_and_notebook_edit_need_a_prior_read(h: Harness) -> None:
    f = h.root / "a.txt"
    f.write_text("x\n")
    for name, extra in (
        ("Edit", {"old_string": "x", "new_string": "y"}),
        ("MultiEdit", {"edits": [{"old_string": "x", "new_string": "y"}]}),
        ("Write", {"content": "y\n"}),
    ):
        text = h.err(name, file_path=str(f), **extra)
        assert "was never read in this session" in text and "Read it, then" in text
    nb = h.root / "n.ipynb"
    nb.write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    text = h.err(
        "NotebookEdit", notebook_path=str(nb), new_source="x", cell_type="code", edit_mode="insert"
    )
    assert "was never read in this session" in text
    assert f.read_text() == "x\n"


def test_read_records_size_mtime_hash_and_kind(h: Harness) -> None:
    f = h.root / "a.txt"
    f.write_text("".join(f"{i}\n" for i in range(10)))
    h.read(f, offset=2, limit=3)
    record = h.ctx.session.service(ReadStateCache).get(f.resolve())
    assert record is not None
    st = f.stat()
    assert (record.stamp.size, record.stamp.mtime_ns) == (st.st_size, st.st_mtime_ns)
    assert record.digest is not None and record.kind == "range" and record.by_read
    h.read(f)
    record = h.ctx.session.service(ReadStateCache).get(f.resolve())
    assert record is not None and record.kind == "full"


def test_stale_file_changed_by_another_process_is_not_overwritten(h: Harness) -> None:
    f = h.root / "a.txt"
    f.write_text("mine\n")
    h.read(f)
    subprocess.run([sys.executable, "-c", f"open({str(f)!r}, 'a').write('theirs\\n')"], check=True)
    for name, extra in (
        ("Edit", {"old_string": "mine", "new_string": "ours"}),
        ("Write", {"content": "ours\n"}),
    ):
        text = h.err(name, file_path=str(f), **extra)
        assert "changed on disk after your last Read" in text and "Read it again" in text
    assert f.read_text() == "mine\ntheirs\n"
    h.read(f)
    h.ok("Edit", file_path=str(f), old_string="mine", new_string="ours")
    assert f.read_text() == "ours\ntheirs\n"


def test_same_size_change_with_restored_mtime_is_caught_by_the_hash(h: Harness) -> None:
    f = h.root / "a.txt"
    f.write_text("aaaa\n")
    h.read(f)
    st = f.stat()
    f.write_text("bbbb\n")
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 1))
    assert "changed on disk after your last Read" in h.err(
        "Edit", file_path=str(f), old_string="bbbb", new_string="c"
    )


def test_a_touch_alone_is_not_a_change(h: Harness) -> None:
    f = h.root / "a.txt"
    f.write_text("same\n")
    h.read(f)
    st = f.stat()
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    h.ok("Edit", file_path=str(f), old_string="same", new_string="new")


def test_partial_view_does_not_allow_edits_but_a_chosen_range_does(h: Harness) -> None:
    f = h.root / "big.txt"
    f.write_text("".join(f"{i:06d} " + "z" * 200 + "\n" for i in range(2000)))
    assert "Cut short at" in h.read(f)
    text = h.err("Edit", file_path=str(f), old_string="000001 ", new_string="first ")
    assert "partial view" in text and "offset and limit" in text
    h.read(f, offset=1, limit=5)
    h.ok("Edit", file_path=str(f), old_string="000001 ", new_string="first ")
    assert f.read_text().splitlines()[1].startswith("first z")


def test_write_needs_the_whole_file_not_a_range(h: Harness) -> None:
    f = h.root / "a.txt"
    f.write_text("".join(f"{i}\n" for i in range(100)))
    h.read(f, offset=1, limit=10)
    text = h.err("Write", file_path=str(f), content="new\n")
    assert "only partly read" in text and "Write replaces the whole file" in text
    h.read(f)
    h.ok("Write", file_path=str(f), content="new\n")
    assert f.read_text() == "new\n"


def test_sessions_do_not_share_read_state(h: Harness, tmp_path_factory: object) -> None:
    from hands.core.session import Session

    f = h.root / "a.txt"
    f.write_text("x\n")
    h.read(f)
    other = Session(home=h.ctx.session.home)
    assert other.service(ReadStateCache).get(f.resolve()) is None
    assert len(h.ctx.session.service(ReadStateCache)) == 1


def test_change_between_validation_and_call_is_caught(h: Harness) -> None:
    import anyio

    from hands.tools.file.edit import EditInput, EditTool

    f = h.root / "a.txt"
    f.write_text("one\n")
    h.read(f)
    tool = EditTool()
    inp = EditInput(file_path=str(f), old_string="one", new_string="two")
    assert anyio.run(tool.validate_input, inp, h.ctx) is None
    f.write_text("ONE!\n")  # e.g. while a permission prompt waits for the user

    async def call() -> None:
        await tool.call(inp, h.ctx, lambda _: None)

    import pytest

    from hands.errors import ToolError

    with pytest.raises(ToolError, match="changed on disk after your last Read"):
        anyio.run(call)
    assert f.read_text() == "ONE!\n"
