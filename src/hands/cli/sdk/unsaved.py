"""``--no-session-persistence``: the main conversation is not written to disk."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from hands.agent.transcript import TranscriptWriter
from hands.core.messages import Message


class UnsavedTranscript(TranscriptWriter):
    """A transcript that records nothing (such a session cannot be resumed)."""

    def message(self, message: Message, *, uuids: Sequence[str] = ()) -> None:
        """Nothing is written."""

    def boundary(
        self,
        messages: Iterable[Message],
        *,
        trigger: str,
        tokens_before: int,
        method: str = "",
        left_out: int = 0,
    ) -> None:
        """Nothing is written."""

    def state(self, kind: str, data: Any) -> None:
        """Nothing is written."""
