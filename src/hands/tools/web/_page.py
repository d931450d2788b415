"""A fetched page as WebFetch keeps it: where it came from and what it became."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hands.tools.file._images import PreparedImage
    from hands.tools.web._content import Kind


@dataclass(frozen=True, kw_only=True, slots=True)
class Page:
    """One converted response."""

    url: str
    """The final URL, after same-site redirects."""
    status: int
    reason: str
    content_type: str
    received: int
    """Body bytes received."""
    body_truncated: bool
    """The body hit the size cap and the rest was not read."""
    kind: Kind
    text: str = ""
    image: PreparedImage | None = None
    saved: str = ""
    """Where a body that is not shown (kind ``file``) was saved."""

    @property
    def weight(self) -> int:
        """Roughly the bytes this page takes in memory."""
        return len(self.text) + (len(self.image.base64) if self.image is not None else 0) + 200
