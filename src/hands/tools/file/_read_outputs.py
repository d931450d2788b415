"""What a Read returns: one value per kind of file, and the text the model gets for it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeAlias

from hands.core.messages import DocumentBlock, ImageBlock, TextBlock
from hands.core.words import plural
from hands.tools.file._limits import MAX_LINE_CHARS, MAX_READ_CHARS

if TYPE_CHECKING:  # loaded where an image, a PDF or a notebook is read
    from hands.core.images import PreparedImage
    from hands.tools.file._notebook_cells import CellView
    from hands.tools.file._pdf import PdfPage


@dataclass(frozen=True, kw_only=True, slots=True)
class TextRead:
    """Numbered lines of a text file."""

    file_path: str
    lines: tuple[str, ...]
    start_line: int
    total_lines: int | None
    bytes_after: int
    capped: bool
    cut_lines: int
    replaced: bool
    encoding: str
    max_chars: int = MAX_READ_CHARS
    """The character cap this read ran under (higher with ``allow_large``)."""
    line_chars: int = MAX_LINE_CHARS
    """The per-line cut this read ran under."""
    notes: tuple[str, ...] = ()
    """Further notes for the model (an input field that did not apply)."""
    type: Literal["text"] = "text"

    @property
    def num_lines(self) -> int:
        """Lines shown."""
        return len(self.lines)

    @property
    def end_line(self) -> int:
        """Number of the last line shown."""
        return self.start_line + len(self.lines) - 1

    @property
    def content(self) -> str:
        """The lines in ``cat -n`` form: number, tab, text."""
        first = self.start_line
        return "\n".join(f"{first + i}\t{line}" for i, line in enumerate(self.lines))


@dataclass(frozen=True, kw_only=True, slots=True)
class EmptyRead:
    """An empty file, or an offset past the last line."""

    file_path: str
    total_lines: int
    offset: int
    type: Literal["empty"] = "empty"


@dataclass(frozen=True, kw_only=True, slots=True)
class ImageRead:
    """An image, ready to send."""

    file_path: str
    image: PreparedImage
    type: Literal["image"] = "image"


@dataclass(frozen=True, kw_only=True, slots=True)
class PdfRead:
    """Text of some pages of a PDF."""

    file_path: str
    page_count: int
    pages: tuple[PdfPage, ...]
    capped_after: int | None = None
    """The page after which the character cap stopped the view, if it did."""
    max_chars: int = MAX_READ_CHARS
    document: str | None = None
    """The shown pages as a PDF, base64: sent as a document block; None: text only."""
    type: Literal["pdf"] = "pdf"


@dataclass(frozen=True, kw_only=True, slots=True)
class NotebookRead:
    """Every cell of a notebook with its outputs."""

    file_path: str
    language: str
    cells: tuple[CellView, ...]
    shown: int
    """Cells that fit under the character cap."""
    max_chars: int = MAX_READ_CHARS
    type: Literal["notebook"] = "notebook"


@dataclass(frozen=True, kw_only=True, slots=True)
class UnchangedRead:
    """The same view of an unchanged file was already returned in this session."""

    file_path: str
    what: str
    type: Literal["file_unchanged"] = "file_unchanged"


ReadOutput: TypeAlias = TextRead | EmptyRead | ImageRead | PdfRead | NotebookRead | UnchangedRead


def text_content(out: TextRead) -> str:
    """Numbered lines, then notes on anything the model did not see."""
    notes: list[str] = []
    next_offset = out.end_line + 1
    if out.capped:
        of = f" of {out.total_lines:,}" if out.total_lines is not None else ""
        notes.append(
            f"Cut short at {out.max_chars:,} characters: this shows lines {out.start_line}-"
            f"{out.end_line}{of}. For the rest, Read again with offset={next_offset} (and a "
            "limit), or find the part you need with Grep."
        )
    elif out.total_lines is not None and out.end_line < out.total_lines:
        notes.append(
            f"Showing lines {out.start_line}-{out.end_line} of {out.total_lines:,}. "
            f"Continue with offset={next_offset}."
        )
    elif out.total_lines is None:
        notes.append(
            f"Showing lines {out.start_line}-{out.end_line}; the file goes on for another "
            f"{_size(out.bytes_after)}. Continue with offset={next_offset}."
        )
    if out.cut_lines:
        notes.append(
            f"{plural(out.cut_lines, 'line')} ran past {out.line_chars:,} characters and "
            "end early here; Read with allow_large=true shows them whole, or look at them "
            "with Grep or Bash (e.g. cut -c)."
        )
    if out.replaced:
        notes.append(f"Some bytes are not valid {out.encoding} and are shown as \ufffd.")
    notes.extend(out.notes)
    if not notes:
        return out.content
    return out.content + "\n\n" + "\n".join(f"[{n}]" for n in notes)


def empty_content(out: EmptyRead) -> str:
    """The warning for an empty file or an offset past the end."""
    if out.total_lines == 0:
        body = f"{out.file_path} is there but holds no text at all (zero lines)."
    else:
        body = (
            f"Nothing at offset {out.offset}: {out.file_path} ends after "
            f"{plural(out.total_lines, 'line')}. Use an offset from 1 to {out.total_lines}."
        )
    return f"<system-reminder>{body}</system-reminder>"


def image_content(out: ImageRead) -> Sequence[TextBlock | ImageBlock]:
    """The image, and a line saying what it is."""
    img = out.image
    dims = f", {img.dimensions[0]}x{img.dimensions[1]}" if img.dimensions else ""
    note = f"Image {out.file_path} ({img.media_type}{dims}, {_size(img.original_size)} on disk"
    if img.resized and img.original_dimensions:
        w, h = img.original_dimensions
        note += f"; downscaled from {w}x{h}"
    note += ")"
    return (ImageBlock(media_type=img.media_type, data=img.base64), TextBlock(text=note))


def pdf_content(out: PdfRead) -> str | Sequence[TextBlock]:
    """A heading, then the pages, as a document or as text.

    The document also holds each page's text under a page heading: a provider that reads
    PDFs sees the pages, the others that text.
    """
    numbers = [p.number for p in out.pages]
    head = (
        f"PDF {out.file_path}: {plural(out.page_count, 'page')}; pages shown: {_ranges(numbers)}."
    )
    parts: list[str] = []
    for page in out.pages:
        text = page.text.strip() or "[no extractable text on this page; it may be a scan]"
        parts.append(f"--- Page {page.number} ---\n{text}")
    if out.capped_after is not None:
        parts.append(
            f"[Cut short at {out.max_chars:,} characters after page {out.capped_after}. For "
            f'the rest, Read again with pages="{out.capped_after + 1}-…" in smaller ranges.]'
        )
    body = "\n\n".join(parts)
    if out.document is None:
        return f"{head}\n\n{body}"
    document = DocumentBlock(text=body, data=out.document, pages=len(out.pages))
    return (TextBlock(text=head), document)


def notebook_content(out: NotebookRead) -> Sequence[TextBlock | ImageBlock] | str:
    """Every cell in order with its id, source and outputs; image outputs attached."""
    parts: list[str] = []
    images: list[ImageBlock] = []
    for cell in out.cells[: out.shown]:
        count = f" execution_count={cell.execution_count}" if cell.execution_count else ""
        parts.append(
            f'<cell id="{cell.id}" type="{cell.cell_type}"{count}>\n{cell.source}\n</cell>'
        )
        for text in cell.outputs:
            parts.append(f'<output cell="{cell.id}">\n{text.rstrip()}\n</output>')
        for image in cell.images:
            parts.append(f'<output cell="{cell.id}">[image {image.media_type}, attached]</output>')
            images.append(ImageBlock(media_type=image.media_type, data=image.base64))
    if out.shown < len(out.cells):
        parts.append(
            f"[Cut short at {out.max_chars:,} characters: cells 1-{out.shown} of "
            f"{len(out.cells)} shown. For the rest, use Bash, e.g. "
            f"jq '.cells[{out.shown}:]' {out.file_path}]"
        )
    if not out.cells:
        parts.append("<system-reminder>Warning: the notebook has no cells.</system-reminder>")
    text = (
        f"Notebook {out.file_path} ({out.language}, {plural(len(out.cells), 'cell')})\n\n"
        + "\n".join(parts)
    )
    if not images:
        return text
    return (TextBlock(text=text), *images)


def unchanged_content(out: UnchangedRead) -> str:
    """The stub for a re-read of an unchanged file."""
    return (
        f"{out.file_path} has not changed since you last read it ({out.what}); that earlier "
        "result above is still accurate, so use it rather than this call."
    )


def _size(n: int) -> str:
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return plural(n, "byte")


def _ranges(numbers: Sequence[int]) -> str:
    if not numbers:
        return "none"
    out: list[str] = []
    first = prev = numbers[0]
    for n in (*numbers[1:], None):
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(str(first) if first == prev else f"{first}-{prev}")
        if n is not None:
            first = prev = n
    return ", ".join(out)
