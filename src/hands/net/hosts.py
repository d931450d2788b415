"""A host name as the network sees it, whatever spelling a URL or a rule gave it.

``ＥＸＡＭＰＬＥ．com``, ``example.com.`` and ``EXAMPLE.com`` are one host to a resolver and
to Chromium; ``exämple.com`` is ``xn--exmple-cua.com``. Rules and guards compare hosts in
the one form :func:`ascii_host` gives (UTS 46 mapping, as browsers do), so no spelling
slips past a rule written in another.
"""

from __future__ import annotations

import ipaddress
import re
import socket

import idna

from hands.net.address import parse_address


def ascii_host(raw: str, *, whole: bool = True) -> str | None:
    """``raw`` as lower-case ASCII (punycode) without a trailing dot; None if it is no host.

    An IP literal (bracketed or not) comes back in its standard spelling, and so does a
    host of numbers a resolver reads as IPv4 (``0177.1``); ``whole=False`` for one label
    of a host, where ``0`` is just a label.
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
    if whole and _NUMERIC_IPV4.fullmatch(host):
        return _numeric_ipv4(host)
    address = parse_address(host)
    return str(address) if address is not None else host or None


_NUMERIC_IPV4 = re.compile(r"(0x[0-9a-f]*|[0-9]+)(\.(0x[0-9a-f]*|[0-9]+)){0,3}")
"""A host of one to four numbers (decimal, octal with a leading 0, hex with 0x)."""


def _numeric_ipv4(host: str) -> str | None:
    """The dotted quad a resolver reads in ``0177.1``, ``0x7f.0.0.1`` or ``2130706433``.

    Resolvers and browsers read such a host as an IPv4 address (``inet_aton``), so it is
    judged as that address; a spelling they refuse (``08.1``) is no host.
    """
    try:
        return str(ipaddress.IPv4Address(socket.inet_aton(host)))
    except (OSError, ValueError):
        return None
