"""What an interrupted turn leaves in the conversation.

The text the model had streamed when the user stopped it is kept as the assistant's
(cut short) reply, and a user message marks the point where the user stopped it, so the
model knows, on the next prompt, that its answer was cut and its calls did not all run.
"""

from __future__ import annotations

from hands.core.messages import Message, TextBlock, user_text

STOPPED_REPLY = "[The user interrupted the reply at this point.]"
"""After a reply cut short while it streamed."""
STOPPED_CALLS = "[The user interrupted the turn while its tool calls were being approved or run.]"
"""After tool calls the interruption refused or stopped."""


def interruption_marker(*, during_calls: bool) -> Message:
    """The user message that records the interruption."""
    return user_text(STOPPED_CALLS if during_calls else STOPPED_REPLY)


def is_interruption_marker(message: Message) -> bool:
    """Whether ``message`` is such a record (not a prompt the user wrote)."""
    return message.role == "user" and message.text in (STOPPED_CALLS, STOPPED_REPLY)


class PartialText:
    """The text blocks a stream has begun and not finished, by block index."""

    def __init__(self) -> None:
        self._open: dict[int, str] = {}

    def add(self, index: int, text: str) -> None:
        """A fragment of block ``index``."""
        self._open[index] = self._open.get(index, "") + text

    def done(self, index: int) -> None:
        """Block ``index`` arrived whole: it is no longer partial."""
        self._open.pop(index, None)

    def blocks(self) -> list[TextBlock]:
        """The unfinished blocks with text in them, in stream order."""
        return [TextBlock(text=text) for _, text in sorted(self._open.items()) if text.strip()]
