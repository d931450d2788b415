"""A host name as the network sees it, whatever spelling a URL or a rule gave it.

``ＥＸＡＭＰＬＥ．com``, ``example.com.`` and ``EXAMPLE.com`` are one host to a resolver and
to Chromium; ``exämple.com`` is ``xn--exmple-cua.com``. Rules and guards compare hosts in
the one form :func:`ascii_host` gives (UTS 46 mapping, as browsers do), so no spelling
slips past a rule written in another.
"""

from __future__ import annotations

import idna

from hands.net.address import parse_address


def ascii_host(raw: str) -> str | None:
    """``raw`` as lower-case ASCII (punycode) without a trailing dot; None if it is no host.

    An IP literal (bracketed or not) comes back in its standard spelling.
    """
    text = raw.strip()
    address = parse_address(text)
    if address is not None:
        return str(address)
    if not text or any(c in text for c in "[]%/\\@ ") or any(ord(c) < 0x21 for c in text):
        return None
    if text.isascii():
        host = text.lower().rstrip(".")
    else:
        try:
            host = idna.encode(text, uts46=True).decode("ascii").lower().rstrip(".")
        except (idna.IDNAError, UnicodeError, ValueError):
            return None
    address = parse_address(host)
    return str(address) if address is not None else host or None
