"""Text of a fetched body: the header's charset, the document's, or a detected one."""

from __future__ import annotations

import codecs
import re

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_META = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_SINGLE_BYTE = frozenset({"latin-1", "iso8859-1", "cp1252", "ascii", "iso8859-15"})
_DETECT_BYTES = 512 * 1024
_CHAOS_MARGIN = 0.1


def decode(body: bytes, declared: str | None, *, html: bool) -> tuple[str, str]:
    """(text, the encoding used). Never raises: undecodable bytes become U+FFFD."""
    for bom, name in _BOMS:
        if body.startswith(bom):
            return body[len(bom) :].decode(name, errors="replace"), name
    label = _codec(declared)
    if label is None and html:
        found = _META.search(body[:4096])
        label = _codec(found.group(1).decode("ascii")) if found else None
    if label is not None:
        if label in _SINGLE_BYTE and not body.isascii():
            # a page labelled Latin-1 that is valid UTF-8 is almost surely UTF-8
            utf8 = _strict(body, "utf-8")
            if utf8 is not None:
                return utf8, "utf-8"
        text = _strict(body, label)
        if text is not None:
            return text, label
    utf8 = _strict(body, "utf-8")
    if utf8 is not None:
        return utf8, "utf-8"
    detected = _detect(body)
    if detected is not None:
        return body.decode(detected, errors="replace"), detected
    return body.decode("utf-8", errors="replace"), "utf-8"


def _codec(label: str | None) -> str | None:
    if not label:
        return None
    try:
        return codecs.lookup(label.strip()).name
    except LookupError:
        return None


def _strict(body: bytes, codec: str) -> str | None:
    try:
        return body.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return None


def _detect(body: bytes) -> str | None:
    """The likeliest encoding: among the least garbled readings, the most coherent one."""
    from charset_normalizer import from_bytes

    matches = list(from_bytes(body[:_DETECT_BYTES]))
    if not matches:
        return None
    least = min(m.chaos for m in matches)
    plausible = [m for m in matches if m.chaos <= least + _CHAOS_MARGIN]
    # a tie goes to windows-1252, the web's usual encoding for unlabelled Latin text
    best = max(plausible, key=lambda m: (m.coherence, m.encoding == "cp1252"))
    return _codec(best.encoding)
