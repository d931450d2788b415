"""What Read does when it runs: a file's kind sniffed, then read as text, image, PDF or notebook."""

from __future__ import annotations

import base64
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from hands.errors import ToolError
from hands.tools.file._inspect_path import stat_regular
from hands.tools.file._limits import (
    DEFAULT_LINES,
    LARGE_READ_CHARS,
    MAX_LINE_CHARS,
    MAX_NOTEBOOK_BYTES,
    MAX_READ_CHARS,
    PDF_DOCUMENT_MAX_BYTES,
    PDF_MAX_PAGES_PER_CALL,
    PDF_PAGES_WITHOUT_RANGE,
)
from hands.tools.file._read_outputs import (
    EmptyRead,
    ImageRead,
    NotebookRead,
    PdfRead,
    ReadOutput,
    TextRead,
    UnchangedRead,
)
from hands.tools.file._sniff import SNIFF_BYTES, image_type, sniff
from hands.tools.file._state import FileStamp, ReadKind, ReadRecord, digest_file
from hands.tools.file._text_reader import LineIndex, LineIndexes, read_window

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.tools.file.read import ReadInput


@dataclass(frozen=True, kw_only=True, slots=True)
class ReadDone:
    """What one read returns, and the record of it for the read-state cache."""

    output: ReadOutput
    record: ReadRecord | None


def read_file(
    path: Path,
    key: Path,
    input: ReadInput,
    ctx: ToolContext,
    previous: ReadRecord | None,
    indexes: LineIndexes,
) -> ReadDone:
    """Read ``path`` (its real path ``key``) as ``input`` asks; ``previous``: its last read."""
    st = stat_regular(path, ctx)
    if isinstance(st, str):
        raise ToolError(st)
    stamp = FileStamp.of(st)
    with path.open("rb") as f:
        head = f.read(SNIFF_BYTES)
    kind = sniff(head)
    # An offset or limit asks for the raw JSON lines, e.g. of a notebook too big to show.
    is_notebook = (
        path.suffix.lower() == ".ipynb"
        and kind == "text"
        and input.offset is None
        and input.limit is None
    )
    if input.pages is not None and kind not in ("pdf", "text"):
        raise ToolError(
            f"pages only applies to PDF files, and {path} is not a PDF. Use offset and limit "
            "to read part of a text file."
        )
    view: tuple[object, ...] = (input.offset or 1, input.limit, input.pages, input.allow_large)
    if (
        previous is not None
        and previous.by_read
        and previous.kind != "partial"
        and previous.view == view
        and previous.stamp == stamp
        and kind != "image"
    ):
        return ReadDone(output=UnchangedRead(file_path=str(path), what=_what(input)), record=None)
    if kind == "binary":
        raise ToolError(
            f"{path} appears to be a binary file (it has NUL bytes near the start). Read shows "
            "text, images (PNG, JPEG, GIF, WebP), PDFs and notebooks. Inspect it with Bash "
            f"instead, e.g. `file {path}` or `xxd {path} | head`."
        )
    output: ReadOutput
    read_kind: ReadKind
    if kind == "image":
        output, read_kind = _image(path, head), "full"
    elif kind == "pdf":
        output, read_kind = _pdf(path, input)
    elif is_notebook:
        output, read_kind = _notebook(path, st.st_size, _caps(input)[2])
    else:
        output, read_kind = _text(path, input, indexes.for_file(key, stamp))
        if input.pages is not None and isinstance(output, TextRead):
            note = f"pages={input.pages!r} was ignored: it selects PDF pages, and this is a " + (
                "text file, read by lines (offset and limit)."
            )
            output = replace(output, notes=(*output.notes, note))
        if isinstance(output, TextRead) and any("\x00" in line for line in output.lines):
            note = (
                "This text file holds NUL bytes (each shown as the character U+0000); the "
                "rest reads as text."
            )
            output = replace(output, notes=(*output.notes, note))
    digest = digest_file(path, st.st_size)
    if FileStamp.of(path.stat()) != stamp:
        read_kind = "partial"  # changed while we read: what was seen may not match the hash
    record = ReadRecord(path=key, stamp=stamp, digest=digest, kind=read_kind, view=view)
    return ReadDone(output=output, record=record)


def _what(input: ReadInput) -> str:
    if input.pages:
        return f"pages {input.pages}"
    if input.offset or input.limit:
        first = max(input.offset or 1, 1)
        return f"lines from {first}" + (f", limit {input.limit}" if input.limit else "")
    return "the whole default view"


def _caps(input: ReadInput) -> tuple[int, int, int]:
    """Default lines, characters per line and characters in all for this call."""
    if input.allow_large:
        return LARGE_READ_CHARS, LARGE_READ_CHARS, LARGE_READ_CHARS
    return DEFAULT_LINES, MAX_LINE_CHARS, MAX_READ_CHARS


