"""Which addresses a fetch may reach: public ones, or any for a host the user opened."""

from __future__ import annotations

import ipaddress
import socket
from typing import TYPE_CHECKING, Any, TypeAlias

import anyio

from hands.permissions.engine import PermissionEngine
from hands.permissions.network import NetworkDomains
from hands.permissions.rules import DomainPattern

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.core.tool import Tool

Address: TypeAlias = ipaddress.IPv4Address | ipaddress.IPv6Address

_METADATA = frozenset(
    ipaddress.ip_address(a)
    for a in ("169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254")
)
_CGNAT = ipaddress.ip_network("100.64.0.0/10")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


class ResolveError(Exception):
    """The host name could not be resolved."""


def address_problem(address: Address) -> str | None:
    """What kind of non-public address ``address`` is (None for a public one)."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = address.ipv4_mapped or address.sixtofour
        if embedded is None and address in _NAT64:
            embedded = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if embedded is not None:
            return address_problem(embedded)
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
    if address.is_private:
        return "a private address"
    if not address.is_global:
        return "a reserved address"
    return None


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
