"""Literal string replacement that forgives CRLF and curly quotes in the match.

Matching works on a view of the text with CRLF as LF and curly quotes straight; the
replacement is then applied to the original text, so every byte outside the matched
spans stays as it was (mixed line endings included). New text takes the line-ending
style of the place it goes, and the file's curly-quote style when the match needed it.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

from hands.core.outcome import echo
from hands.tools.file._encoding import dominant_newline
from hands.tools.file._quotes import curl_like, has_curly, straighten


@dataclass(frozen=True, kw_only=True, slots=True)
class EditSpec:
    """One replacement: ``old_string`` → ``new_string``, once or everywhere."""

    old_string: str
    new_string: str
    replace_all: bool = False


class EditError(ValueError):
    """An edit that cannot be applied; the message tells the model what to do."""


_LINE_PREFIX = re.compile(r"^\s*\d+(\t|\u2192)", re.MULTILINE)


def apply_edit(text: str, spec: EditSpec) -> tuple[str, int]:
    """``text`` with ``spec`` applied, and the number of replacements made."""
    old = spec.old_string.replace("\r\n", "\n")
    new = spec.new_string.replace("\r\n", "\n")
    if not old:
        raise EditError("old_string is empty; an empty old_string only creates a new file.")
    view, crlf_at = _lf_view(text)
    spans = _find(view, old)
    curled = False
    if not spans and (has_curly(view) or has_curly(old)):
        spans = _find(straighten(view), straighten(old))
        curled = bool(spans)
    if not spans:
        raise EditError(not_found_message(spec.old_string, view))
    if len(spans) > 1 and not spec.replace_all:
        raise EditError(
            f"old_string occurs {len(spans)} times in the file and replace_all is not set, "
            "so it is unclear which one to change. Set replace_all to true to change all of "
            "them, or widen old_string with neighbouring lines until it is unique."
            f"\nold_string: {spec.old_string}"
        )
    dominant = dominant_newline(text)
    pieces: list[str] = []
    cursor = 0
    for start, end in spans:
        if not new and not old.endswith("\n") and view.startswith("\n", end):
            end += 1  # deleting a whole line takes its line break with it
        raw_start = start + bisect_left(crlf_at, start)
        raw_end = end + bisect_left(crlf_at, end)
        replacement = curl_like(new, view[start:end]) if curled else new
        newline = _newline_at(text, raw_start, raw_end, dominant)
        if newline == "\r\n":
            replacement = replacement.replace("\n", "\r\n")
        pieces.append(text[cursor:raw_start])
        pieces.append(replacement)
        cursor = raw_end
    pieces.append(text[cursor:])
    return "".join(pieces), len(spans)


def _lf_view(text: str) -> tuple[str, list[int]]:
    """``text`` with CRLF as LF, and where each former CRLF sits in that view."""
    if "\r" not in text:  # one-character search: much faster than looking for "\r\n"
        return text, []
    positions = [m.start() - i for i, m in enumerate(re.finditer("\r\n", text))]
    return text.replace("\r\n", "\n"), positions


def _find(haystack: str, needle: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    at = haystack.find(needle)
    while at != -1:
        spans.append((at, at + len(needle)))
        at = haystack.find(needle, at + len(needle))
    return spans


def _newline_at(text: str, start: int, end: int, dominant: str) -> str:
    region = text[start:end]
    if "\n" in region:
        return "\r\n" if "\r\n" in region else "\n"
    after = text.find("\n", end)
    if after > 0:
        return "\r\n" if text[after - 1] == "\r" else "\n"
    return dominant


def not_found_message(old_string: str, view: str) -> str:
    """Why ``old_string`` was not found, with a hint at the likely cause."""
    text = f"old_string does not occur in the file.\nold_string: {echo(old_string)}"
    if _LINE_PREFIX.search(old_string) and not _LINE_PREFIX.search(view):
        return text + (
            "\nold_string seems to include the line-number prefixes of Read's output; "
            "send only the file's own text, without the number and tab."
        )
    first = next((line.strip() for line in old_string.splitlines() if line.strip()), "")
    if first:
        at = straighten(view).find(straighten(first))
        if at != -1:
            line = view.count("\n", 0, at) + 1
            return text + (
                f"\nIts first line does appear at line {line}; the lines around it or their "
                "indentation differ. Read that region again and copy old_string exactly."
            )
    return text + "\nRead the file again and copy old_string exactly, whitespace included."
