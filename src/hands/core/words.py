"""Counted words for messages: ``1 file``, ``3 files``."""

from __future__ import annotations


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 file`` / ``3 files``, with thousands separators."""
    return f"{n:,} {word if n == 1 else (words or word + 's')}"
