"""One answer to "may a fetch reach this address?": public unicast only.

WebFetch, the browser and the shell sandbox's proxy all ask :func:`address_problem`, so
they cannot disagree. An IPv6 address that carries an IPv4 address inside it (IPv4-mapped,
IPv4-compatible, IPv4-translated, NAT64 and 6to4) is judged by the IPv4 address it
reaches, so ``::ffff:127.0.0.1``, ``::7f00:1``, ``64:ff9b::7f00:1`` and ``2002:7f00:1::``
are all loopback. Anything the standard library does not call global, or calls reserved,
is refused: what cannot be shown public is not.
"""

from __future__ import annotations

import ipaddress
from typing import TypeAlias

Address: TypeAlias = ipaddress.IPv4Address | ipaddress.IPv6Address

_METADATA = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254",
        "169.254.170.2",
        "100.100.100.200",
        "192.0.0.192",
        "fd00:ec2::254",
    )
)
_CGNAT = ipaddress.IPv4Network("100.64.0.0/10")
_V4_COMPATIBLE = ipaddress.IPv6Network("::/96")
_V4_TRANSLATED = ipaddress.IPv6Network("::ffff:0:0:0/96")
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")


def parse_address(text: str) -> Address | None:
    """The address ``text`` spells (brackets and a ``%zone`` allowed), or None."""
    bare = text.strip().removeprefix("[").removesuffix("]").split("%", 1)[0]
    try:
        return ipaddress.ip_address(bare)
    except ValueError:
        return None


def embedded_ipv4(address: Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 ``address`` leads to, when it carries one."""
    if isinstance(address, ipaddress.IPv4Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    low = ipaddress.IPv4Address(int(address) & 0xFFFF_FFFF)
    if address in _NAT64 or address in _V4_TRANSLATED:
        return low
    if address in _V4_COMPATIBLE and int(address) > 1:  # :: and ::1 are themselves
        return low
    return None


def address_problem(address: Address) -> str | None:
    """What kind of non-public address ``address`` is; None for a public one."""
    inner = embedded_ipv4(address)
    if inner is not None and isinstance(address, ipaddress.IPv6Address):
        problem = address_problem(inner)
        if problem is not None:
            return f"{problem} ({inner} inside {address})"
        if address.ipv4_mapped is not None or address.sixtofour is not None or address in _NAT64:
            return None  # a socket's, a relay's or a translator's way to a public IPv4 address
        return f"a deprecated IPv6 form of {inner}"
    if address in _METADATA:
        return "a cloud metadata address"
    if address.is_loopback:
        return "a loopback address"
    if address.is_link_local:
        return "a link-local address"
    if isinstance(address, ipaddress.IPv4Address) and address in _CGNAT:
        return "a shared (CGNAT) address"
    if address.is_unspecified:
        return "an unspecified address"
    if address.is_multicast:
        return "a multicast address"
    if isinstance(address, ipaddress.IPv6Address) and address in _NAT64_LOCAL:
        return "a local-use NAT64 address"
    if address.is_private:
        return "a private address"
    if address.is_reserved or not address.is_global:
        return "a reserved address"
    return None


def is_public(address: Address) -> bool:
    """Whether ``address`` is a public unicast address a fetch may reach."""
    return address_problem(address) is None
