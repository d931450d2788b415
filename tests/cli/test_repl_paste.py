"""Collapsed pastes: which collapse, how they are numbered, and what a line sends."""

from __future__ import annotations

from pathlib import Path

from hands.cli.repl_paste import MAX_INLINE_CHARS, MAX_INLINE_LINES, PasteHistory, Pastes


def test_small_pastes_stay_and_large_ones_are_numbered_placeholders() -> None:
    pastes = Pastes()
    short = "\n".join(["a"] * MAX_INLINE_LINES)
    assert pastes.add(short) == short
    assert pastes.add("y" * MAX_INLINE_CHARS) == "y" * MAX_INLINE_CHARS
    assert pastes.add("a\nb\nc\nd\n") == "[Pasted text #1 +4 lines]"
    assert pastes.add("z" * (MAX_INLINE_CHARS + 1)) == "[Pasted text #2]"
    line = "see [Pasted text #1 +4 lines] and [Pasted text #2]!"
    assert pastes.expand(line) == "see a\nb\nc\nd\n and " + "z" * (MAX_INLINE_CHARS + 1) + "!"


def test_a_broken_or_unknown_placeholder_is_sent_as_typed() -> None:
    pastes = Pastes()
    pastes.add("1\n2\n3\n4\n5")
    assert pastes.expand("[Pasted text #1 +5 line]") == "[Pasted text #1 +5 line]"
    assert pastes.expand("[Pasted text #1 +4 lines]") == "[Pasted text #1 +4 lines]"
    assert pastes.expand("[Pasted text #7]") == "[Pasted text #7]"
    assert Pastes().expand("[Pasted text #1 +5 lines]") == "[Pasted text #1 +5 lines]"


def test_the_history_keeps_the_line_with_its_pastes(tmp_path: Path) -> None:
    pastes = Pastes()
    shown = pastes.add("one\ntwo\nthree\nfour")
    history = PasteHistory(str(tmp_path / "history"), pastes)
    history.append_string(f"look {shown}")
    again = PasteHistory(str(tmp_path / "history"), Pastes())
    assert list(again.load_history_strings()) == ["look one\ntwo\nthree\nfour"]


def test_the_same_paste_again_after_its_placeholder_expands_it() -> None:
    pastes = Pastes()
    text = "a\nb\nc\nd"
    shown = pastes.add(text)
    assert pastes.pasted(text, f"look {shown}") == (len(shown), text)  # expanded in place
    assert pastes.pasted(text, f"{shown} and") == (0, "[Pasted text #2 +4 lines]")  # not after it
    assert pastes.pasted("other\n1\n2\n3", "[Pasted text #2 +4 lines]")[0] == 0
    assert pastes.pasted("x", "") == (0, "x")
