"""File checkpoints for an SDK program: ``rewind_files`` and the prompts it names.

An SDK program turns checkpointing on with ``enable_file_checkpointing`` (the SDK sets
``CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING``); without it nothing is recorded and
``rewind_files`` is refused. Each prompt read from stdin has a ``uuid`` (the one the
program sent, or a new one), which ``--replay-user-messages`` sends back; ``rewind_files``
names a prompt by it, and every file the session changed from that prompt on is put back
as it was (the same store as the REPL's ``/rewind``). The conversation is not touched.
Prompts of an earlier process of the same session (``--resume``) can be named too, and
so can a parent session's after ``--fork-session`` (the fork starts with a copy of its
checkpoints).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from hands.cli.sdk.control import ControlRefused
from hands.core.messages import Message
from hands.core.session import Session
from hands.pipeline.checkpoints import CheckpointStore, store_for

ENABLE_VARIABLE = "CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING"


def checkpointing_asked() -> bool:
    """Whether the SDK program asked for file checkpointing (its environment says so)."""
    return os.environ.get(ENABLE_VARIABLE, "").strip().lower() not in ("", "0", "false", "no")


@dataclass(frozen=True, kw_only=True, slots=True)
class Prompt:
    """A user message read from stdin (or scheduled), with the ``uuid`` it is known by."""

    message: Message
    uuid: str
    wire: dict[str, Any] | None = None
    """The message as the program sent it (sent back as it came)."""


def replay_line(prompt: Prompt, *, session_id: str) -> dict[str, Any]:
    """The ``user`` line that sends a prompt back (``--replay-user-messages``)."""
    now = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return {
        "type": "user",
        "message": prompt.wire if prompt.wire is not None else prompt.message.to_wire(),
        "session_id": session_id,
        "parent_tool_use_id": None,
        "uuid": prompt.uuid,
        "timestamp": now,
        "isReplay": True,
    }


def inherit_checkpoints(session: Session, parent_id: str) -> None:
    """A session forked from ``parent_id`` starts with a copy of the parent's checkpoints.

    So ``rewind_files`` in the fork reaches the parent's prompts (and the files their turns
    changed), as Claude Code's does; the parent's own store is left as it was.
    """
    import shutil

    source = session.home / "sessions" / parent_id / "checkpoints"
    target = session.directory / "checkpoints"
    if source.is_dir() and not target.exists():
        shutil.copytree(source, target)


PROMPTS_FILE = "prompt-uuids.json"
"""Beside the checkpoints: each prompt's uuid → the conversation position it opened."""


@dataclass(kw_only=True)
class PromptCheckpoints:
    """Which conversation position each prompt's ``uuid`` starts at, and rewinds to it.

    The positions are kept in the session's checkpoint folder, so a session resumed
    with ``--resume`` (the same session id) rewinds to prompts of earlier processes.
    """

    session: Session
    enabled: bool
    _starts: dict[str, int] = field(default_factory=lambda: dict[str, int]())

    def __post_init__(self) -> None:
        # the store the tools record into: off unless the program asked for checkpoints
        self.store.enabled = self.enabled
        if self.enabled:
            self._starts.update(self._saved())

    @property
    def _path(self) -> Path:
        return self.store.directory / PROMPTS_FILE

    def _saved(self) -> dict[str, int]:
        try:
            raw: object = json.loads(self._path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            return {}  # none yet (or unreadable: those prompts cannot be rewound to)
        items = cast(dict[object, object], raw).items() if isinstance(raw, dict) else ()
        return {k: v for k, v in items if isinstance(k, str) and isinstance(v, int)}

    @property
    def store(self) -> CheckpointStore:
        """The session's checkpoint store (the one the tools record into)."""
        session = self.session
        return session.service(CheckpointStore, lambda: store_for(session.directory))

    def remember(self, prompt: Prompt, *, message_index: int) -> None:
        """``prompt`` opens a turn when the conversation has ``message_index`` messages."""
        if prompt.uuid in self._starts:
            return
        self._starts[prompt.uuid] = message_index
        if self.enabled:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            partial = self._path.with_suffix(".tmp")
            partial.write_text(json.dumps(self._starts), encoding="utf-8")
            partial.replace(self._path)

    def rewind(self, request: dict[str, Any]) -> dict[str, Any]:
        """Answer ``rewind_files``: files back as before the named prompt (or, dry, which)."""
        if not self.enabled:
            raise ControlRefused(
                "rewind_files: file checkpointing is off in this session, so no file can be "
                "put back; start the session with enable_file_checkpointing "
                f"({ENABLE_VARIABLE}=true) to record them"
            )
        message_id = request.get("user_message_id")
        start = self._starts.get(message_id) if isinstance(message_id, str) else None
        if start is None:
            raise ControlRefused(
                f"rewind_files: no checkpoint for user message {message_id!r}; name the uuid "
                "of a prompt sent in this session (--replay-user-messages sends them back)"
            )
        store = self.store
        if request.get("dry_run") is True or request.get("dryRun") is True:
            turn = store.turn_at_message(start)
            changed = [] if turn is None else store.changed_since(turn.number)
            return {"canRewind": True, "filesChanged": changed}
        done = store.rewind_to_message(start)
        answer: dict[str, Any] = {
            "canRewind": not done.lost,
            "filesChanged": sorted([*done.restored, *done.removed, *done.lost]),
        }
        if done.lost:
            answer["error"] = "could not put back: " + ", ".join(done.lost)
        return answer
