"""Transcripts: one JSONL file per session under the hands home, for --continue/--resume."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from hands.agent.interruption import is_interruption_marker
from hands.core.messages import Message, ToolResultBlock, message_from_wire
from hands.errors import ConfigError

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")
COMPACT_BOUNDARY = "compact_boundary"


def project_dir(home: Path, cwd: Path) -> Path:
    """Where the transcripts of sessions started in ``cwd`` live."""
    return home / "projects" / (_UNSAFE.sub("-", str(cwd.resolve())).strip("-") or "root")


class TranscriptWriter:
    """Appends each message (and state snapshots) as it happens; a crash loses nothing.

    A crash can leave a torn last line (a session killed mid-write). Going on with such a
    file (``--resume``) starts on a new line, so the torn line is the only one lost.
    """

    def __init__(self, path: Path, *, session_id: str, cwd: Path) -> None:
        self.path = path
        self.session_id = session_id
        self.cwd = cwd
        self._tail_checked = False
        path.parent.mkdir(parents=True, exist_ok=True)

    def message(self, message: Message, *, uuids: Sequence[str] = ()) -> None:
        """Record one conversation message.

        ``uuids``: the ids a program was shown for it (an Agent SDK's message ``uuid``;
        an assistant message goes out as one line per block), to resume at later.
        """
        entry: dict[str, Any] = {"type": message.role, "message": message.to_wire()}
        if uuids:
            entry["uuids"] = list(uuids)
        self._append(entry)

    def boundary(
        self,
        messages: Iterable[Message],
        *,
        trigger: str,
        tokens_before: int,
        method: str = "",
        left_out: int = 0,
    ) -> None:
        """Record a compaction: from here on the conversation is ``messages``.

        Reading the transcript back (``--resume``) starts again from them; the messages
        before stay in the file, for people. ``method``: how the summary was made
        (``whole`` or ``parts``); ``left_out``: messages dropped without a summary.
        """
        entry: dict[str, Any] = {
            "type": COMPACT_BOUNDARY,
            "trigger": trigger,
            "tokens_before": tokens_before,
            "messages": [m.to_wire() for m in messages],
        }
        if method:
            entry["summary_method"] = method
        if left_out:
            entry["left_out_messages"] = left_out
        self._append(entry)

    def state(self, kind: str, data: Any) -> None:
        """Record a state snapshot (the read-state cache...) restored on resume."""
        self._append({"type": "state", "kind": kind, "data": data})

    def _append(self, entry: dict[str, Any]) -> None:
        entry.update(session_id=self.session_id, cwd=str(self.cwd), timestamp=time.time())
        data = encode_line(entry).encode("utf-8")
        if not self._tail_checked:
            self._tail_checked = True
            if _ends_torn(self.path):
                data = b"\n" + data
        with self.path.open("ab") as f:
            f.write(data)


def _ends_torn(path: Path) -> bool:
    """Whether ``path`` ends in the middle of a line (a crash cut its last write)."""
    try:
        with path.open("rb") as f:
            if f.seek(0, 2) == 0:
                return False
            f.seek(-1, 2)
            return f.read(1) != b"\n"
    except OSError:
        return False


def encode_line(entry: Mapping[str, Any]) -> str:
    """One JSONL line for ``entry``, whatever text it holds.

    Text is written as UTF-8 where it can be; a line holding text that is not valid
    Unicode (a lone surrogate from undecodable bytes) is written with JSON escapes
    instead, which JSON reads back to the very same string: nothing is lost.
    """
    try:
        line = json.dumps(entry, ensure_ascii=False)
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(entry)
    return line + "\n"


@dataclass(frozen=True, kw_only=True, slots=True)
class Transcript:
    """A session read back: its messages (after its last compaction) and latest states."""

    session_id: str
    path: Path
    messages: tuple[Message, ...]
    states: Mapping[str, Any]
    skipped: int = 0
    """Lines that could not be read (torn, not UTF-8, not an entry) and were left out."""
    message_ids: tuple[tuple[str, ...], ...] = ()
    """The ids each of :attr:`messages` was shown by (empty for messages without)."""
    first_prompt: str = ""
    """The user's first prompt in the file, before any compaction summarised it away."""
    prompt_count: int = 0
    """The user's prompts in the whole file, compactions or not."""


