"""The file tools: Read, Write, Edit, MultiEdit, NotebookEdit.

What other layers may use is named here and imported on first use; the family's
``_modules`` are its own.
"""

import typing

from hands import _lazy

if typing.TYPE_CHECKING:
    from hands.tools.file._atomic import write_atomic

_EXPORTS = {
    "write_atomic": "._atomic",
}

__getattr__, __dir__ = _lazy.exports(__name__, _EXPORTS)

__all__ = [
    "write_atomic",
]
