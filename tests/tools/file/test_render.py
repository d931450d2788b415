"""What people see: the use line, summaries and coloured diffs, rendered to plain text."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from hands.pipeline.pool import ToolPool, all_base_tools
from hands.tools.file._edit_result import EditOutput
from hands.tools.file._patch import make_patch
from hands.tools.file.edit import EditInput, EditTool
from hands.tools.file.read import ReadInput, ReadTool
from hands.tools.file.write import WriteTool

from .conftest import Harness

Render = Callable[[Any], str]


def test_edit_result_renders_a_numbered_diff(h: Harness, render: Render) -> None:
    f = h.root / "a.py"
    f.write_text("a = 1\nb = 2\nc = 3\nd = 4\n")
    h.read(f)
    out = h.ok("Edit", file_path=str(f), old_string="b = 2", new_string="b = 20\nb2 = 21")
    short = dataclasses.replace(out.output, file_path="/p/a.py")  # no wrapping at 100 columns
    assert render(EditTool().render_result(short)) == (
        "  ⎿ Updated /p/a.py with 2 additions and 1 removal\n"
        "    1   a = 1\n"
        "    2 - b = 2\n"
        "    2 + b = 20\n"
        "    3 + b2 = 21\n"
        "    4   c = 3\n"
        "    5   d = 4\n"
    )


def test_long_diffs_are_cut_with_a_count(render: Render) -> None:
    old = "".join(f"{i}\n" for i in range(100))
    new = "".join(f"{i}!\n" for i in range(100))
    out = EditOutput(
        file_path="/p",
        created=False,
        replacements=1,
        structured_patch=make_patch(old, new),
        encoding="UTF-8",
    )
    text = render(EditTool().render_result(out))
    assert "with 100 additions and 100 removals" in text
    assert "… +160 lines" in text


def test_write_renders_created_files_and_updates(h: Harness, render: Render) -> None:
    f = h.root / "n.txt"
    created = h.ok("Write", file_path=str(f), content="one\ntwo\n")
    short = dataclasses.replace(created.output, file_path="/p/n.txt")
    assert render(WriteTool().render_result(short)) == (
        "  ⎿ Wrote 8 bytes to /p/n.txt\n      1 one\n      2 two\n"
    )
    updated = h.ok("Write", file_path=str(f), content="one\n2\n")
    text = render(WriteTool().render_result(updated.output))
    assert "Updated" in text and "2 - two" in text and "2 + 2" in text


def test_read_renders_a_summary_not_the_content(h: Harness, render: Render) -> None:
    f = h.root / "a.txt"
    f.write_text("x\ny\n")
    out = h.ok("Read", file_path=str(f))
    tool = ReadTool()
    assert render(tool.render_result(out.output)) == "  ⎿ Read 2 lines\n"
    use = render(tool.render_use(ReadInput(file_path="/p/a.txt", offset=5, limit=10)))
    assert use == "● Read(/p/a.txt · lines 5-14)\n"
    edit_use = render(
        EditTool().render_use(EditInput(file_path="/x", old_string="a", new_string="b"))
    )
    assert edit_use == "● Edit(/x)\n"


def test_pool_has_the_five_file_tools_with_claude_code_names() -> None:
    pool = ToolPool(all_base_tools())
    for name in ("Read", "Write", "Edit", "MultiEdit", "NotebookEdit"):
        assert name in pool
    schema = pool.find("Read").input_schema  # type: ignore[union-attr]
    assert set(schema["properties"]) == {"file_path", "offset", "limit", "pages", "allow_large"}
    assert schema["required"] == ["file_path"]
    notebook = pool.find("NotebookEdit").input_schema  # type: ignore[union-attr]
    assert notebook["properties"]["edit_mode"]["enum"] == ["replace", "insert", "delete"]