def _text(path: Path, input: ReadInput, index: LineIndex) -> tuple[ReadOutput, ReadKind]:
    start = max(input.offset or 1, 1)
    default_lines, line_chars, max_chars = _caps(input)
    limit = input.limit or default_lines
    window = read_window(
        path, start=start, limit=limit, max_chars=max_chars, line_chars=line_chars, index=index
    )
    if not window.lines:
        total = window.total_lines or 0
        return EmptyRead(file_path=str(path), total_lines=total, offset=start), (
            "full" if total == 0 else "range"
        )
    out = TextRead(
        file_path=str(path),
        lines=window.lines,
        start_line=window.start_line,
        total_lines=window.total_lines,
        bytes_after=window.bytes_after,
        capped=window.capped,
        cut_lines=window.cut_lines,
        replaced=window.replaced,
        encoding=window.encoding,
        max_chars=max_chars,
        line_chars=line_chars,
    )
    whole = start == 1 and window.total_lines == len(window.lines) and not window.cut_lines
    kind: ReadKind = "partial" if window.capped else "full" if whole else "range"
    return out, kind


def _image(path: Path, head: bytes) -> ReadOutput:
    from hands.tools.file._images import prepare_image

    media_type = image_type(head) or "image/png"
    try:
        prepared = prepare_image(path.read_bytes(), media_type)
    except ValueError as exc:
        raise ToolError(
            f"{path} looks like an image but {exc}. Check the file with Bash (file {path})."
        ) from exc
    return ImageRead(file_path=str(path), image=prepared)


def _pdf(path: Path, input: ReadInput) -> tuple[ReadOutput, ReadKind]:
    from hands.tools.file._pdf import (
        PageRangeError,
        document_bytes,
        extract_pages,
        page_count,
        parse_pages,
    )

    try:
        count = page_count(path)
        if input.pages is None:
            if count > PDF_PAGES_WITHOUT_RANGE:
                raise ToolError(
                    f"{path} has {count} pages; a PDF of more than {PDF_PAGES_WITHOUT_RANGE} "
                    f'pages needs pages, e.g. pages="1-{PDF_MAX_PAGES_PER_CALL}" (at most '
                    f"{PDF_MAX_PAGES_PER_CALL} pages per call)."
                )
            wanted = None
        else:
            wanted = parse_pages(input.pages, count)
        _, pages = extract_pages(path, wanted)
    except PageRangeError as exc:
        raise ToolError(str(exc)) from exc
    except ValueError as exc:
        raise ToolError(f"{path} could not be read as a PDF: {exc}.") from exc
    max_chars = _caps(input)[2]
    used = 0
    kept = 0
    capped_after: int | None = None
    for page in pages:
        used += len(page.text) + 20
        if kept and used > max_chars:
            capped_after = pages[kept - 1].number
            break
        kept += 1
    shown = pages[:kept]
    kind: ReadKind = (
        "partial" if capped_after is not None else "full" if len(shown) == count else "range"
    )
    numbers = None if wanted is None and kept == count else tuple(p.number for p in shown)
    document = document_bytes(path, numbers, max_bytes=PDF_DOCUMENT_MAX_BYTES)
    return PdfRead(
        file_path=str(path),
        page_count=count,
        pages=shown,
        capped_after=capped_after,
        max_chars=max_chars,
        document=None if document is None else base64.b64encode(document).decode("ascii"),
    ), kind


def _notebook(path: Path, size: int, max_chars: int) -> tuple[ReadOutput, ReadKind]:
    from hands.tools.file._notebook_cells import (
        NotebookError,
        language_of,
        parse_notebook,
        view_cells,
    )

    if size > MAX_NOTEBOOK_BYTES:
        raise ToolError(
            f"{path} is {size:,} bytes, too large to show as a notebook. Inspect it with Bash, "
            f"e.g. jq '.cells[0:5]' {path}."
        )
    try:
        nb = parse_notebook(path.read_text(encoding="utf-8", errors="replace"))
    except NotebookError as exc:
        raise ToolError(f"{path}: {exc}. Read it as text with offset and limit instead.") from exc
    cells = view_cells(nb)
    used = 0
    shown = 0
    for cell in cells:
        used += len(cell.source) + sum(len(o) for o in cell.outputs) + 60
        if shown and used > max_chars:
            break
        shown += 1
    out = NotebookRead(
        file_path=str(path),
        language=language_of(nb),
        cells=cells,
        shown=shown,
        max_chars=max_chars,
    )
    return out, "full" if shown == len(cells) else "partial"
