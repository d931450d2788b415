"""The domains a session's settings open to the network, for the shell's sandbox and for fetches.

``sandbox.network.allowedDomains`` and ``deniedDomains`` (merged across the settings files),
joined, as in Claude Code, by the ``domain:`` allow and deny rules of the one tool that
fetches URLs for the model. Those rules are parsed by that tool's declared subject, and
only rules naming that tool count: another tool's ``name(domain:…)`` rule (an MCP
server's, a user tool's) opens nothing here.

Both the Bash sandbox's proxy and WebFetch's address guard read the result from the
session (:class:`~hands.permissions.domains.NetworkDomains`), so neither tool family
imports the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from hands.config.sandbox import merged_sandbox
from hands.permissions.domains import NetworkDomains
from hands.permissions.policy import settings_rules
from hands.permissions.rules import DomainPattern

if TYPE_CHECKING:
    from hands.config.settings import Settings
    from hands.core.subject import RuleSubject


def network_domains(
    settings: Settings, *, fetcher: Mapping[str, RuleSubject | None]
) -> NetworkDomains:
    """What ``settings`` open and close: the sandbox's lists, then ``fetcher``'s domain rules.

    ``fetcher`` maps the fetching tool's name and aliases to its declared subject; the
    subject is read only for a rule that names the tool with a specifier.
    """
    network = merged_sandbox(settings.sandbox_layers).get("network")
    empty: Mapping[str, Any] = {}
    net = cast(Mapping[str, Any], network) if isinstance(network, Mapping) else empty
    allowed, denied = _strings(net.get("allowedDomains")), _strings(net.get("deniedDomains"))
    names = tuple(fetcher)
    rules, _ = settings_rules(settings, grammar=fetcher)
    for rule in rules:
        if rule.tool not in names or rule.name_regex is not None:
            continue
        if rule.kind != "domain" or not isinstance(rule.matcher, DomainPattern):
            continue
        host = rule.matcher.text.removeprefix("domain:")
        target = {"allow": allowed, "deny": denied}.get(rule.behavior)
        if target is not None and host and host != "*" and host not in target:
            target.append(host)
    return NetworkDomains(allowed=tuple(allowed), denied=tuple(denied))


def _strings(value: object) -> list[str]:
    if not isinstance(value, list):
        return []
    items = [v for v in cast(list[object], value) if isinstance(v, str)]
    return [v for i, v in enumerate(items) if v not in items[:i]]
