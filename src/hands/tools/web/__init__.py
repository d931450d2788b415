"""The web tools: WebFetch reads one URL, WebSearch asks a search backend.

What other layers and the browser may use (the address guard, URL parsing, and WebFetch,
whose rules the browser shares) is named here and imported on first use; the family's
``_modules`` are its own.
"""

import typing

from hands import _lazy

if typing.TYPE_CHECKING:
    from hands.tools.web._guard import ResolveError, opened_hosts, resolve
    from hands.tools.web._urls import parse_url
    from hands.tools.web.web_fetch import WebFetchTool

_EXPORTS = {
    "ResolveError": "._guard",
    "opened_hosts": "._guard",
    "parse_url": "._urls",
    "resolve": "._guard",
    "WebFetchTool": ".web_fetch",
}

__getattr__, __dir__ = _lazy.exports(__name__, _EXPORTS)

__all__ = ["ResolveError", "WebFetchTool", "opened_hosts", "parse_url", "resolve"]
