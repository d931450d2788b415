"""Structured patches: the hunks between two texts, found without diffing whole files."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

CONTEXT_LINES = 3
SNIPPET_MAX_LINES = 40


@dataclass(frozen=True, kw_only=True, slots=True)
class Hunk:
    """One hunk of a unified diff; each line starts with ``' '``, ``'-'`` or ``'+'``."""

    old_start: int
    old_lines: int
    new_start: int
    new_lines: int
    lines: tuple[str, ...]

    @property
    def header(self) -> str:
        """The ``@@ -a,b +c,d @@`` line."""
        return f"@@ -{self.old_start},{self.old_lines} +{self.new_start},{self.new_lines} @@"


def make_patch(old: str, new: str, *, context: int = CONTEXT_LINES) -> tuple[Hunk, ...]:
    """The hunks turning ``old`` into ``new`` (line breaks compared as LF).

    The common head and tail are skipped with string comparisons first, so editing one
    line of a large file diffs only a few lines.
    """
    if old == new:
        return ()
    head = _common_prefix(old, new)
    start = old.rfind("\n", 0, head) + 1
    tail = _common_suffix(old, new, min(len(old), len(new)) - start)
    old_end, new_end = _line_start_in_tail(old, tail), _line_start_in_tail(new, tail)
    before_at = _nth_line_start_back(old, start, context)
    after_old = _nth_line_end(old, old_end, context)
    after_new = _nth_line_end(new, new_end, context)
    first_line = old.count("\n", 0, before_at) + 1
    a = _lines(old[before_at:after_old])
    b = _lines(new[before_at:after_new])
    hunks: list[Hunk] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for group in matcher.get_grouped_opcodes(context):
        lines: list[str] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines.extend(" " + line for line in a[i1:i2])
                continue
            lines.extend("-" + line for line in a[i1:i2])
            lines.extend("+" + line for line in b[j1:j2])
        i_first, i_last = group[0][1], group[-1][2]
        j_first, j_last = group[0][3], group[-1][4]
        old_count, new_count = i_last - i_first, j_last - j_first
        # As in unified diffs, an empty side names the line before the change.
        hunks.append(
            Hunk(
                old_start=first_line + i_first - (old_count == 0),
                old_lines=old_count,
                new_start=first_line + j_first - (new_count == 0),
                new_lines=new_count,
                lines=tuple(lines),
            )
        )
    return tuple(hunks)


def count_changes(hunks: Sequence[Hunk]) -> tuple[int, int]:
    """Lines added and removed."""
    added = sum(1 for h in hunks for line in h.lines if line.startswith("+"))
    removed = sum(1 for h in hunks for line in h.lines if line.startswith("-"))
    return added, removed


def snippet(hunks: Sequence[Hunk], *, max_lines: int = SNIPPET_MAX_LINES) -> str:
    """The new side of each hunk in ``cat -n`` form, for the model's confirmation."""
    out: list[str] = []
    shown = 0
    for index, hunk in enumerate(hunks):
        if index:
            out.append("...")
        number = hunk.new_start
        for line in hunk.lines:
            if line.startswith("-"):
                continue
            if shown == max_lines:
                out.append(f"... (snippet cut at {max_lines} lines)")
                return "\n".join(out)
            out.append(f"{number}\t{line[1:]}")
            number += 1
            shown += 1
    return "\n".join(out)


def unified_text(hunks: Sequence[Hunk], *, name: str) -> str:
    """The hunks as a unified diff, with ``name`` on both file lines."""
    out = [f"--- {name}", f"+++ {name}"]
    for hunk in hunks:
        out.append(hunk.header)
        out.extend(hunk.lines)
    return "\n".join(out)


def _lines(segment: str) -> list[str]:
    lines = segment.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


_BLOCK = 1 << 16


def _common_prefix(a: str, b: str) -> int:
    # Whole blocks first (each comparison a memcmp), then a binary search in the last one.
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i : i + _BLOCK] == b[i : i + _BLOCK]:
        i += _BLOCK
    if i >= n:
        return n
    lo, hi = i, min(i + _BLOCK, n)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[i:mid] == b[i:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: str, b: str, limit: int) -> int:
    """Length of the common tail of ``a`` and ``b``, at most ``limit``."""
    la, lb = len(a), len(b)
    k = 0
    while k < limit:
        step = min(_BLOCK, limit - k)
        if a[la - k - step : la - k] != b[lb - k - step : lb - k]:
            break
        k += step
    if k >= limit:
        return limit
    lo, hi = k, min(k + _BLOCK, limit)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[la - mid : la - k] == b[lb - mid : lb - k]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _line_start_in_tail(text: str, tail: int) -> int:
    """The first line start inside the common tail (so the tail holds whole lines)."""
    begin = len(text) - tail
    if begin == 0 or text[begin - 1] == "\n":
        return begin
    at = text.find("\n", begin)
    return len(text) if at == -1 else at + 1


def _nth_line_start_back(text: str, at: int, n: int) -> int:
    for _ in range(n):
        if at == 0:
            break
        at = text.rfind("\n", 0, at - 1) + 1
    return at


def _nth_line_end(text: str, at: int, n: int) -> int:
    for _ in range(n):
        if at >= len(text):
            break
        found = text.find("\n", at)
        at = len(text) if found == -1 else found + 1
    return at
