"""Search tools: Glob and Grep, both on ripgrep.

What other layers may use is named here and imported on first use; the family's
``_modules`` are its own.
"""

import typing

from hands import _lazy

if typing.TYPE_CHECKING:
    from hands.tools.search._rg import rg_path

_EXPORTS = {
    "rg_path": "._rg",
}

__getattr__, __dir__ = _lazy.exports(__name__, _EXPORTS)

__all__ = [
    "rg_path",
]
