"""Characters a command must not contain: those an approval dialog or a log would not show.

A carriage return can overwrite the start of a displayed line, line and paragraph
separators break it where no newline is visible, and zero-width or other non-printing
characters hide text from whoever reads the command. Tabs and newlines are ordinary.
"""

from __future__ import annotations

import unicodedata

_ALLOWED_CONTROLS = frozenset("\t\n")
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
_ODD_SPACES = frozenset({"Zs"})
"""Spaces other than the ASCII one (no-break, em...): bash does not split words on them."""


def hidden_character(text: str) -> str | None:
    """A description of the first non-printing character in ``text``, or None."""
    if text.isascii() and text.isprintable():
        return None  # the common case, without a per-character loop
    for index, ch in enumerate(text):
        if ch in _ALLOWED_CONTROLS:
            continue
        category = unicodedata.category(ch)
        if category in _HIDDEN_CATEGORIES or (category in _ODD_SPACES and ch != " "):
            name = unicodedata.name(ch, "")
            label = f"U+{ord(ch):04X}" + (f" {name}" if name else "")
            return f"{label} at position {index}"
    return None


__all__ = ["hidden_character"]
