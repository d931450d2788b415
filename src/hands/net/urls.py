"""A URL the model gave, checked and normalised before anything touches the network."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from hands.net.address import parse_address
from hands.net.hosts import ascii_host

MAX_URL_CHARS = 2_000
_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")


@dataclass(frozen=True, kw_only=True, slots=True)
class WebUrl:
    """A URL that may be fetched: ``http(s)``, no credentials, an ASCII (punycode) host."""

    url: str
    """The URL requested: scheme, punycode host, port, path and query (no fragment)."""
    host: str
    """The host in lower case ASCII, without a trailing dot or IPv6 brackets."""
    unicode_host: str
    """The host as people read it; differs from ``host`` for an internationalised name."""
    upgraded: bool = False
    """``http`` was changed to ``https``."""

    @property
    def shown(self) -> str:
        """The URL, with the punycode host beside a look-alike Unicode one."""
        if self.unicode_host == self.host:
            return self.url
        return f"{self.url} (host {self.unicode_host} is {self.host})"


def loopback_host(host: str) -> bool:
    """Whether ``host`` is ``localhost`` or a loopback address literal."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def parse_url(raw: str) -> WebUrl | str:
    """The checked URL, or a message saying why it cannot be fetched."""
    text = raw.strip()
    if not text:
        return "The url is empty. Give a full URL such as https://example.com/page."
    if len(text) > MAX_URL_CHARS:
        return (
            f"The url is {len(text):,} characters long; at most {MAX_URL_CHARS:,} are "
            "accepted. Fetch a shorter URL (drop tracking parameters, or fetch the page "
            "that links to it)."
        )
    if any(c.isspace() or ord(c) < 0x20 for c in text):
        return f"The url {_short(text)} contains whitespace or control characters."
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        return f"The url {_short(text)} is malformed ({exc})."
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        what = f"the {scheme}: scheme" if scheme else "no scheme"
        return (
            f"The url {_short(text)} has {what}; only http and https URLs can be fetched. "
            "Read local files with Read."
        )
    if parts.username is not None or parts.password is not None:
        return (
            f"The url {_short(text)} carries a user name or password; URLs with credentials "
            "are refused. Fetch the URL without them."
        )
    raw_host = parts.hostname
    if not raw_host:
        return f"The url {_short(text)} has no host."
    host = _ascii_host(raw_host)
    if host is None:
        return f"The url {_short(text)} has an invalid host name {raw_host!r}."
    unicode_host = _unicode_host(host)
    upgraded = scheme == "http" and not loopback_host(host)
    final_scheme = "https" if upgraded else scheme
    netloc = f"[{host}]" if ":" in host else host
    if port is not None:
        netloc += f":{port}"
    url = urlunsplit((final_scheme, netloc, parts.path or "/", parts.query, ""))
    return WebUrl(url=url, host=host, unicode_host=unicode_host, upgraded=upgraded)


def same_site(a: str, b: str) -> bool:
    """Whether two hosts are the same, ignoring a leading ``www.``."""
    return a.removeprefix("www.") == b.removeprefix("www.")


def _ascii_host(raw: str) -> str | None:
    encoded = ascii_host(raw)
    if encoded is None or parse_address(encoded) is not None:
        return encoded
    labels = encoded.split(".")
    if len(encoded) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        return None
    return encoded


def _unicode_host(host: str) -> str:
    try:
        return host.encode("ascii").decode("idna")
    except UnicodeError:
        return host


def _short(text: str) -> str:
    return repr(text) if len(text) <= 200 else repr(text[:200]) + f"… ({len(text):,} characters)"
