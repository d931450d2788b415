"""The domains a session's settings open to the network and those they close.

Read from the session (:class:`NetworkDomains`) by the shell sandbox's proxy, by the
fetch guards (which hosts may reach non-public addresses) and by the permission engine:
a ``sandbox.network.deniedDomains`` entry denies every tool that fetches URLs, whatever
allow rule matches.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True, slots=True)
class NetworkDomains:
    """Hosts (or ``*.`` patterns) the settings open to the network, and those they close."""

    allowed: tuple[str, ...] = ()
    denied: tuple[str, ...] = ()

    @property
    def opened_hosts(self) -> frozenset[str]:
        """The allowed entries that name one host exactly (no wildcard), not denied."""
        hosts = (_host(d) for d in self.allowed if "*" not in d)
        return frozenset(h for h in hosts if h and self.denying(h) is None)

    def denying(self, host: str) -> str | None:
        """The denied entry that covers ``host`` (any spelling), or None."""
        name = _host(host)
        if not name:
            return None
        for entry in self.denied:
            pattern = entry.strip()
            if pattern == "*":
                return entry
            if pattern.startswith("*."):
                suffix = _host(pattern[2:])
                if suffix and name.endswith("." + suffix):
                    return entry
            elif _host(pattern) == name:
                return entry
        return None


def _host(text: str) -> str | None:
    from hands.net.hosts import ascii_host  # its IDNA tables load only for a domain entry

    return ascii_host(text)
