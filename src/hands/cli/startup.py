"""Start-up time of the ``hands`` command.

pydantic looks for plugins in every installed package's metadata when the first model
is built (~20 ms in a typical environment). The command sets
``PYDANTIC_DISABLE_PLUGINS`` while it builds its own models, then puts the environment
back before any tool runs, so the commands it starts see the user's environment
unchanged. A value the user set is never touched. When start-up is over, the code of
the classes it made is kept for the next start (:mod:`hands.cli.dataclass_code`).
"""

from __future__ import annotations

import os

from hands.cli import dataclass_code

_VAR = "PYDANTIC_DISABLE_PLUGINS"
_state = {"set_here": False}


def begin() -> None:
    """Skip pydantic's plugin scan while the command starts (only if the user did not set it)."""
    if _VAR not in os.environ:
        os.environ[_VAR] = "__all__"
        _state["set_here"] = True


def done() -> None:
    """Restore the environment: called once the tools are built, before any runs."""
    dataclass_code.save()
    if _state["set_here"]:
        os.environ.pop(_VAR, None)
        _state["set_here"] = False
