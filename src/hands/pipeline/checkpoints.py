"""Checkpoints: what each file was before a user turn changed it, so the turn can be undone.

Before a call of a tool that writes a path (its subject says so: Edit, Write, MultiEdit,
NotebookEdit, a user's write tool) runs, the file's content is kept, once per file and
turn, under the session's folder (``checkpoints/``): so ``--resume`` keeps them, and they
go when the session is pruned. :meth:`CheckpointStore.rewind` puts every file changed
since the start of a turn back as it was then (a file the turns created is removed).

Files a shell command changes in a git work tree are recorded after it ran, with the
content :mod:`hands.pipeline.shell_changes` kept or found in git's index. Disk use is
bounded: a file larger than :data:`MAX_FILE_BYTES` is not kept (the turn says so), and
past :data:`MAX_STORE_BYTES` the oldest turns are dropped.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

MAX_FILE_BYTES = 10_000_000
MAX_STORE_BYTES = 500_000_000


@dataclass(frozen=True, kw_only=True, slots=True)
class FileBefore:
    """One file as it was before a turn first changed it."""

    path: str
    existed: bool
    blob: str = ""
    """The name of the kept content ("" when the file did not exist or was too large)."""
    kept: bool = True
    """False when the file was too large to keep: it cannot be put back."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Turn:
    """One user turn: its number, what the user said, and the files it changed."""

    number: int
    prompt: str
    message_index: int
    """How many conversation messages came before the turn's prompt."""
    started: float
    files: tuple[FileBefore, ...] = ()


@dataclass(frozen=True, kw_only=True, slots=True)
class Rewound:
    """What a rewind did."""

    restored: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    """Files the rewound turns had created."""
    lost: tuple[str, ...] = ()
    """Files that could not be put back (too large to have been kept, or unwritable)."""


