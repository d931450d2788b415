"""Curly quotes: compared as straight ones, and new text written in the file's style."""

from __future__ import annotations

LEFT_SINGLE, RIGHT_SINGLE = "\u2018", "\u2019"
LEFT_DOUBLE, RIGHT_DOUBLE = "\u201c", "\u201d"
_STRAIGHTEN = str.maketrans(
    {LEFT_SINGLE: "'", RIGHT_SINGLE: "'", LEFT_DOUBLE: '"', RIGHT_DOUBLE: '"'}
)
_CURLY = frozenset((LEFT_SINGLE, RIGHT_SINGLE, LEFT_DOUBLE, RIGHT_DOUBLE))
# After these (or at the start) a quote opens; elsewhere it closes.
_OPENERS = frozenset(" \t\n\r([{<—–-/")


def straighten(text: str) -> str:
    """``text`` with curly quotes made straight; the length is unchanged."""
    return text.translate(_STRAIGHTEN)


def has_curly(text: str) -> bool:
    """Whether ``text`` holds any curly quote."""
    return any(c in _CURLY for c in text)


def curl_like(text: str, region: str) -> str:
    """``text`` with straight quotes curled, for the kinds of quote ``region`` curls."""
    singles = LEFT_SINGLE in region or RIGHT_SINGLE in region
    doubles = LEFT_DOUBLE in region or RIGHT_DOUBLE in region
    if not (singles or doubles):
        return text
    out: list[str] = []
    for i, c in enumerate(text):
        prev = text[i - 1] if i else ""
        opens = not prev or prev in _OPENERS
        if c == '"' and doubles:
            out.append(LEFT_DOUBLE if opens else RIGHT_DOUBLE)
        elif c == "'" and singles:
            # An apostrophe inside a word (it's) is a right single quote.
            out.append(LEFT_SINGLE if opens else RIGHT_SINGLE)
        else:
            out.append(c)
    return "".join(out)
