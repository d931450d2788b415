"""The browser tools: a real headless Chromium driven through accessibility snapshots.

What other layers may use is named here and imported on first use; the family's
``_modules`` are its own.
"""

import typing

from hands import _lazy

if typing.TYPE_CHECKING:
    from hands.tools.browser._settings import missing, offered, pool_note

_EXPORTS = {
    "missing": "._settings",
    "offered": "._settings",
    "pool_note": "._settings",
}

__getattr__, __dir__ = _lazy.exports(__name__, _EXPORTS)

__all__ = [
    "missing",
    "offered",
    "pool_note",
]
