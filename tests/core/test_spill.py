"""The stub a spilled result leaves, and the middle cut of long errors."""

from __future__ import annotations

from pathlib import Path

from hands.core.limits import PREVIEW_BYTES
from hands.core.outcome import truncate_middle
from hands.core.spill import persisted_stub


def preview_of(stub: str) -> str:
    return stub.split(":\n", 2)[-1].rsplit("\n[", 1)[0]


def test_the_preview_ends_at_a_line_boundary(tmp_path: Path) -> None:
    text = "".join(f"row {i:05d} " + "x" * 37 + "\n" for i in range(400))
    stub = persisted_stub(text, tmp_path / "r.txt")
    preview = preview_of(stub)
    assert len(preview.encode()) <= PREVIEW_BYTES
    assert text.startswith(preview + "\n")  # whole lines only, none cut
    shown = len(preview.splitlines())
    assert f"Its first {shown:,} lines:" in stub
    assert f"[{len(text) - len(preview) - 1:,} characters more in the file]" in stub
    assert stub.startswith("<persisted-output>\n") and stub.endswith("\n</persisted-output>")


def test_a_first_line_longer_than_the_preview_is_cut_and_said_so(tmp_path: Path) -> None:
    text = "é" * 5_000 + "\nend\n"
    stub = persisted_stub(text, tmp_path / "r.txt")
    preview = preview_of(stub)
    assert set(preview) == {"é"} and len(preview.encode()) <= PREVIEW_BYTES
    assert f"Its first {len(preview):,} characters (the first line alone is longer)" in stub
    assert f"[{len(text) - len(preview):,} characters more in the file]" in stub
    assert f"This result has {len(text):,} characters" in stub


def test_a_middle_cut_counts_what_it_leaves_out() -> None:
    text = "".join(chr(ord("a") + i % 26) for i in range(1_001))
    for limit in (100, 101):
        cut = truncate_middle(text, limit)
        head, rest = cut.split("\n\n[… ", 1)
        count, tail = rest.split(" characters left out here …]\n\n", 1)
        assert len(head) + len(tail) + int(count.replace(",", "")) == len(text)
        assert text.startswith(head) and text.endswith(tail)
    assert truncate_middle("short", 100) == "short"


def test_the_stub_of_a_text_whose_middle_was_dropped_says_so(tmp_path: Path) -> None:
    whole = "".join(f"line {i}\n" for i in range(5_000))
    stub = persisted_stub(whole, tmp_path / "r.txt")
    assert f"all of it is in {tmp_path / 'r.txt'}" in stub and "middle" not in stub
    cut = persisted_stub(truncate_middle(whole, 20_000), tmp_path / "r.txt")
    dropped = f"{len(whole) - 20_000:,} characters from the middle were dropped"
    assert dropped in cut and "all of it is in" not in cut
