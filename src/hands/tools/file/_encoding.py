"""Text encodings the editing tools keep: UTF-8, UTF-8 with BOM, UTF-16 with BOM."""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from typing import Literal, TypeAlias

Newline: TypeAlias = Literal["\n", "\r\n"]


@dataclass(frozen=True, kw_only=True, slots=True)
class TextEncoding:
    """How a file's text is stored: the codec and the byte-order mark before it."""

    codec: str
    bom: bytes = b""

    @property
    def label(self) -> str:
        """A short name for messages."""
        names = {
            "utf-8": "UTF-8",
            "utf-16-le": "UTF-16LE",
            "utf-16-be": "UTF-16BE",
        }
        name = names.get(self.codec, self.codec)
        return f"{name} with BOM" if self.bom else name


UTF8 = TextEncoding(codec="utf-8")
_BOMS: tuple[tuple[bytes, TextEncoding], ...] = (
    (codecs.BOM_UTF8, TextEncoding(codec="utf-8", bom=codecs.BOM_UTF8)),
    (codecs.BOM_UTF16_LE, TextEncoding(codec="utf-16-le", bom=codecs.BOM_UTF16_LE)),
    (codecs.BOM_UTF16_BE, TextEncoding(codec="utf-16-be", bom=codecs.BOM_UTF16_BE)),
)


class NotTextError(ValueError):
    """The bytes are not text in an encoding the editing tools can write back."""


def sniff_encoding(head: bytes) -> TextEncoding:
    """The encoding announced by a byte-order mark at the start of ``head``, else UTF-8."""
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding
    return UTF8


def decode(data: bytes) -> tuple[str, TextEncoding]:
    """The text of ``data`` and its encoding; raises NotTextError for anything else."""
    encoding = sniff_encoding(data[:4])
    body = data[len(encoding.bom) :]
    try:
        text = body.decode(encoding.codec)
    except UnicodeDecodeError as exc:
        raise NotTextError(
            f"the file is not valid {encoding.label} (bad byte at offset "
            f"{exc.start + len(encoding.bom)})"
        ) from exc
    return text, encoding


def encode(text: str, encoding: TextEncoding) -> bytes:
    """``text`` in ``encoding``, BOM first; raises NotTextError if it cannot be encoded."""
    try:
        return encoding.bom + text.encode(encoding.codec)
    except UnicodeEncodeError as exc:
        raise NotTextError(
            f"the text cannot be written as {encoding.label}: {exc.reason} at character "
            f"{exc.start} ({text[exc.start : exc.start + 1]!r})"
        ) from exc


def dominant_newline(text: str) -> Newline:
    """CRLF when most line breaks in ``text`` are CRLF, else LF."""
    if "\r" not in text:
        return "\n"
    crlf = text.count("\r\n")
    return "\r\n" if crlf and crlf * 2 >= text.count("\n") else "\n"
