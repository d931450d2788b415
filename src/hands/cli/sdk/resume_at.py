"""Messages known by the ``uuid`` a program saw: recorded, then resumed at.

Each message line hands sends an SDK program carries a ``uuid``; the transcript keeps,
with every message, the uuids it went out under (an assistant message goes out as one
line per block, so it has several; a prompt has its own). ``--resume-session-at UUID``
then resumes the conversation up to and including the message shown by that uuid, and
``--resume-drops-turn PROMPT`` checks first that what is left out is that prompt's turn
and nothing else (a queued prompt or a notice the program has not seen would be lost).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from hands.agent.events import BlockEvent, MessageEvent
from hands.agent.transcript import Transcript, settled_length
from hands.cli.args import UsageError
from hands.core.messages import Message, ToolResultBlock

REJECTED = "Resume rejected by --resume-drops-turn:"
"""How a refused ``--resume-drops-turn`` starts; the SDK tells programs to match on it."""


class ResumeRefused(UsageError):
    """The resume cannot be cut as asked; the session is not started."""

    def __init__(self, message: str, *, session_id: str) -> None:
        super().__init__(message)
        self.session_id = session_id


@dataclass(kw_only=True)
class ShownIds:
    """Gathers the uuids of the lines sent for each message, until it is recorded."""

    _blocks: list[str] = field(default_factory=lambda: list[str]())

    def of(self, event: object, sent: Sequence[dict[str, Any]]) -> list[str] | None:
        """The uuids to record ``event``'s message with (None: not a message yet)."""
        ids = [str(line["uuid"]) for line in sent if "uuid" in line]
        if isinstance(event, BlockEvent):
            self._blocks.extend(ids)
            return None
        if isinstance(event, MessageEvent):
            shown, self._blocks = [*self._blocks, *ids], []
            return shown
        return []


def cut(transcript: Transcript, at: str, *, drops_turn: str | None) -> list[Message]:
    """The conversation of ``transcript`` up to the message shown as ``at``.

    Raises :class:`ResumeRefused` when no message has that uuid, or when ``drops_turn``
    is given and what would be left out is not exactly that prompt's turn.
    """
    ids = transcript.message_ids
    where = next((n for n, shown in enumerate(ids) if at in shown), None)
    if where is None:
        raise ResumeRefused(
            f"--resume-session-at: no message of session {transcript.session_id} was shown "
            f"as {at!r} (hands knows the uuids of the messages it sent an SDK program)",
            session_id=transcript.session_id,
        )
    if drops_turn is not None:
        _check_dropped(transcript, where, drops_turn)
    kept = list(transcript.messages[: where + 1])
    return kept[: settled_length(kept)]


def _is_prompt(message: Message) -> bool:
    return message.role == "user" and not any(
        isinstance(b, ToolResultBlock) for b in message.content
    )


def _check_dropped(transcript: Transcript, where: int, drops_turn: str) -> None:
    later = list(
        zip(transcript.messages[where + 1 :], transcript.message_ids[where + 1 :], strict=True)
    )
    prompts = [shown for message, shown in later if _is_prompt(message)]
    if not later:
        return  # nothing is left out
    if not (_is_prompt(later[0][0]) and drops_turn in later[0][1]):
        raise ResumeRefused(
            f"{REJECTED} what follows the resume point is not the turn of prompt {drops_turn!r}",
            session_id=transcript.session_id,
        )
    if len(prompts) > 1:
        raise ResumeRefused(
            f"{REJECTED} {len(prompts) - 1} more prompt(s) or notice(s) after prompt "
            f"{drops_turn!r} would be left out too",
            session_id=transcript.session_id,
        )
