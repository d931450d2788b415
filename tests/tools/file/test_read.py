"""Read on real files: text windows, notices, refusals and the unchanged stub."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hands.tools.file._limits import MAX_LINE_CHARS, MAX_READ_CHARS
from hands.tools.file.read import ReadInput, ReadTool

from .conftest import Harness


def numbered(lines: list[str], start: int = 1) -> str:
    return "\n".join(f"{start + i}\t{line}" for i, line in enumerate(lines))


def test_text_comes_back_in_cat_n_form(h: Harness) -> None:
    f = h.root / "a.py"
    f.write_text("import os\n\nprint(os.sep)\n")
    assert h.read(f) == numbered(["import os", "", "print(os.sep)"])


def test_last_line_without_newline_and_crlf_are_shown_clean(h: Harness) -> None:
    f = h.root / "a.txt"
    f.write_bytes(b"one\r\ntwo\r\nthree")
    assert h.read(f) == numbered(["one", "two", "three"])


def test_offset_and_limit_page_through_with_a_hint(h: Harness) -> None:
    f = h.root / "n.txt"
    f.write_text("".join(f"line {i}\n" for i in range(1, 101)))
    text = h.read(f, offset=10, limit=3)
    assert text.startswith(numbered(["line 10", "line 11", "line 12"], start=10))
    assert "Showing lines 10-12 of 100. Continue with offset=13." in text


def test_offset_zero_is_taken_as_the_first_line(h: Harness) -> None:
    f = h.root / "n.txt"
    f.write_text("a\nb\n")
    assert h.read(f, offset=0).startswith("1\ta")


def test_no_line_window_by_default_the_character_cap_bounds_a_result(h: Harness) -> None:
    f = h.root / "big.txt"
    f.write_text("".join(f"{i}\n" for i in range(1, 6001)))
    text = h.read(f)
    assert text.endswith("6000\t6000")
    limited = h.read(f, offset=10, limit=5)
    assert limited.endswith("14\t14\n\n[Showing lines 10-14 of 6,000. Continue with offset=15.]")


def test_long_lines_are_cut_with_a_marker(h: Harness) -> None:
    f = h.root / "wide.txt"
    f.write_text("x" * 5000 + "\nshort\n")
    text = h.read(f)
    first = text.splitlines()[0]
    assert first.startswith("1\t" + "x" * MAX_LINE_CHARS + "… [line cut: 5,001 bytes in all]")
    assert "2\tshort" in text
    assert "1 line ran past 2,000 characters" in text and "allow_large=true" in text


def test_character_cap_gives_a_partial_view_that_says_how_to_go_on(h: Harness) -> None:
    f = h.root / "cap.txt"
    f.write_text("".join(f"{i:05d} " + "y" * 150 + "\n" for i in range(1, 1500)))
    text = h.read(f)
    assert len(text) < MAX_READ_CHARS + 500
    assert "Cut short at 100,000 characters: this shows lines 1-" in text
    last = int(text.split("this shows lines 1-")[1].split(" ")[0])
    assert f"Read again with offset={last + 1}" in text
    assert f"{last}\t{last:05d}" in text


def test_empty_file_gets_a_notice(h: Harness) -> None:
    f = h.root / "empty.txt"
    f.write_text("")
    assert "holds no text at all (zero lines)" in h.read(f)


def test_offset_past_the_end_gives_the_line_count(h: Harness) -> None:
    f = h.root / "short.txt"
    f.write_text("a\nb\nc\n")
    text = h.read(f, offset=50)
    assert "Nothing at offset 50" in text and "ends after 3 lines" in text
    f.write_text("a\nb")
    assert "ends after 2 lines" in h.read(f, offset=9)


def test_unchanged_reread_is_a_stub_until_the_file_changes(h: Harness) -> None:
    f = h.root / "s.txt"
    f.write_text("alpha\n")
    assert h.read(f) == "1\talpha"
    assert "has not changed since you last read it" in h.read(f)
    # a different range is a different view
    assert h.read(f, offset=1, limit=5) == "1\talpha"
    f.write_text("beta\n")
    assert h.read(f, offset=1, limit=5) == "1\tbeta"


def test_missing_file_says_so_with_cwd_and_a_suggestion(h: Harness) -> None:
    (h.root / "config.yaml").write_text("x: 1\n")
    text = h.err("Read", file_path=str(h.root / "config.yml"))
    assert f"No file at {h.root / 'config.yml'}" in text
    assert f"(the working directory is {h.root})" in text
    assert f"Did you mean {h.root / 'config.yaml'}?" in text


def test_nul_paths_are_refused(h: Harness) -> None:
    assert "NUL byte" in h.err("Read", file_path=str(h.root) + "/a\x00b")


def test_directory_device_and_fifo_are_refused(h: Harness) -> None:
    assert "is a folder; Read opens files only" in h.err("Read", file_path=str(h.root))
    assert "not a regular file" in h.err("Read", file_path="/dev/zero")
    fifo = h.root / "pipe"
    os.mkfifo(fifo)
    assert "not a regular file" in h.err("Read", file_path=str(fifo))


def test_binary_file_is_refused_with_what_to_do(h: Harness) -> None:
    f = h.root / "blob.dat"
    f.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4)
    text = h.err("Read", file_path=str(f))
    assert "appears to be a binary file" in text and "xxd" in text


def test_invalid_utf8_is_shown_with_replacement_characters(h: Harness) -> None:
    f = h.root / "latin.txt"
    f.write_bytes("café\n".encode("latin-1"))
    text = h.read(f)
    assert text.startswith("1\tcaf\ufffd")
    assert "not valid UTF-8" in text


def test_utf16_and_bom_files_read_as_text(h: Harness) -> None:
    f = h.root / "u16.txt"
    f.write_bytes("\ufeffhé\r\nwörld\r\n".encode("utf-16-le"))
    assert h.read(f) == numbered(["hé", "wörld"])
    g = h.root / "bom.txt"
    g.write_bytes(b"\xef\xbb\xbfone\ntwo\n")
    assert h.read(g) == numbered(["one", "two"])


def test_pages_on_a_text_file_is_ignored_with_a_note(h: Harness) -> None:
    f = h.root / "a.txt"
    f.write_text("x\n")
    text = h.read(f, pages="1")
    assert text.startswith("1\tx\n\n[pages='1' was ignored: it selects PDF pages")


def test_read_is_read_only_and_concurrency_safe() -> None:
    tool = ReadTool()
    inp = ReadInput(file_path="/x")
    assert tool.is_read_only(inp) and tool.is_concurrency_safe(inp)
    assert tool.max_result_chars is None
    assert ReadInput.model_validate({"file_path": "/x", "offset": "5"}).offset == 5


def test_read_of_text_does_not_import_heavy_libraries(tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    f.write_text("hi\n")
    script = f"""
