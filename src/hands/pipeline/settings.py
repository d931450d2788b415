"""What a session's settings give its tools: the network domains and the Bash settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hands.permissions.domains import NetworkDomains
from hands.permissions.network import network_domains
from hands.pipeline.pool import FETCHER, BuiltinGrammar
from hands.tools.bash import BashSettings, install

if TYPE_CHECKING:
    from hands.config.settings import Settings
    from hands.core.session import Session


def install_settings(session: Session, settings: Settings) -> BashSettings:
    """Give ``session`` the domains its settings open, and its Bash settings.

    The domains (for the sandbox's proxy and WebFetch's address guard) are
    ``sandbox.network`` joined by WebFetch's own ``domain:`` rules, no other tool's.
    """
    # WebFetch's module is imported only if a settings rule about it needs its subject
    network = network_domains(settings, fetcher=BuiltinGrammar(only=(FETCHER,)))
    session.service(NetworkDomains, lambda: network)
    return install(session, settings, network=network)
