"""The permission mode, always under the input line, with the settings' status line.

The bottom toolbar shows the mode in force and what it means; Shift-Tab changes it in
place, so cycling prints nothing into the scrollback. A ``statusLine`` command's line,
when the settings have one, stays under it. The toolbar is drawn as plain text (not
prompt_toolkit's reversed bar), and it is gone from the screen once a line is sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prompt_toolkit.formatted_text import StyleAndTextTuples, to_formatted_text
from prompt_toolkit.styles import Style

if TYPE_CHECKING:
    from hands.cli.repl import Repl

HINT = " · Shift-Tab cycles"

MEANING = {
    "default": "asks before edits and commands",
    "acceptEdits": "file edits go ahead unasked",
    "plan": "plans, changes nothing",
    "bypassPermissions": "nothing is asked",
    "dontAsk": "what would be asked is refused",
}
"""Each mode in a few words: the bar fits a narrow terminal."""

_COLOURS = {
    "acceptEdits": "fg:ansimagenta",
    "plan": "fg:ansicyan",
    "bypassPermissions": "fg:ansired bold",
    "dontAsk": "fg:ansiyellow",
}


def mode_line(mode: str) -> StyleAndTextTuples:
    """The mode's line: its name and meaning, coloured unless it is the default."""
    said = f"mode {mode} · {MEANING.get(mode, mode)}"
    return [(_COLOURS.get(mode, ""), said), ("fg:ansibrightblack", HINT)]


def install(repl: Repl) -> None:
    """Put the mode line under the REPL's input, above a status line already there."""
    session = repl.keys.session
    status = session.bottom_toolbar

    def toolbar() -> StyleAndTextTuples:
        parts = mode_line(repl.mode)
        if status is not None:
            parts = [*parts, ("", "\n"), *to_formatted_text(status)]
        return parts

    session.bottom_toolbar = toolbar
    session.style = Style.from_dict({"bottom-toolbar": "noreverse", "bottom-toolbar.text": ""})
