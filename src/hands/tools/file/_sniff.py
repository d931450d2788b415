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
    if b"\x00" in head:
        return "binary"
    return "text"
