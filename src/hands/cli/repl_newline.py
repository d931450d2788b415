r"""Newlines in the input line: Esc then Enter, or a backslash right before Enter.

``first line\`` then Enter leaves ``first line`` and starts a second line, as in a shell;
the backslash is not sent. Enter anywhere else sends the prompt. Ctrl-J is left alone:
keys typed before the prompt is drawn arrive with Enter turned into Ctrl-J, and must
still send.
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings


def add_newline_keys(bindings: KeyBindings) -> None:
    """Bind Esc-Enter and backslash-Enter to insert a newline."""

    @bindings.add("escape", "enter")
    def _newline(event: Any) -> None:
        event.current_buffer.insert_text("\n")

    @Condition
    def after_backslash() -> bool:
        from prompt_toolkit.application import get_app

        return get_app().current_buffer.document.text_before_cursor.endswith("\\")

    @bindings.add("enter", filter=after_backslash)
    def _continued(event: Any) -> None:
        buffer = event.current_buffer
        buffer.delete_before_cursor(1)
        buffer.insert_text("\n")