import sys, anyio
from pathlib import Path
from hands.core.context import ToolContext
from hands.pipeline.pool import all_base_tools
from hands.tools.file.read import ReadTool, ReadInput
all_base_tools()
tool = ReadTool()
out = anyio.run(tool.call, ReadInput(file_path={str(f)!r}), ToolContext(cwd=Path('/')), print)
assert tool.to_content(out.output) == '1\\thi'
heavy = [m for m in ("pypdf", "PIL", "nbformat") if m in sys.modules]
print(heavy)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.slow
def test_memory_stays_flat_deep_in_a_large_file(tmp_path: Path) -> None:
    f = tmp_path / "large.txt"
    line = b"0123456789" * 9 + b"abcdefghi\n"  # 100 bytes
    with f.open("wb") as out:
        block = line * 10_000
        for _ in range(200):  # 200 MB, 2,000,000 lines
            out.write(block)
    script = f"""
import resource, anyio
from pathlib import Path
from hands.core.context import ToolContext
from hands.tools.file.read import ReadTool, ReadInput
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tool = ReadTool()
inp = ReadInput(file_path={str(f)!r}, offset=1_999_901, limit=100)
out = anyio.run(tool.call, inp, ToolContext(cwd=Path('/')), print)
text = tool.to_content(out.output)
assert text.startswith('1999901\\t0123'), text[:50]
assert '2000000\\t' in text
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((peak - base) // 1024)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    grown_mb = int(done.stdout.strip())
    assert grown_mb < 40, f"peak RSS grew by {grown_mb} MB reading a 200 MB file"


def test_pseudo_files_that_report_size_zero_are_read_as_text(h: Harness) -> None:
    status = Path("/proc/self/status")
    assert status.stat().st_size == 0  # what makes it a pseudo-file
    text = h.ok("Read", file_path=str(status), limit=2).block.text
    assert "1\tName:" in text
    assert "Continue with offset=3" in text
    cpuinfo = h.ok("Read", file_path="/proc/cpuinfo").block.text
    assert "processor" in cpuinfo


def test_a_real_empty_file_is_still_reported_empty(h: Harness) -> None:
    (h.root / "empty.txt").write_text("")
    text = h.ok("Read", file_path=str(h.root / "empty.txt")).block.text
    assert "empty" in text.lower()


def test_allow_large_lifts_the_caps_within_a_hard_bound(h: Harness) -> None:
    f = h.root / "big.txt"
    f.write_text("w" * 5_000 + "\n" + "".join(f"{i:05d} {'y' * 40}\n" for i in range(3_000)))
    capped = h.read(f)
    assert "Cut short at 100,000 characters" in capped and "allow_large=true" in capped
    whole = h.ok("Read", file_path=str(f), allow_large=True).block.text
    assert whole.startswith("1\t" + "w" * 5_000 + "\n")
    assert whole.endswith("3001\t02999 " + "y" * 40) and "Cut short" not in whole
    huge = h.root / "huge.txt"
    huge.write_text(("z" * 99 + "\n") * 12_000)
    text = h.ok("Read", file_path=str(huge), allow_large=True).block.text
    assert "Cut short at 1,000,000 characters" in text and len(text) < 1_001_000


def test_a_file_that_fails_to_read_is_an_error_saying_so(h: Harness) -> None:
    # /proc/self/mem refuses reads at an unmapped offset (EIO): no bare exception text
    text = h.err("Read", file_path="/proc/self/mem", offset=10**15)
    assert "Reading /proc/self/mem failed" in text and "OSError" not in text


@pytest.mark.parametrize("path", ["\ud800", "ok\udfffok"])
def test_a_path_that_is_not_valid_unicode_is_a_plain_error(h: Harness, path: str) -> None:
    text = h.err("Read", file_path=path)
    assert "lone surrogate" in text and "UnicodeEncodeError" not in text
