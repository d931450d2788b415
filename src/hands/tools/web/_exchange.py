"""The values one fetch is given and gives back: its limits, a response, a redirect."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True, slots=True)
class FetchLimits:
    """How long and how much one fetch may take."""

    connect_seconds: float = 10.0
    read_seconds: float = 30.0
    """The longest wait for the next bytes once connected (a stalled server)."""
    total_seconds: float = 60.0
    """The whole fetch, every redirect hop included."""
    max_body_bytes: int = 10 * 1024 * 1024
    """Bytes kept after decompression; the transfer stops there."""
    max_redirects: int = 10


@dataclass(frozen=True, kw_only=True, slots=True)
class Response:
    """What the server sent for the last hop."""

    url: str
    status: int
    reason: str
    content_type: str
    """The media type, lower case, without parameters."""
    charset: str | None
    body: bytes
    truncated: bool
    """The body was longer than the cap; only the first part is here."""
    received: int
    """Body bytes received (after decompression)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Redirect:
    """A redirect to another site, not followed."""

    url: str
    target: str
    status: int
