"""Loading a file for a change (read first, unchanged since, small, regular); writing it."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from hands.core.context import ToolContext
from hands.core.outcome import echo
from hands.errors import ToolError
from hands.tools.file._atomic import ChangedUnderneathError, write_atomic_async
from hands.tools.file._limits import HASH_LIMIT_BYTES, MAX_EDIT_BYTES
from hands.tools.file._paths import real_path
from hands.tools.file._state import (
    FileStamp,
    ReadRecord,
    ReadStateCache,
    digest_bytes,
    freshness_problem,
    modified_message,
)


class GuardError(ValueError):
    """The file may not be changed now; the message says why and what to do."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Target:
    """The file about to change, as it is now."""

    path: Path
    """The path as the model gave it (absolute)."""
    real: Path
    """Symlinks resolved: where the bytes go and the read-state key."""
    data: bytes | None
    """Current content; None when the file does not exist."""
    stamp: FileStamp | None

    @property
    def exists(self) -> bool:
        """Whether the file exists now."""
        return self.data is not None


def load_target(path: Path, ctx: ToolContext, *, tool: str, whole: bool) -> Target:
    """The current state of ``path`` if ``tool`` may change it; raises GuardError otherwise.

    A missing file is returned with ``data=None``: creating it needs no prior read.
    """
    real = real_path(path)
    try:
        st = real.stat()
    except FileNotFoundError:
        return Target(path=path, real=real, data=None, stamp=None)
    except OSError as exc:
        raise GuardError(f"Cannot access {echo(path)}: {exc.strerror or exc}.") from exc
    if stat.S_ISDIR(st.st_mode):
        raise GuardError(
            f"{path} is a directory; {tool} needs a file path. Give the full path of a file."
        )
    if not stat.S_ISREG(st.st_mode):
        raise GuardError(
            f"{path} is not a regular file (a device, FIFO or socket); {tool} "
            "only changes regular files."
        )
    if st.st_size > MAX_EDIT_BYTES:
        raise GuardError(
            f"{path} is {st.st_size:,} bytes, too large to edit (the limit is "
            f"{MAX_EDIT_BYTES:,}). Change it with Bash tools that stream (sed -i, awk) instead."
        )
    cache = ctx.session.service(ReadStateCache)
    problem = freshness_problem(cache, real, st, tool=tool, whole=whole)
    if problem is not None:
        raise GuardError(problem)
    try:
        data = real.read_bytes()
    except OSError as exc:
        raise GuardError(f"Cannot read {path}: {exc.strerror or exc}.") from exc
    record = cache.get(real)
    if record is not None and record.digest is not None:
        # The bytes we will change must be the bytes the model read, not just the stamp.
        problem = freshness_problem(
            cache, real, st, tool=tool, whole=whole, current_digest=digest_bytes(data)
        )
        if problem is not None:
            raise GuardError(problem)
    return Target(path=path, real=real, data=data, stamp=FileStamp.of(st))


@dataclass(frozen=True, kw_only=True, slots=True)
class PlannedWrite:
    """New bytes for a loaded file, and the stamp the file must still have."""

    path: Path
    real: Path
    data: bytes
    expect: FileStamp | None


async def commit_write(plan: PlannedWrite, ctx: ToolContext) -> None:
    """Write ``plan`` atomically and remember it; ToolError when nothing could be written."""
    try:
        st = await write_atomic_async(plan.real, plan.data, expect=plan.expect)
    except ChangedUnderneathError as exc:
        raise ToolError(modified_message(plan.path)) from exc
    except OSError as exc:
        raise ToolError(
            f"Could not write {plan.path}: {exc.strerror or exc}. Nothing was changed."
        ) from exc
    remember_write(ctx, plan.real, plan.data, st)


def remember_write(ctx: ToolContext, real: Path, data: bytes, st: os.stat_result) -> None:
    """After our own write the model knows the whole file: record it as a full read."""
    digest = digest_bytes(data) if len(data) <= HASH_LIMIT_BYTES else None
    ctx.session.service(ReadStateCache).record(
        ReadRecord(path=real, stamp=FileStamp.of(st), digest=digest, kind="full", by_read=False)
    )
