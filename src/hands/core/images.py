"""Images for the model: downscaled and recompressed with Pillow when large."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass

MAX_IMAGE_EDGE = 2_000
"""Images whose longer side exceeds this are downscaled."""
MAX_IMAGE_BYTES = 500_000
"""Images still larger than this after resizing are re-encoded as JPEG."""


@dataclass(frozen=True, kw_only=True, slots=True)
class PreparedImage:
    """An image ready to send: its bytes in base64 and what was done to it."""

    media_type: str
    base64: str
    original_size: int
    original_dimensions: tuple[int, int] | None
    dimensions: tuple[int, int] | None
    resized: bool


def prepare_image(data: bytes, media_type: str) -> PreparedImage:
    """``data`` as is when small enough, else downscaled and re-encoded.

    Raises ValueError when the bytes cannot be decoded as an image.
    """
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as img:
            img.load()
            original = img.size
            if max(original) <= MAX_IMAGE_EDGE and len(data) <= MAX_IMAGE_BYTES:
                return PreparedImage(
                    media_type=media_type,
                    base64=base64.b64encode(data).decode("ascii"),
                    original_size=len(data),
                    original_dimensions=original,
                    dimensions=original,
                    resized=False,
                )
            frame = img.copy()
    except (UnidentifiedImageError, OSError, SyntaxError) as exc:
        raise ValueError(f"the image data could not be decoded ({exc})") from exc
    frame.thumbnail((MAX_IMAGE_EDGE, MAX_IMAGE_EDGE), Image.Resampling.LANCZOS)
    out_type, encoded = _encode(frame, media_type)
    if len(encoded) > MAX_IMAGE_BYTES:
        out_type, encoded = _jpeg(frame, quality=80)
    scale = 0.75
    while len(encoded) > MAX_IMAGE_BYTES and min(frame.size) > 64:
        frame = frame.resize(
            (max(1, int(frame.width * scale)), max(1, int(frame.height * scale))),
            Image.Resampling.LANCZOS,
        )
        out_type, encoded = _jpeg(frame, quality=75)
    return PreparedImage(
        media_type=out_type,
        base64=base64.b64encode(encoded).decode("ascii"),
        original_size=len(data),
        original_dimensions=original,
        dimensions=frame.size,
        resized=True,
    )


def _encode(frame: object, media_type: str) -> tuple[str, bytes]:
    from PIL import Image

    assert isinstance(frame, Image.Image)
    if media_type == "image/png":
        buf = io.BytesIO()
        frame.save(buf, format="PNG")
        return "image/png", buf.getvalue()
    return _jpeg(frame, quality=85)


def _jpeg(frame: object, *, quality: int) -> tuple[str, bytes]:
    from PIL import Image

    assert isinstance(frame, Image.Image)
    buf = io.BytesIO()
    rgb = frame if frame.mode == "RGB" else frame.convert("RGB")
    rgb.save(buf, format="JPEG", quality=quality)
    return "image/jpeg", buf.getvalue()
