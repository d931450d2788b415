"""What a file holds, judged from its first bytes rather than its name."""

from __future__ import annotations

from typing import Literal, TypeAlias

from hands.tools.file._encoding import sniff_encoding

Kind: TypeAlias = Literal["text", "image", "pdf", "binary"]
SNIFF_BYTES = 8_192

IMAGE_TYPES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


def image_type(head: bytes) -> str | None:
    """The media type of a PNG, JPEG, GIF or WebP image, else None."""
    for magic, media_type in IMAGE_TYPES:
        if head.startswith(magic):
            return media_type
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None


def sniff(head: bytes) -> Kind:
    """Classify a file by its first bytes."""
    if image_type(head) is not None:
        return "image"
    if head.startswith(b"%PDF-"):
        return "pdf"
    if sniff_encoding(head).codec.startswith("utf-16"):
        return "text"
    if b"\x00" in head and not stray_nuls(head):
        return "binary"
    return "text"


def stray_nuls(head: bytes) -> bool:
    """Whether the NUL bytes in ``head`` are a few strays in what is otherwise UTF-8 text.

    A text file with a NUL or two (a stray from a tool, a marker) is still read as text,
    as Claude Code does; a binary file has them everywhere, or bytes that are not UTF-8.
    """
    count = head.count(b"\x00")
    if count == 0 or count > max(1, len(head) // 1_000):
        return False
    body = head.replace(b"\x00", b"")
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        # only a character cut where the sample ends
        return len(head) >= SNIFF_BYTES and exc.reason == "unexpected end of data"
    return True
