"""A host name's addresses, looked up once: what a fetch checks is what it connects to."""

from __future__ import annotations

import ipaddress
import socket

import anyio

from hands.net.address import Address


class ResolveError(Exception):
    """The host name could not be resolved."""


async def resolve(host: str, port: int) -> tuple[Address, ...]:
    """Every address ``host`` resolves to, looked up once; raises ResolveError."""
    try:
        return (ipaddress.ip_address(host),)
    except ValueError:
        pass
    try:
        found = await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise ResolveError(f"{host} could not be resolved ({exc})") from exc
    addresses: list[Address] = []
    for _family, _type, _proto, _name, sockaddr in found:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise ResolveError(f"{host} resolved to no address")
    return tuple(addresses)
