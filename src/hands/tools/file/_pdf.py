"""PDF text, page by page, with pypdf; page ranges as the model writes them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from hands.core.words import plural
from hands.tools.file._limits import PDF_MAX_PAGES_PER_CALL

if TYPE_CHECKING:
    from pypdf import PdfReader

RANGE_EXAMPLES = '"3", "1-5", "2,4,7-9"'
_PART = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


class PageRangeError(ValueError):
    """A ``pages`` value that does not name pages of this PDF."""


@dataclass(frozen=True, kw_only=True, slots=True)
class PdfPage:
    """The extracted text of one page."""

    number: int
    text: str


def parse_pages(spec: str, page_count: int) -> tuple[int, ...]:
    """The 1-based page numbers ``spec`` names, in order, each once."""
    parts = [p for p in spec.split(",") if p.strip()]
    if not parts:
        raise PageRangeError(_bad(spec, page_count, "it is empty"))
    pages: list[int] = []
    for part in parts:
        match = _PART.match(part)
        if match is None:
            raise PageRangeError(_bad(spec, page_count, f"{part.strip()!r} is not a page or range"))
        first = int(match.group(1))
        last = int(match.group(2) or first)
        if first < 1 or last < first:
            raise PageRangeError(_bad(spec, page_count, f"{part.strip()!r} is not a valid range"))
        if last > page_count:
            raise PageRangeError(_bad(spec, page_count, f"page {last} is past the end"))
        pages.extend(p for p in range(first, last + 1) if p not in pages)
        if len(pages) > PDF_MAX_PAGES_PER_CALL:
            break
    if len(pages) > PDF_MAX_PAGES_PER_CALL:
        raise PageRangeError(
            f"pages {spec!r} names more than {PDF_MAX_PAGES_PER_CALL} pages; read at most "
            f'{PDF_MAX_PAGES_PER_CALL} per call, e.g. pages="1-{PDF_MAX_PAGES_PER_CALL}" '
            f'then pages="{PDF_MAX_PAGES_PER_CALL + 1}-{2 * PDF_MAX_PAGES_PER_CALL}".'
        )
    return tuple(pages)


def _bad(spec: str, page_count: int, why: str) -> str:
    return (
        f"Invalid pages value {spec!r}: {why}. The PDF has {plural(page_count, 'page')}; "
        f"use a page, a range or a comma list such as {RANGE_EXAMPLES} (at most "
        f"{PDF_MAX_PAGES_PER_CALL} pages per call)."
    )


def page_count(path: Path) -> int:
    """Pages in the PDF; raises ValueError when it cannot be parsed."""
    return len(_reader(path).pages)


def extract_pages(path: Path, pages: tuple[int, ...] | None) -> tuple[int, tuple[PdfPage, ...]]:
    """The page count and the text of ``pages`` (all pages when None)."""
    reader = _reader(path)
    count = len(reader.pages)
    wanted = pages if pages is not None else tuple(range(1, count + 1))
    out: list[PdfPage] = []
    for number in wanted:
        try:
            text = reader.pages[number - 1].extract_text() or ""
        except Exception as exc:  # pypdf raises many types on damaged pages
            text = f"[text of this page could not be extracted: {exc}]"
        out.append(PdfPage(number=number, text=text))
    return count, tuple(out)


def document_bytes(path: Path, pages: tuple[int, ...] | None, *, max_bytes: int) -> bytes | None:
    """The PDF to send as a document; None when it would pass ``max_bytes`` or fails.

    The file itself when ``pages`` is None, else a new PDF of just those pages (pypdf:
    pure Python, no renderer needed).
    """
    if pages is None:
        if path.stat().st_size > max_bytes:
            return None
        return path.read_bytes()
    import io

    from pypdf import PdfWriter

    reader = _reader(path)
    writer = PdfWriter()
    try:
        for number in pages:
            writer.add_page(reader.pages[number - 1])
        out = io.BytesIO()
        writer.write(out)
    except Exception:  # pypdf raises many types on damaged files; the text still serves
        return None
    data = out.getvalue()
    return data if len(data) <= max_bytes else None


def _reader(path: Path) -> PdfReader:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(path)
        if reader.is_encrypted and not reader.decrypt(""):
            raise ValueError("the PDF is encrypted with a password")
        _ = len(reader.pages)
    except (PdfReadError, OSError, KeyError, TypeError) as exc:
        raise ValueError(f"the PDF could not be parsed ({exc})") from exc
    return reader
