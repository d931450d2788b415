"""Domain filters of a search: a result's host against allowed and blocked domains."""

from __future__ import annotations

from urllib.parse import urlsplit


def clean_domain(raw: str) -> str:
    """``https://Docs.Python.org/3/`` → ``docs.python.org``; ``*.x.org`` → ``x.org``."""
    text = raw.strip().lower()
    if "://" in text:
        text = urlsplit(text).hostname or ""
    text = text.split("/", 1)[0].removeprefix("*.").rstrip(".")
    return text.removeprefix("www.")


def host_of(url: str) -> str:
    """The URL's host in lower case, without ``www.``; empty when it has none."""
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return ""
    return host.rstrip(".").removeprefix("www.")


def in_domain(host: str, domain: str) -> bool:
    """``host`` is ``domain`` or one of its subdomains."""
    return bool(domain) and (host == domain or host.endswith("." + domain))


def passes(url: str, allowed: tuple[str, ...], blocked: tuple[str, ...]) -> bool:
    """Whether a result at ``url`` survives the filters."""
    host = host_of(url)
    if not host:
        return False
    if allowed and not any(in_domain(host, d) for d in allowed):
        return False
    return not any(in_domain(host, d) for d in blocked)
