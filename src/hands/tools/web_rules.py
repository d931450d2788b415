"""What WebFetch and the browser share: the rules both obey and the hosts the user opened.

The browser asks per domain and obeys ``WebFetch(domain:…)`` rules, as WebFetch does;
both reach a non-public address only for a host the user opened by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.core.tool import Tool

WEB_FETCH = "WebFetch"
"""WebFetch's name: the tool whose ``domain:`` rules the browser obeys too."""


def opened_hosts(tool: Tool[Any, Any], ctx: ToolContext) -> frozenset[str]:
    """Hosts the user opened by name, whose non-public addresses may be reached.

    The exact ``domain:`` allow rules of ``tool`` and the exact entries of the session's
    :class:`~hands.permissions.domains.NetworkDomains` (``sandbox.network.allowedDomains``);
    a wildcard opens nothing.
    """
    from hands.permissions.domains import NetworkDomains  # lazy: start-up
    from hands.permissions.engine import PermissionEngine
    from hands.permissions.rules import DomainPattern

    hosts: set[str] = set()
    policy = ctx.policy
    if isinstance(policy, PermissionEngine):
        for rule in policy.rules_for("allow", tool):
            matcher = rule.matcher
            if isinstance(matcher, DomainPattern) and matcher.exact:
                hosts.add(matcher.exact)
    return frozenset(hosts | ctx.session.service(NetworkDomains).opened_hosts)
