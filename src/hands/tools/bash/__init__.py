"""The shell tools: Bash, its background shells (TaskOutput, TaskStop, Monitor) and the sandbox.

What other layers may use is named here and imported on first use; the family's
``_modules`` are its own.
"""

import typing

from hands import _lazy

if typing.TYPE_CHECKING:
    from hands.tools.bash._settings import BashSettings, SandboxSettings, install

_EXPORTS = {
    "BashSettings": "._settings",
    "SandboxSettings": "._settings",
    "install": "._settings",
}

__getattr__, __dir__ = _lazy.exports(__name__, _EXPORTS)

__all__ = [
    "BashSettings",
    "SandboxSettings",
    "install",
]