def load(path: Path) -> Transcript:
    """Read a transcript; a missing file is an error, lines that cannot be read are skipped.

    A torn last line after a crash, a line that is not UTF-8 or not a JSON object, or an
    entry of the wrong shape is left out and counted in :attr:`Transcript.skipped`.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read transcript {path}: {exc.strerror}") from exc
    messages: list[Message] = []
    ids: list[tuple[str, ...]] = []
    states: dict[str, Any] = {}
    skipped = 0
    said: list[Message] = []  # every prompt as written, for people (a summary replaces them)
    for raw in data.splitlines():
        if not raw.strip():
            continue
        try:
            entry = json.loads(raw.decode("utf-8"))
            if not isinstance(entry, dict):
                raise TypeError("not an object")
            fields = cast(dict[str, Any], entry)
            if fields.get("type") in ("user", "assistant"):
                message = message_from_wire(fields["message"])
                messages.append(message)
                ids.append(tuple(str(u) for u in cast(list[object], fields.get("uuids", []))))
                said.extend(prompts([message]))
            elif fields.get("type") == "state":
                states[str(fields["kind"])] = fields["data"]
            elif fields.get("type") == COMPACT_BOUNDARY:
                kept = [message_from_wire(m) for m in fields["messages"]]
                messages = kept  # the conversation goes on from the compacted one
                ids = [() for _ in kept]
        except (ValueError, KeyError, TypeError, AttributeError):
            skipped += 1
    settled = settled_length(messages)
    return Transcript(
        session_id=path.stem,
        path=path,
        messages=tuple(messages[:settled]),
        states=states,
        skipped=skipped,
        message_ids=tuple(ids[:settled]),
        first_prompt=" ".join(said[0].text.split()) if said else "",
        prompt_count=len(said),
    )


def settled_length(messages: Sequence[Message]) -> int:
    """How many of ``messages`` make a conversation the API takes.

    A transcript cut mid-turn may end with an assistant message whose tool_use blocks
    never got results; the API refuses that, so such a tail is left out.
    """
    end = len(messages)
    while end and messages[end - 1].role == "assistant" and messages[end - 1].tool_uses:
        end -= 1
    return end


def sessions(home: Path, cwd: Path) -> list[Path]:
    """The transcripts of sessions started in ``cwd``, newest first; empty ones left out."""
    directory = project_dir(home, cwd)
    if not directory.is_dir():
        return []
    found = [p for p in directory.glob("*.jsonl") if p.stat().st_size > 0]
    return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)


def prompts(messages: Iterable[Message]) -> list[Message]:
    """The user's own prompts among ``messages``: no results, reminders, interruptions."""
    return [
        m
        for m in messages
        if m.role == "user"
        and m.text.strip()
        and not any(isinstance(b, ToolResultBlock) for b in m.content)
        and not m.text.lstrip().startswith("<system-reminder>")
        and not is_interruption_marker(m)
    ]


@dataclass(frozen=True, kw_only=True, slots=True)
class SessionSummary:
    """What a list of sessions shows about one: when, what it began with, how long it is."""

    session_id: str
    path: Path
    modified: float
    first_prompt: str
    turns: int
    size: int


def summarize(path: Path) -> SessionSummary:
    """The summary of one transcript."""
    read = load(path)
    stat = path.stat()
    return SessionSummary(
        session_id=path.stem,
        path=path,
        modified=stat.st_mtime,
        first_prompt=read.first_prompt,
        turns=read.prompt_count,
        size=stat.st_size,
    )


def find(home: Path, cwd: Path, *, session_id: str | None) -> Path:
    """The transcript to resume: by id (in any project), or this project's newest."""
    if not session_id:
        found = sessions(home, cwd)
        if not found:
            raise ConfigError(
                f"no earlier session to continue in {cwd}; start one with `hands` or `hands -p`"
            )
        return found[0]
    matches = list((home / "projects").glob(f"*/{_UNSAFE.sub('-', session_id)}.jsonl"))
    if not matches:
        raise ConfigError(f"no session with id {session_id!r}; `hands sessions` lists them")
    return matches[0]


def write_all(writer: TranscriptWriter, messages: Iterable[Message]) -> None:
    """Record messages carried over from an earlier session."""
    for message in messages:
        writer.message(message)
