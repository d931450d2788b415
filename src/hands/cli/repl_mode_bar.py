"""The permission mode, always under the input line, with the settings' status line.

The bottom toolbar shows the mode in force and what it means; Shift-Tab changes it in
place, so cycling prints nothing into the scrollback. A ``statusLine`` command's line,
when the settings have one, stays under it. The toolbar is drawn as plain text (not
prompt_toolkit's reversed bar), and it is gone from the screen once a line is sent.
While a turn runs the same line sits under the working line (Shift-Tab works there too:
the calls that start from then on run in the new mode), above what is typed meanwhile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prompt_toolkit.formatted_text import StyleAndTextTuples, to_formatted_text
from prompt_toolkit.styles import Style
from rich.console import Group, RenderableType
from rich.text import Text

if TYPE_CHECKING:
    from hands.cli.repl import Repl
    from hands.core.context import PermissionMode

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


def _said(mode: str) -> str:
    return f"mode {mode} · {MEANING.get(mode, mode)}"


def mode_line(mode: str) -> StyleAndTextTuples:
    """The mode's line: its name and meaning, coloured unless it is the default."""
    return [(_COLOURS.get(mode, ""), _said(mode)), ("fg:ansibrightblack", HINT)]


def under_turn(mode: str, typed: RenderableType | None) -> RenderableType:
    """The mode's line for under a running turn, then what is typed meanwhile, if any."""
    style = _COLOURS.get(mode, "").removeprefix("fg:").replace("ansi", "")
    line = Text.assemble((_said(mode), style), (HINT, "dim"))
    return line if typed is None else Group(line, typed)


def mode_now(repl: Repl) -> PermissionMode:
    """The mode in force: the running turn's (a tool may change it), else the REPL's."""
    turn = repl.running
    return turn.permission_mode if turn is not None else repl.mode


def cycle_mode(repl: Repl) -> None:
    """Shift-Tab: the next permission mode, for the running turn's next calls too."""
    from hands.cli.repl_commands import next_mode
    from hands.permissions import plan_mode

    before = mode_now(repl)
    repl.mode = next_mode(before, bypass=repl.bypass_in_cycle)
    if plan_mode.planning(repl.mode):
        plan_mode.enter(repl.setup.session, before)
    turn = repl.running
    if turn is not None:
        turn.set_permission_mode(repl.mode)


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
