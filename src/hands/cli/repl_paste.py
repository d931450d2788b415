"""Large pastes in the input line: shown as ``[Pasted text #N +L lines]``, sent in full.

A bracketed paste of more than :data:`MAX_INLINE_LINES` lines or :data:`MAX_INLINE_CHARS`
characters is kept aside and a placeholder takes its place in the line; a smaller one is
inserted as it is. Text typed around a placeholder is edited as usual, and each intact
placeholder becomes its paste again when the line is sent (and in the history), so the
model gets every character. A placeholder the user broke by editing it is sent as typed.
Pasting the same text again right after its placeholder expands it in the line.
"""

from __future__ import annotations

import re
from typing import Any

from prompt_toolkit.history import FileHistory
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.keys import Keys

MAX_INLINE_LINES = 3
"""A paste of more lines than this collapses."""
MAX_INLINE_CHARS = 800
"""A paste of more characters than this collapses, however few its lines."""

_PLACEHOLDER = re.compile(r"\[Pasted text #(\d+)(?: \+\d+ lines?)?\]")


def _placeholder(number: int, text: str) -> str:
    lines = len(text.splitlines())
    return f"[Pasted text #{number} +{lines} lines]" if lines > 1 else f"[Pasted text #{number}]"


class Pastes:
    """The session's collapsed pastes, by number."""

    def __init__(self) -> None:
        self._texts: dict[int, tuple[str, str]] = {}
        """number → (placeholder, text)."""

    def add(self, text: str) -> str:
        """What a paste of ``text`` puts into the line: itself, or a placeholder for it."""
        if len(text.splitlines()) <= MAX_INLINE_LINES and len(text) <= MAX_INLINE_CHARS:
            return text
        number = len(self._texts) + 1
        shown = _placeholder(number, text)
        self._texts[number] = (shown, text)
        return shown

    def pasted(self, text: str, before_cursor: str) -> tuple[int, str]:
        """A paste at the cursor: the characters before the cursor it replaces, and its text.

        The same text pasted again right after its placeholder expands it in the line,
        so it can be edited there: the placeholder goes and the full text takes its place.
        """
        last = self._texts.get(len(self._texts))
        if last is not None and last[1] == text and before_cursor.endswith(last[0]):
            return len(last[0]), text
        return 0, self.add(text)

    def expand(self, line: str) -> str:
        """``line`` with each intact placeholder replaced by its paste."""

        def whole(match: re.Match[str]) -> str:
            kept = self._texts.get(int(match.group(1)))
            return kept[1] if kept is not None and kept[0] == match.group(0) else match.group(0)

        return _PLACEHOLDER.sub(whole, line) if self._texts else line

    def bind(self, bindings: KeyBindings) -> None:
        """A bracketed paste goes through :meth:`add`."""

        @bindings.add(Keys.BracketedPaste)
        def _paste(event: Any) -> None:
            data = event.data.replace("\r\n", "\n").replace("\r", "\n")
            buffer = event.current_buffer
            replaced, text = self.pasted(data, buffer.document.text_before_cursor)
            if replaced:
                buffer.delete_before_cursor(replaced)
            buffer.insert_text(text)


class PasteHistory(FileHistory):
    """A file history that keeps each line with its pastes in full."""

    def __init__(self, filename: str, pastes: Pastes) -> None:
        super().__init__(filename)
        self.pastes = pastes

    def append_string(self, string: str) -> None:
        """Keep ``string`` with its placeholders expanded."""
        super().append_string(self.pastes.expand(string))
