"""``/vim``: switch the input line between vi keys and the usual (Emacs) keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prompt_toolkit.enums import EditingMode
from rich.text import Text

if TYPE_CHECKING:
    from hands.cli.repl import Repl


async def run(repl: Repl, arg: str) -> bool:
    """Toggle the editing mode of the input line."""
    session = repl.keys.session
    vi = session.editing_mode != EditingMode.VI
    session.editing_mode = EditingMode.VI if vi else EditingMode.EMACS
    said = (
        "vi keys on: Esc for normal mode, i to insert; /vim again to turn them off."
        if vi
        else "vi keys off: the usual editing keys."
    )
    repl.console.print(Text(said, style="cyan"))
    return True
