"""Which addresses a fetch may reach: public ones, or any for a host the user opened."""

from __future__ import annotations

import ipaddress
import socket
from typing import TYPE_CHECKING, Any

import anyio

from hands.net.address import Address
from hands.permissions.domains import NetworkDomains
from hands.permissions.engine import PermissionEngine
from hands.permissions.rules import DomainPattern

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.core.tool import Tool


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


def opened_hosts(tool: Tool[Any, Any], ctx: ToolContext) -> frozenset[str]:
    """Hosts the user opened by name, whose non-public addresses may be reached.

    The exact ``domain:`` allow rules of ``tool`` and the exact entries of the session's
    :class:`NetworkDomains` (``sandbox.network.allowedDomains``); a wildcard opens nothing.
    """
    hosts: set[str] = set()
    policy = ctx.policy
    if isinstance(policy, PermissionEngine):
        for rule in policy.rules_for("allow", tool):
            matcher = rule.matcher
            if isinstance(matcher, DomainPattern) and matcher.exact:
                hosts.add(matcher.exact)
    return frozenset(hosts | ctx.session.service(NetworkDomains).opened_hosts)
