"""Streaming line windows: read lines X..Y of any size of file in flat memory.

Newlines are counted in large binary chunks (``bytes.count`` runs at memory speed), so
reaching line 10,000,000 of a 1 GB file reads it once and keeps one chunk in memory.
Chunk boundaries seen on the way are remembered per file, so paging on is quick.
"""

from __future__ import annotations

import io
from bisect import bisect_left
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from hands.tools.file._encoding import sniff_encoding
from hands.tools.file._limits import MAX_LINE_CHARS
from hands.tools.file._state import FileStamp

CHUNK_BYTES = 1 << 20
COUNT_REST_LIMIT = 64 << 20
"""After the window, the rest of the file is counted only when at most this large."""
PSEUDO_FILE_LIMIT = 16 << 20
"""How much of a file that reports size 0 (``/proc``, ``/sys``) is read: such files
cannot seek to their end, so their text is read into memory, up to this much."""


@dataclass(frozen=True, kw_only=True, slots=True)
class TextWindow:
    """Some consecutive lines of a text file and what is known about the rest."""

    lines: tuple[str, ...]
    start_line: int
    total_lines: int | None
    """None when the file goes on too far past the window to count cheaply."""
    bytes_after: int
    """Bytes of the file after the window."""
    capped: bool
    """The character cap stopped the window before ``limit`` lines."""
    cut_lines: int
    """Lines shortened to MAX_LINE_CHARS."""
    replaced: bool
    """Some bytes were not valid in the file's encoding and show as U+FFFD."""
    encoding: str


@dataclass(kw_only=True)
class LineIndex:
    """Checkpoints of one file version: (newlines before byte offset, offset)."""

    stamp: FileStamp
    newlines: list[int] = field(default_factory=lambda: [0])
    offsets: list[int] = field(default_factory=lambda: [0])

    def nearest(self, newlines_needed: int) -> tuple[int, int]:
        """The last checkpoint with fewer newlines before it than ``newlines_needed``."""
        i = bisect_left(self.newlines, newlines_needed) - 1
        if i < 0:
            return 0, 0
        return self.newlines[i], self.offsets[i]

    def add(self, newlines: int, offset: int) -> None:
        """Remember that ``newlines`` line breaks precede byte ``offset``."""
        if offset > self.offsets[-1]:
            self.newlines.append(newlines)
            self.offsets.append(offset)


class LineIndexes:
    """The session's line indexes, one per file, dropped when the file changes."""

    def __init__(self) -> None:
        self._by_path: dict[Path, LineIndex] = {}

    def for_file(self, path: Path, stamp: FileStamp) -> LineIndex:
        """The index of ``path`` as it is now (a fresh one if the file changed)."""
        found = self._by_path.get(path)
        if found is None or found.stamp != stamp:
            found = LineIndex(stamp=stamp)
            self._by_path[path] = found
        return found


def read_window(
    path: Path,
    *,
    start: int,
    limit: int,
    max_chars: int,
    line_chars: int = MAX_LINE_CHARS,
    index: LineIndex | None = None,
) -> TextWindow:
    """Lines ``start`` .. ``start + limit - 1`` (1-based) of ``path``, within ``max_chars``.

    Lines longer than ``line_chars`` are cut with a marker.
    """
    with path.open("rb", buffering=CHUNK_BYTES) as raw:
        f: BinaryIO = raw
        if path.stat().st_size == 0:
            # a pseudo-file generates its text as it is read and says it is empty
            f = io.BytesIO(raw.read(PSEUDO_FILE_LIMIT))
        head = f.read(4)
        encoding = sniff_encoding(head)
        if encoding.codec.startswith("utf-16"):
            return _read_utf16(
                path,
                encoding.codec,
                start=start,
                limit=limit,
                max_chars=max_chars,
                line_chars=line_chars,
            )
        f.seek(0)
        return _read_bytes(
            f,
            bom=len(encoding.bom),
            label=encoding.label,
            start=start,
            limit=limit,
            max_chars=max_chars,
            line_chars=line_chars,
            index=index or LineIndex(stamp=FileStamp(size=-1, mtime_ns=0)),
        )


