"""The session's page cache: least recently used pages, by final URL, for 15 minutes."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass

from hands.tools.web._page import Page

DEFAULT_TTL_MS = 15 * 60 * 1000
MAX_CACHE_BYTES = 50 * 1024 * 1024
TTL_VARIABLES = ("HANDS_WEBFETCH_CACHE_TTL_MS", "CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS")


def ttl_from_env(env: Mapping[str, str] | None = None) -> float:
    """The cache lifetime in seconds: the first TTL variable set to a number ≥ 0."""
    from hands.core.env import whole

    value = whole("HANDS_WEBFETCH_CACHE_TTL_MS", env)
    return (DEFAULT_TTL_MS if value is None else value) / 1000


@dataclass(frozen=True, kw_only=True, slots=True)
class _Entry:
    page: Page
    stored: float


class PageCache:
    """Pages by their final URL, with the requested URLs that led to them."""

    def __init__(
        self, *, ttl_seconds: float | None = None, max_bytes: int = MAX_CACHE_BYTES
    ) -> None:
        self.ttl = ttl_from_env() if ttl_seconds is None else ttl_seconds
        self.max_bytes = max_bytes
        self._pages: OrderedDict[str, _Entry] = OrderedDict()
        self._aliases: dict[str, str] = {}
        self._bytes = 0

    @property
    def size(self) -> int:
        """Bytes the cached pages take (their text and image data)."""
        return self._bytes

    def get(self, url: str) -> Page | None:
        """The fresh page fetched for ``url`` (requested or final), if any."""
        key = self._aliases.get(url, url)
        entry = self._pages.get(key)
        if entry is None:
            return None
        if time.monotonic() - entry.stored > self.ttl:
            self._drop(key)
            return None
        self._pages.move_to_end(key)
        return entry.page

    def put(self, requested: str, page: Page) -> None:
        """Keep ``page`` under its final URL; ``requested`` leads to it too."""
        if self.ttl <= 0 or page.weight > self.max_bytes:
            return
        key = page.url
        if key in self._pages:
            self._drop(key)
        self._pages[key] = _Entry(page=page, stored=time.monotonic())
        self._bytes += page.weight
        self._aliases[requested] = key
        while self._bytes > self.max_bytes and self._pages:
            self._drop(next(iter(self._pages)))

    def _drop(self, key: str) -> None:
        entry = self._pages.pop(key)
        self._bytes -= entry.page.weight
        for alias in [a for a, k in self._aliases.items() if k == key]:
            del self._aliases[alias]
