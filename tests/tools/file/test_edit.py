"""Edit: validation order and messages, matching, encodings and line endings."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import anyio

from hands.tools.file.edit import EditInput, EditTool

from .conftest import Harness


def read_then(h: Harness, path: Path) -> None:
    h.read(path)


def test_simple_edit_and_the_model_facing_confirmation(h: Harness) -> None:
    f = h.root / "a.py"
    f.write_text("def f():\n    return 1\n\n\nprint(f())\n")
    read_then(h, f)
    text = h.ok("Edit", file_path=str(f), old_string="return 1", new_string="return 2").block.text
    assert f.read_text() == "def f():\n    return 2\n\n\nprint(f())\n"
    assert text.startswith(f"Saved {f}. The changed region now reads")
    assert "1\tdef f():\n2\t    return 2\n3\t\n4\t\n5\tprint(f())" in text


def test_identical_strings_are_refused_first(h: Harness) -> None:
    text = h.err("Edit", file_path=str(h.root / "missing.py"), old_string="a", new_string="a")
    assert "new_string is identical to old_string" in text


def test_missing_file_with_old_string_suggests_and_names_cwd(h: Harness) -> None:
    (h.root / "main.py").write_text("x\n")
    text = h.err("Edit", file_path=str(h.root / "mian.py"), old_string="x", new_string="y")
    assert "No file at" in text and f"Did you mean {h.root / 'main.py'}" in text
    assert "A new file is made with Write" in text


def test_empty_old_string_creates_a_file_and_parents(h: Harness) -> None:
    f = h.root / "new" / "dir" / "x.txt"
    text = h.ok("Edit", file_path=str(f), old_string="", new_string="hello\n").block.text
    assert f.read_text() == "hello\n"
    assert text == f"Created {f}."


def test_empty_old_string_on_a_file_with_content_is_refused(h: Harness) -> None:
    f = h.root / "x.txt"
    f.write_text("content\n")
    read_then(h, f)
    text = h.err("Edit", file_path=str(f), old_string="", new_string="y")
    assert "already exists and is not empty" in text
    assert f.read_text() == "content\n"


def test_empty_old_string_fills_an_empty_file(h: Harness) -> None:
    f = h.root / "x.txt"
    f.write_text("  \n")
    read_then(h, f)
    h.ok("Edit", file_path=str(f), old_string="", new_string="filled\n")
    assert f.read_text() == "filled\n"


def test_notebooks_are_sent_to_notebook_edit(h: Harness) -> None:
    f = h.root / "n.ipynb"
    f.write_text("{}")
    text = h.err("Edit", file_path=str(f), old_string="{", new_string="[")
    assert "its cells are changed with NotebookEdit" in text


def test_not_found_echoes_the_string_and_hints(h: Harness) -> None:
    f = h.root / "a.py"
    f.write_text("def f():\n    return 1\n")
    read_then(h, f)
    text = h.err("Edit", file_path=str(f), old_string="def f():\n  return 1", new_string="x")
    assert "old_string does not occur in the file.\nold_string: def f():\n  return 1" in text
    assert "first line does appear at line 1" in text
    text = h.err("Edit", file_path=str(f), old_string="1\tdef f():", new_string="x")
    assert "line-number prefixes" in text


def test_several_matches_need_replace_all(h: Harness) -> None:
    f = h.root / "a.py"
    f.write_text("x = 1\ny = x\nz = x\n")
    read_then(h, f)
    text = h.err("Edit", file_path=str(f), old_string="x", new_string="w")
    assert "occurs 3 times" in text and "replace_all" in text
    out = h.ok("Edit", file_path=str(f), old_string="x", new_string="w", replace_all=True)
    assert f.read_text() == "w = 1\ny = w\nz = w\n"
    assert ", 3 replacements." in out.block.text


def test_replacement_is_literal(h: Harness) -> None:
    f = h.root / "a.txt"
    f.write_text("name = X\n")
    read_then(h, f)
    h.ok("Edit", file_path=str(f), old_string="X", new_string=r"$& \1 \g<0> $1")
    assert f.read_text() == "name = $& \\1 \\g<0> $1\n"


def test_deleting_a_whole_line_removes_its_newline(h: Harness) -> None:
    f = h.root / "a.txt"
    f.write_text("keep\ndrop me\nkeep too\n")
    read_then(h, f)
    h.ok("Edit", file_path=str(f), old_string="drop me", new_string="")
    assert f.read_text() == "keep\nkeep too\n"


def test_crlf_file_matches_lf_old_string_and_stays_crlf(h: Harness) -> None:
    f = h.root / "w.txt"
    f.write_bytes(b"one\r\ntwo\r\nthree\r\n")
    read_then(h, f)
    h.ok("Edit", file_path=str(f), old_string="one\ntwo", new_string="1\n2\n2.5")
    assert f.read_bytes() == b"1\r\n2\r\n2.5\r\nthree\r\n"


def test_mixed_line_endings_outside_the_edit_are_untouched(h: Harness) -> None:
    f = h.root / "m.txt"
    f.write_bytes(b"a\r\nb\nc\r\nd\n")
    read_then(h, f)
    h.ok("Edit", file_path=str(f), old_string="c", new_string="C")
    assert f.read_bytes() == b"a\r\nb\nC\r\nd\n"


def test_curly_quotes_match_straight_and_new_text_follows_the_file(h: Harness) -> None:
    f = h.root / "q.md"
    f.write_text("He said “hello” and it’s fine.\n")
    read_then(h, f)
    h.ok(
        "Edit",
        file_path=str(f),
        old_string='said "hello" and it\'s',
        new_string='said "goodbye" and it\'s',
    )
    assert f.read_text() == "He said “goodbye” and it’s fine.\n"


def test_straight_quotes_stay_straight_where_the_file_has_them(h: Harness) -> None:
    f = h.root / "q.py"
    f.write_text("s = 'a'\n")
    read_then(h, f)
    h.ok("Edit", file_path=str(f), old_string="'a'", new_string="'b'")
    assert f.read_text() == "s = 'b'\n"


def test_utf8_bom_and_utf16_are_kept(h: Harness) -> None:
    f = h.root / "bom.txt"
    f.write_bytes(b"\xef\xbb\xbfalpha\nbeta\n")
    read_then(h, f)
    h.ok("Edit", file_path=str(f), old_string="beta", new_string="gamma")
    assert f.read_bytes() == b"\xef\xbb\xbfalpha\ngamma\n"
    g = h.root / "u16.txt"
    g.write_bytes(b"\xff\xfe" + "héllo\r\nwörld\r\n".encode("utf-16-le"))
    read_then(h, g)
    h.ok("Edit", file_path=str(g), old_string="wörld", new_string="wéreld")
    assert g.read_bytes() == b"\xff\xfe" + "héllo\r\nwéreld\r\n".encode("utf-16-le")
    b = h.root / "be.txt"
    b.write_bytes(b"\xfe\xff" + "x\n".encode("utf-16-be"))
    read_then(h, b)
    h.ok("Edit", file_path=str(b), old_string="x", new_string="y")
    assert b.read_bytes() == b"\xfe\xff" + "y\n".encode("utf-16-be")


def test_non_utf8_file_is_refused_and_untouched(h: Harness) -> None:
    f = h.root / "latin.txt"
    data = "café\n".encode("latin-1")
    f.write_bytes(data)
    read_then(h, f)
    text = h.err("Edit", file_path=str(f), old_string="caf", new_string="tea")
    assert "not valid UTF-8" in text and "use Bash" in text
    assert f.read_bytes() == data


def test_unencodable_new_string_is_refused(h: Harness) -> None:
    f = h.root / "a.txt"
    f.write_text("x\n")
    read_then(h, f)
    text = h.err("Edit", file_path=str(f), old_string="x", new_string="\ud800")
    assert "Cannot write" in text and f.read_text() == "x\n"


def test_file_over_1_gib_is_too_large(h: Harness) -> None:
    f = h.root / "huge.log"
    with f.open("wb") as out:
        out.truncate((1 << 30) + 1)  # sparse: no real disk use
    text = h.err("Edit", file_path=str(f), old_string="a", new_string="b")
    assert "too large to edit" in text and "sed -i" in text


def test_directory_and_nul_paths_are_refused(h: Harness) -> None:
    assert "is a directory" in h.err("Edit", file_path=str(h.root), old_string="a", new_string="b")
    assert "NUL byte" in h.err("Edit", file_path="/tmp/a\x00", old_string="a", new_string="b")
    assert list(h.root.iterdir()) == []


def test_mode_is_kept_and_symlinks_stay_links(h: Harness) -> None:
    real = h.root / "real.sh"
    real.write_text("echo a\n")
    real.chmod(0o754)
    link = h.root / "link.sh"
    link.symlink_to(real)
    read_then(h, link)
    h.ok("Edit", file_path=str(link), old_string="echo a", new_string="echo b")
    assert link.is_symlink() and real.read_text() == "echo b\n"
    assert stat.S_IMODE(real.stat().st_mode) == 0o754
    assert not [p for p in h.root.iterdir() if p.name.startswith(".hands-tmp-")]


def test_edit_flags() -> None:
    tool = EditTool()
    inp = EditInput(file_path="/x", old_string="a", new_string="b")
    assert not tool.is_read_only(inp) and not tool.is_concurrency_safe(inp)
    assert tool.edits_files
    assert EditInput.model_validate(
        {"file_path": "/x", "old_string": "a", "new_string": "b", "replace_all": "true"}
    ).replace_all


def test_edit_updates_state_so_a_second_edit_needs_no_reread(h: Harness) -> None:
    f = h.root / "a.txt"
    f.write_text("one two\n")
    read_then(h, f)
    h.ok("Edit", file_path=str(f), old_string="one", new_string="1")
    h.ok("Edit", file_path=str(f), old_string="two", new_string="2")
    assert f.read_text() == "1 2\n"
    assert os.listdir(h.root) == ["a.txt"]


def test_huge_inputs_are_not_echoed_back_whole(h: Harness) -> None:
    from hands.core.messages import ToolUseBlock
    from hands.pipeline.execution import run_tool_use

    huge_path = "/" + "a" * 2_000_000
    text = h.err("Read", file_path=huge_path)
    assert len(text) < 2_000 and "(2,000,001 characters)" in text
    f = h.root / "a.txt"
    f.write_text("hello\n")
    h.read(f)
    text = h.err("Edit", file_path=str(f), old_string="b" * 3_000_000, new_string="c")
    assert len(text) < 2_000 and "(3,000,000 characters)" in text
    name = "X" * 1_000_000
    block = ToolUseBlock(id="toolu_big", name=name, input={})

    async def go() -> str:
        outcome = await run_tool_use(block, h.ctx, h.runtime, lambda _: None)
        assert outcome.is_error
        return outcome.block.text

    text = anyio.run(go)
    assert len(text) < 2_000 and "(1,000,000 characters)" in text
