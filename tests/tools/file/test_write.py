"""Write: create, overwrite after a full read, keep mode/encoding/line endings."""

from __future__ import annotations

import os
import stat

from hands.tools.file.write import WriteInput, WriteTool

from .conftest import Harness


def test_create_with_parent_directories(h: Harness) -> None:
    f = h.root / "a" / "b" / "c.txt"
    out = h.ok("Write", file_path=str(f), content="hello\nworld\n")
    assert f.read_text() == "hello\nworld\n"
    assert out.block.text == f"Created {f}."


def test_new_files_get_the_usual_mode(h: Harness) -> None:
    old = os.umask(0o022)
    try:
        f = h.root / "x.txt"
        h.ok("Write", file_path=str(f), content="x")
        assert stat.S_IMODE(f.stat().st_mode) == 0o644
    finally:
        os.umask(old)


def test_overwrite_after_read_keeps_mode_and_reports_a_snippet(h: Harness) -> None:
    f = h.root / "run.sh"
    f.write_text("#!/bin/sh\necho old\n")
    f.chmod(0o750)
    h.read(f)
    out = h.ok("Write", file_path=str(f), content="#!/bin/sh\necho new\n")
    assert f.read_text() == "#!/bin/sh\necho new\n"
    assert stat.S_IMODE(f.stat().st_mode) == 0o750
    assert out.block.text.startswith(f"Saved {f}.") and "2\techo new" in out.block.text


def test_crlf_file_stays_crlf_when_content_uses_lf(h: Harness) -> None:
    f = h.root / "w.txt"
    f.write_bytes(b"a\r\nb\r\n")
    h.read(f)
    h.ok("Write", file_path=str(f), content="c\nd\n")
    assert f.read_bytes() == b"c\r\nd\r\n"


def test_utf16_file_stays_utf16(h: Harness) -> None:
    f = h.root / "u.txt"
    f.write_bytes(b"\xff\xfe" + "a\n".encode("utf-16-le"))
    h.read(f)
    h.ok("Write", file_path=str(f), content="ü\n")
    assert f.read_bytes() == b"\xff\xfe" + "ü\n".encode("utf-16-le")


def test_identical_content_changes_nothing(h: Harness) -> None:
    f = h.root / "same.txt"
    f.write_text("same\n")
    h.read(f)
    before = f.stat().st_mtime_ns
    out = h.ok("Write", file_path=str(f), content="same\n")
    assert "already had this exact content" in out.block.text
    assert f.stat().st_mtime_ns == before


def test_lone_surrogate_content_is_refused(h: Harness) -> None:
    f = h.root / "bad.txt"
    text = h.err("Write", file_path=str(f), content="ok \udc80")
    assert "Cannot write" in text and not f.exists()


def test_directory_targets_are_refused(h: Harness) -> None:
    assert "is a directory" in h.err("Write", file_path=str(h.root), content="x")


def test_write_flags() -> None:
    tool = WriteTool()
    inp = WriteInput(file_path="/x", content="")
    assert not tool.is_read_only(inp) and not tool.is_concurrency_safe(inp) and tool.edits_files


def test_a_path_starting_with_an_unknown_user_home_is_taken_literally(h: Harness) -> None:
    # ``~nosuchuser/x`` names no home: a relative path taken from the cwd, not an exception
    text = h.ok("Write", file_path="~nosuchuser-7f3a/x.txt", content="hi").block.text
    assert "RuntimeError" not in text
    assert (h.root / "~nosuchuser-7f3a" / "x.txt").read_text() == "hi"
