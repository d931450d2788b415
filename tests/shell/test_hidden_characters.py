"""``hidden_character``: which characters a command may not carry, and how each is named."""

from __future__ import annotations

import pytest

from hands.shell.characters import hidden_character


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("a\rb", "U+000D"),
        ("a\x1bb", "U+001B"),
        ("a\x7fb", "U+007F"),
        ("a\u0085b", "U+0085"),
        ("a\u2028b", "U+2028 LINE SEPARATOR"),
        ("a\u2029b", "U+2029 PARAGRAPH SEPARATOR"),
        ("a\u200bb", "U+200B ZERO WIDTH SPACE"),
        ("a\u200db", "U+200D ZERO WIDTH JOINER"),
        ("a\ufeffb", "U+FEFF"),
        ("a\u202eb", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("a\u2066b", "U+2066"),
        ("a\u00adb", "U+00AD SOFT HYPHEN"),
        ("ls\u00a0-la", "U+00A0 NO-BREAK SPACE"),
        ("a\u3000b", "U+3000 IDEOGRAPHIC SPACE"),
        ("a\ue000b", "U+E000"),
    ],
)
def test_each_hidden_character_is_named_with_its_position(text: str, named: str) -> None:
    found = hidden_character(text)
    position = next(i for i, ch in enumerate(text) if not (ch.isascii() and ch.isprintable()))
    assert found is not None and found.startswith(named)
    assert found.endswith(f"at position {position}")


@pytest.mark.parametrize(
    "text",
    [
        "ls -la",
        "echo 'a\tb'",
        "cat <<EOF\nx\nEOF",
        "echo héllo wörld",
        "echo 日本語",
        "echo 🙂",
        "",
    ],
)
def test_ordinary_text_tabs_newlines_and_letters_pass(text: str) -> None:
    assert hidden_character(text) is None


def test_the_first_hidden_character_is_reported() -> None:
    assert hidden_character("ok\u200bthen\rend") == "U+200B ZERO WIDTH SPACE at position 2"
