"""Edge inputs where Claude Code's reading is the useful one, through scripted sessions."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.planning.kit import run, use

pytestmark = pytest.mark.anyio


async def test_bash_timeout_zero_is_the_default_limit_not_the_background(
    project: Path,
) -> None:
    (out,) = await run(
        project, [use("Bash", command="echo first; echo second", timeout=0)], mode="acceptEdits"
    )
    assert not out.is_error, out.block.text
    assert out.block.text.startswith("first\nsecond")
    assert out.output.background_task_id is None


async def test_read_takes_a_path_with_a_space_or_newline_at_its_end(project: Path) -> None:
    (project / "notes.txt").write_text("hello\n")
    (project / "other.txt").write_text("hello again\n")
    spaced, newline = await run(
        project,
        [use("Read", file_path=f"{project}/notes.txt "), use("Read", file_path="other.txt\n")],
    )
    for out in (spaced, newline):
        assert not out.is_error, out.block.text
        assert "hello" in out.block.text


async def test_a_text_file_with_one_nul_byte_is_read_as_text_with_a_note(project: Path) -> None:
    (project / "log.txt").write_bytes(b"alpha\nbe\x00ta\ngamma\n")
    (project / "blob.bin").write_bytes(bytes(range(256)) * 8)
    (project / "latin.txt").write_bytes(b"caf\xe9\x00\n")
    text, blob, latin = await run(
        project,
        [
            use("Read", file_path="log.txt"),
            use("Read", file_path="blob.bin"),
            use("Read", file_path="latin.txt"),
        ],
    )
    assert not text.is_error, text.block.text
    assert "alpha" in text.block.text and "gamma" in text.block.text
    assert "be\x00ta" in text.block.text and "NUL bytes" in text.block.text
    assert blob.is_error and "binary" in blob.block.text
    assert latin.is_error and "binary" in latin.block.text  # a NUL and bytes that are not UTF-8