@dataclass(kw_only=True)
class CheckpointStore:
    """The checkpoints of one session, in ``directory`` (``<session>/checkpoints``)."""

    directory: Path
    max_file_bytes: int = MAX_FILE_BYTES
    max_store_bytes: int = MAX_STORE_BYTES
    enabled: bool = True
    """False: no turn and no file is recorded (an SDK session without file checkpointing)."""
    _turns: list[Turn] = field(default_factory=lambda: list[Turn]())
    _loaded: bool = False

    # -- turns -------------------------------------------------------------------------

    def turns(self) -> list[Turn]:
        """Every turn kept, oldest first."""
        self._load()
        return list(self._turns)

    def begin_turn(self, prompt: str, *, message_index: int) -> Turn:
        """A user turn starts: later writes are recorded under it."""
        if not self.enabled:
            return Turn(number=0, prompt="", message_index=message_index, started=time.time())
        self._load()
        number = self._turns[-1].number + 1 if self._turns else 1
        turn = Turn(
            number=number, prompt=prompt[:500], message_index=message_index, started=time.time()
        )
        self._turns.append(turn)
        if self._index.exists():  # nothing is written for a session that changed no file
            self._save()
        return turn

    @property
    def recording(self) -> bool:
        """Whether writes are being recorded (checkpoints on, a turn begun)."""
        self._load()
        return self.enabled and bool(self._turns)

    def kept_paths(self) -> set[str]:
        """The files whose content before the current turn is kept already."""
        self._load()
        return {f.path for f in self._turns[-1].files} if self._turns else set()

    def record(self, path: Path) -> None:
        """``path`` is about to be written: keep what it is now, if this turn has not yet."""
        target = str(path.absolute())
        self._add(target, lambda: self._keep(path, target))

    def record_content(self, path: Path, *, existed: bool, content: bytes | None) -> None:
        """``path`` was changed and was ``content`` before (a shell command's change).

        ``existed`` False: the file did not exist; ``content`` None: it could not be kept.
        """
        target = str(path.absolute())
        self._add(target, lambda: self._keep_bytes(target, existed=existed, content=content))

    def _add(self, target: str, keep: Callable[[], FileBefore]) -> None:
        self._load()
        if not self.enabled or not self._turns:
            return
        turn = self._turns[-1]
        if any(f.path == target for f in turn.files):
            return
        before = keep()
        self._turns[-1] = Turn(
            number=turn.number,
            prompt=turn.prompt,
            message_index=turn.message_index,
            started=turn.started,
            files=(*turn.files, before),
        )
        self._save()
        self._prune()

    # -- rewinding ---------------------------------------------------------------------

    def rewind(self, number: int) -> Rewound:
        """Put every file the turns from ``number`` on changed back as it was before them.

        The turns from ``number`` on are then forgotten (their changes are undone).
        """
        self._load()
        later = [t for t in self._turns if t.number >= number]
        first: dict[str, FileBefore] = {}
        for turn in later:
            for before in turn.files:
                first.setdefault(before.path, before)
        restored: list[str] = []
        removed: list[str] = []
        lost: list[str] = []
        for path, before in first.items():
            try:
                if not before.kept:
                    lost.append(path)
                elif not before.existed:
                    Path(path).unlink(missing_ok=True)
                    removed.append(path)
                else:
                    _write_whole(Path(path), (self._blobs / before.blob).read_bytes())
                    restored.append(path)
            except OSError:
                lost.append(path)
        self._turns = [t for t in self._turns if t.number < number]
        self._save()
        return Rewound(restored=tuple(restored), removed=tuple(removed), lost=tuple(lost))

    def forget(self, number: int) -> None:
        """Drop the turns from ``number`` on, files left as they are now.

        A conversation rewound without its files: those turns are no longer in the
        conversation, so their checkpoints go (and the contents only they kept).
        """
        self._load()
        self._turns = [t for t in self._turns if t.number < number]
        self._drop_unused(_blob_sizes(self._blobs))
        self._save()

    def turn_at_message(self, message_index: int) -> Turn | None:
        """The turn whose prompt is message ``message_index`` (or the first one after it).

        None when no kept turn is that late.
        """
        return next((t for t in self.turns() if t.message_index >= message_index), None)

    def rewind_to_message(self, message_index: int) -> Rewound:
        """Put the files back as they were before the prompt at ``message_index``.

        The SDK's ``rewind_files`` (which names a user message) calls this.
        """
        turn = self.turn_at_message(message_index)
        return Rewound() if turn is None else self.rewind(turn.number)

    def changed_since(self, number: int) -> list[str]:
        """The files the turns from ``number`` on changed."""
        return sorted({f.path for t in self.turns() if t.number >= number for f in t.files})

    # -- storage -----------------------------------------------------------------------

    @property
    def _blobs(self) -> Path:
        return self.directory / "blobs"

    @property
    def _index(self) -> Path:
        return self.directory / "turns.json"

    def _keep(self, path: Path, target: str) -> FileBefore:
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            return FileBefore(path=target, existed=False)
        except OSError:
            return FileBefore(path=target, existed=True, kept=False)
        if size > self.max_file_bytes:
            return FileBefore(path=target, existed=True, kept=False)
        try:
            data = path.read_bytes()
        except OSError:
            return FileBefore(path=target, existed=True, kept=False)
        return self._keep_bytes(target, existed=True, content=data)

    def _keep_bytes(self, target: str, *, existed: bool, content: bytes | None) -> FileBefore:
        if not existed:
            return FileBefore(path=target, existed=False)
        if content is None or len(content) > self.max_file_bytes:
            return FileBefore(path=target, existed=True, kept=False)
        data = content
        blob = hashlib.sha256(data).hexdigest()
        stored = self._blobs / blob
        if not stored.exists():
            self._blobs.mkdir(parents=True, exist_ok=True)
            _write_whole(stored, data)
        return FileBefore(path=target, existed=True, blob=blob)

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        try:
            raw = json.loads(self._index.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        self._turns = [_turn(t) for t in cast(list[dict[str, Any]], raw.get("turns", []))]

    def _save(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        data = {"turns": [_wire(t) for t in self._turns]}
        _write_whole(self._index, json.dumps(data).encode())

    def _prune(self) -> None:
        """Drop the oldest turns while the kept contents take more than the bound."""
        sizes = _blob_sizes(self._blobs)
        while len(self._turns) > 1 and sum(sizes.values()) > self.max_store_bytes:
            self._turns.pop(0)
            self._drop_unused(sizes)
        self._save()

    def _drop_unused(self, sizes: dict[str, int]) -> None:
        """Delete the kept contents no turn refers to any more (``sizes`` follows)."""
        used = {f.blob for t in self._turns for f in t.files if f.blob}
        for blob in [b for b in sizes if b not in used]:
            (self._blobs / blob).unlink(missing_ok=True)
            del sizes[blob]

    def remove(self) -> None:
        """Delete every checkpoint of the session."""
        shutil.rmtree(self.directory, ignore_errors=True)
        self._turns = []


def _blob_sizes(blobs: Path) -> dict[str, int]:
    try:
        return {p.name: p.stat().st_size for p in blobs.iterdir()}
    except OSError:
        return {}


def _write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all, as the file tools write."""
    from hands.tools.file import write_atomic

    write_atomic(path, data)


def _wire(turn: Turn) -> dict[str, Any]:
    return {
        "number": turn.number,
        "prompt": turn.prompt,
        "message_index": turn.message_index,
        "started": turn.started,
        "files": [
            {"path": f.path, "existed": f.existed, "blob": f.blob, "kept": f.kept}
            for f in turn.files
        ],
    }


def _turn(raw: dict[str, Any]) -> Turn:
    files = cast(Sequence[dict[str, Any]], raw.get("files", []))
    return Turn(
        number=int(raw["number"]),
        prompt=str(raw.get("prompt", "")),
        message_index=int(raw.get("message_index", 0)),
        started=float(raw.get("started", 0.0)),
        files=tuple(
            FileBefore(
                path=str(f["path"]),
                existed=bool(f["existed"]),
                blob=str(f.get("blob", "")),
                kept=bool(f.get("kept", True)),
            )
            for f in files
        ),
    )


def store_for(session_directory: Path) -> CheckpointStore:
    """The checkpoint store of the session whose folder is ``session_directory``."""
    return CheckpointStore(directory=session_directory / "checkpoints")


DEFAULT_KEEP_DAYS = 30
"""How long a session's checkpoints are kept (the settings' ``cleanupPeriodDays``)."""


def prune_checkpoints(
    home: Path, *, days: float = DEFAULT_KEEP_DAYS, now: float | None = None
) -> int:
    """Delete the checkpoints of sessions untouched for ``days``; how many were deleted.

    A session's checkpoints count as touched when its turns were last written.
    """
    cutoff = (time.time() if now is None else now) - days * 86_400
    removed = 0
    for index in (home / "sessions").glob("*/checkpoints/turns.json"):
        try:
            stale = index.stat().st_mtime < cutoff
        except OSError:
            continue
        if stale:
            shutil.rmtree(index.parent, ignore_errors=True)
            removed += 1
    return removed
