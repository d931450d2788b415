"""What a fetched body becomes for the model: Markdown, text, JSON, PDF text or an image.

Any other body (an archive, a binary) is kept as a file instead (kind ``file``).
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeAlias

from hands.errors import ToolError
from hands.tools.web._charset import decode

if TYPE_CHECKING:
    from hands.tools.file._images import PreparedImage
    from hands.tools.web._exchange import Response

Kind: TypeAlias = Literal["markdown", "text", "json", "pdf", "image", "file"]
KIND_LABELS: dict[Kind, str] = {
    "markdown": "Markdown",
    "text": "text",
    "json": "JSON",
    "pdf": "PDF text",
    "image": "image",
    "file": "a saved file",
}
_HTML = frozenset({"text/html", "application/xhtml+xml"})
_IMAGES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
_TEXTISH = frozenset(
    {"application/xml", "application/javascript", "application/x-yaml", "application/yaml"}
)


@dataclass(frozen=True, kw_only=True, slots=True)
class Converted:
    """A body in the form the model reads."""

    kind: Kind
    text: str = ""
    image: PreparedImage | None = None
    encoding: str = ""


def convert(response: Response) -> Converted:
    """Convert the body by its media type (sniffed when the server sent none)."""
    media = response.content_type or _sniff(response.body)
    body = response.body
    if media in _HTML:
        from hands.tools.web._html import html_to_markdown

        text, encoding = decode(body, response.charset, html=True)
        return Converted(
            kind="markdown", text=html_to_markdown(text, response.url), encoding=encoding
        )
    if media == "application/json" or media.endswith("+json"):
        text, encoding = decode(body, response.charset, html=False)
        return Converted(kind="json", text=_pretty_json(text), encoding=encoding)
    if media.startswith("text/") or media in _TEXTISH or media.endswith("+xml"):
        text, encoding = decode(body, response.charset, html=False)
        return Converted(kind="text", text=text, encoding=encoding)
    if media == "application/pdf":
        return Converted(kind="pdf", text=_pdf_text(body, response))
    if media in _IMAGES:
        return Converted(kind="image", image=_image(body, media, response))
    return Converted(kind="file")


def _sniff(body: bytes) -> str:
    head = body[:512].lstrip().lower()
    if head.startswith((b"<!doctype html", b"<html")) or b"<body" in head:
        return "text/html"
    if head.startswith(b"%pdf-"):
        return "application/pdf"
    if head.startswith((b"{", b"[")):
        return "application/json"
    if b"\x00" not in head:
        return "text/plain"
    return ""


def _pretty_json(text: str) -> str:
    try:
        return json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"
    except ValueError:
        return text


def _pdf_text(body: bytes, response: Response) -> str:
    from pypdf import PdfReader

    try:
        reader = PdfReader(io.BytesIO(body))
        if reader.is_encrypted and not reader.decrypt(""):
            raise ValueError("it is encrypted with a password")
        pages: list[str] = []
        for number, page in enumerate(reader.pages, 1):
            try:
                text = page.extract_text() or ""
            except Exception as exc:  # pypdf raises many types on damaged pages
                text = f"[the text of this page could not be extracted: {exc}]"
            pages.append(f"--- page {number} ---\n{text.strip()}")
    except Exception as exc:  # a damaged or truncated PDF: any pypdf error
        raise ToolError(f"{response.url} is a PDF that could not be read ({exc}).") from None
    return "\n\n".join(pages) + "\n"


def _image(body: bytes, media: str, response: Response) -> PreparedImage:
    from hands.tools.file._images import prepare_image

    try:
        return prepare_image(body, media)
    except ValueError as exc:
        raise ToolError(f"{response.url} is {media} but {exc}.") from None
