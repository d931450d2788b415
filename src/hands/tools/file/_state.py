"""The read-state cache: what each Read saw, so edits never overwrite unseen changes.

Each Read records the file's size, mtime and content hash and whether the model saw the
whole file. Write, Edit, MultiEdit and NotebookEdit consult it: an existing file must
have been read, and must not have changed on disk since.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeAlias

from hands.core.state import Carried
from hands.tools.file._limits import HASH_LIMIT_BYTES

if TYPE_CHECKING:
    from hands.core.context import ToolContext

ReadKind: TypeAlias = Literal["full", "range", "partial"]
"""full: the whole file was seen; range: an offset/limit the model chose; partial: cut
short by a size cap, so the model has not seen everything it asked for."""


@dataclass(frozen=True, kw_only=True, slots=True)
class FileStamp:
    """Size and modification time: a cheap test for "the file may have changed"."""

    size: int
    mtime_ns: int

    @classmethod
    def of(cls, st: os.stat_result) -> FileStamp:
        """The stamp of a stat result."""
        return cls(size=st.st_size, mtime_ns=st.st_mtime_ns)


@dataclass(frozen=True, kw_only=True, slots=True)
class ReadRecord:
    """What one Read (or one of our own writes) saw of a file."""

    path: Path
    stamp: FileStamp
    digest: str | None
    """Content hash; None for files above the hash limit (the stamp decides alone)."""
    kind: ReadKind
    view: tuple[object, ...] = ()
    """What was asked for (offset, limit, pages): a re-read of the same view may be a stub."""
    by_read: bool = True
    """False when the record comes from our own write rather than a Read."""


def digest_bytes(data: bytes) -> str:
    """Content hash of bytes already in memory."""
    return hashlib.sha256(data).hexdigest()


def digest_file(path: Path, size: int) -> str | None:
    """Content hash of a file, or None when it is too large to hash cheaply."""
    if size > HASH_LIMIT_BYTES:
        return None
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


class ReadStateCache:
    """Per-session map from a file's real path to the last thing seen of it."""

    key: ClassVar[str] = "read_state"

    def __init__(self) -> None:
        self._records: dict[Path, ReadRecord] = {}

    def get(self, path: Path) -> ReadRecord | None:
        """The record for ``path`` (a real path), if any."""
        return self._records.get(path)

    def record(self, record: ReadRecord) -> None:
        """Remember ``record``, replacing any earlier one for the same path (newest last)."""
        self._records.pop(record.path, None)
        self._records[record.path] = record

    def recent(self, count: int) -> list[ReadRecord]:
        """The ``count`` files read most recently, newest first."""
        found = [r for r in reversed(self._records.values()) if r.by_read]
        return found[:count]

    def allow_rereads(self) -> None:
        """What was read is no longer in the conversation: a Read shows the file again.

        Edits still need no new Read (the records stay); only the "unchanged since the
        last read" answer is off until the file is read again.
        """
        for path, record in self._records.items():
            self._records[path] = replace(record, by_read=False)

    def forget(self, path: Path) -> None:
        """Drop what is known about ``path``."""
        self._records.pop(path, None)

    def __len__(self) -> int:
        return len(self._records)

    def snapshot(self) -> list[dict[str, object]]:
        """The records as JSON-ready values (saved in transcripts for resume)."""
        return [
            {
                "path": str(r.path),
                "size": r.stamp.size,
                "mtime_ns": r.stamp.mtime_ns,
                "digest": r.digest,
                "kind": r.kind,
                "view": list(r.view),
                "by_read": r.by_read,
            }
            for r in self._records.values()
        ]

    async def aclose(self) -> None:
        """Nothing open: the cache is only memory."""
        return None

    def carry(self, ctx: ToolContext, *, reattach: int) -> Carried:
        """The files read most recently, as they are now; then a Read shows a file again."""
        texts = tuple(t for r in self.recent(reattach) if (t := attached(r.path)) is not None)
        self.allow_rereads()
        return Carried(texts=texts)

    def restore(self, items: list[dict[str, Any]]) -> int:
        """Reinstate records from :meth:`snapshot`; returns how many were usable.

        A file changed since is still caught: its stamp and hash no longer match.
        """
        count = 0
        for item in items:
            try:
                kind = item["kind"]
                if kind not in ("full", "range", "partial"):
                    continue
                record = ReadRecord(
                    path=Path(str(item["path"])),
                    stamp=FileStamp(size=int(item["size"]), mtime_ns=int(item["mtime_ns"])),
                    digest=None if item.get("digest") is None else str(item["digest"]),
                    kind=kind,
                    view=tuple(item.get("view") or ()),
                    by_read=bool(item.get("by_read", True)),
                )
            except (KeyError, TypeError, ValueError):
                continue
            self.record(record)
            count += 1
        return count


def not_read_message(path: Path, *, tool: str) -> str:
    """The model tried to change a file it has not read."""
    return (
        f"{tool} refused: {path} was never read in this session, so its current content "
        f"is unknown here. Read it, then send the {tool} again."
    )


def partial_message(path: Path, *, tool: str, whole: bool) -> str:
    """The model saw only part of the file, and this change needs more."""
    if whole:
        return (
            f"{path} was only partly read, and {tool} replaces the whole file. Read the "
            f"whole file first (page through it with offset and limit), then retry."
        )
    return (
        f"{path} was only seen as a partial view cut by the size cap. Read the region you "
        f"want to change with offset and limit first, then retry the {tool}."
    )


def modified_message(path: Path) -> str:
    """The file changed on disk since the model read it."""
    return (
        f"{path} changed on disk after your last Read of it (another program or the user "
        "wrote to it), so nothing was written. Read it again and base the change on what "
        "it holds now."
    )


def freshness_problem(
    cache: ReadStateCache,
    path: Path,
    st: os.stat_result,
    *,
    tool: str,
    whole: bool,
    current_digest: str | None = None,
) -> str | None:
    """Why ``tool`` may not change the existing file ``path`` now, or None if it may.

    ``whole`` asks for a full read (Write, NotebookEdit); otherwise a chosen range will
    do. The content hash settles a changed timestamp: a touch alone is not a change.
    ``current_digest`` is the hash of bytes the caller already holds, if any.
    """
    record = cache.get(path)
    if record is None:
        return not_read_message(path, tool=tool)
    if record.kind == "partial" or (whole and record.kind != "full"):
        return partial_message(path, tool=tool, whole=whole)
    stamp = FileStamp.of(st)
    if current_digest is None and stamp == record.stamp:
        return None
    if record.digest is None:
        return None if stamp == record.stamp else modified_message(path)
    digest = current_digest if current_digest is not None else digest_file(path, st.st_size)
    return None if digest == record.digest else modified_message(path)


ATTACHED_LINES = 40
ATTACHED_CHARS = 2_000


def attached(path: Path) -> str | None:
    """The start of ``path`` as a reminder that it was read; None if it cannot be read."""
    try:
        with path.open(encoding="utf-8", errors="replace") as f:
            head = f.read(ATTACHED_CHARS + 1)
    except OSError:
        return None
    lines = head.splitlines()
    cut = len(head) > ATTACHED_CHARS or len(lines) > ATTACHED_LINES
    shown = "\n".join(lines[:ATTACHED_LINES])[:ATTACHED_CHARS]
    note = " (the start of it; Read it for the rest)" if cut else ""
    return (
        f"<system-reminder>\nRead earlier in this session: {path}{note}\n{shown}\n"
        "</system-reminder>"
    )