def _read_bytes(
    f: BinaryIO,
    *,
    bom: int,
    label: str,
    start: int,
    limit: int,
    max_chars: int,
    line_chars: int,
    index: LineIndex,
) -> TextWindow:
    size = f.seek(0, io.SEEK_END)
    newlines, pos = index.nearest(start - 1)
    pos = max(pos, bom)
    f.seek(pos)
    # Skip to the start of line ``start``: ``start - 1`` line breaks must lie behind us.
    while newlines < start - 1:
        chunk = f.read(CHUNK_BYTES)
        if not chunk:
            ends_open = size > bom and _last_byte(f, size) != b"\n"
            total = newlines + (1 if ends_open else 0)
            return _past_end(total, start, label)
        found = chunk.count(b"\n")
        if newlines + found < start - 1:
            newlines += found
            pos += len(chunk)
            index.add(newlines, pos)
            continue
        at = -1
        for _ in range(start - 1 - newlines):
            at = chunk.index(b"\n", at + 1)
        pos += at + 1
        newlines = start - 1
    f.seek(pos)

    lines: list[str] = []
    used = 0
    cut = 0
    capped = False
    replaced = False
    eof = False
    max_bytes = line_chars * 4 + 4
    while len(lines) < limit:
        line_start = f.tell()
        raw = f.readline(max_bytes)
        if not raw:
            eof = True
            break
        length = len(raw)
        if not raw.endswith(b"\n") and len(raw) == max_bytes:
            length += _skip_rest_of_line(f)
        text = raw.decode("utf-8", errors="replace")
        replaced = replaced or "\ufffd" in text
        text = text.rstrip("\n").removesuffix("\r")
        if len(text) > line_chars:
            cut += 1
            text = text[:line_chars] + f"… [line cut: {length:,} bytes in all]"
        cost = len(str(start + len(lines))) + len(text) + 2
        if lines and used + cost > max_chars:
            f.seek(line_start)
            capped = True
            break
        used += cost
        lines.append(text)
    after = f.tell()
    if not eof and after >= size:
        eof = True
    total: int | None
    if eof:
        total = start - 1 + len(lines)
    elif size - after <= COUNT_REST_LIMIT:
        total = start - 1 + len(lines) + _count_rest(f, size)
    else:
        total = None
    return TextWindow(
        lines=tuple(lines),
        start_line=start,
        total_lines=total,
        bytes_after=size - after,
        capped=capped,
        cut_lines=cut,
        replaced=replaced,
        encoding=label,
    )


def _skip_rest_of_line(f: BinaryIO) -> int:
    skipped = 0
    while True:
        part = f.readline(CHUNK_BYTES)
        skipped += len(part)
        if not part or part.endswith(b"\n"):
            return skipped


def _count_rest(f: BinaryIO, size: int) -> int:
    """Lines from the current position to the end (a last line without break counts)."""
    count = 0
    last = b""
    while chunk := f.read(CHUNK_BYTES):
        count += chunk.count(b"\n")
        last = chunk[-1:]
    return count + (1 if last and last != b"\n" else 0)


def _last_byte(f: BinaryIO, size: int) -> bytes:
    f.seek(size - 1)
    return f.read(1)


def _past_end(total: int, start: int, label: str) -> TextWindow:
    return TextWindow(
        lines=(),
        start_line=start,
        total_lines=total,
        bytes_after=0,
        capped=False,
        cut_lines=0,
        replaced=False,
        encoding=label,
    )


def _read_utf16(
    path: Path, codec: str, *, start: int, limit: int, max_chars: int, line_chars: int
) -> TextWindow:
    """UTF-16 cannot be split on a newline byte; decode as a stream instead."""
    lines: list[str] = []
    used = 0
    cut = 0
    capped = False
    number = 0
    with path.open("r", encoding=codec, errors="replace", newline="\n") as f:
        f.read(1)  # the BOM, which the -le/-be codecs leave in
        while True:
            text = f.readline(line_chars + 1)
            if not text:
                break
            if not text.endswith("\n") and len(text) > line_chars:
                while (rest := f.readline(CHUNK_BYTES)) and not rest.endswith("\n"):
                    pass
                text = text[:line_chars] + "… [line cut]"
                cut += 1
            number += 1
            if number < start or capped or len(lines) >= limit:
                continue
            text = text.rstrip("\n").removesuffix("\r")
            cost = len(str(number)) + len(text) + 2
            if lines and used + cost > max_chars:
                capped = True
                continue
            used += cost
            lines.append(text)
    return TextWindow(
        lines=tuple(lines),
        start_line=start,
        total_lines=number,
        bytes_after=0,
        capped=capped,
        cut_lines=cut,
        replaced=False,
        encoding=codec.upper() + " with BOM",
    )
