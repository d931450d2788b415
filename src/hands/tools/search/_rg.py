"""Locating and running ripgrep.

``rg`` is looked for next to the running Python first (the ``ripgrep`` wheel installs it
into the environment's ``bin`` directory), then on ``PATH``. ``USE_BUILTIN_RIPGREP=0``
reverses the order, as in Claude Code. A run is cancellable (the process is killed) and
has a time limit after which the output gathered so far is returned, marked as cut short.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import anyio
import anyio.to_thread
from anyio.abc import ByteReceiveStream, Process

from hands.errors import ToolError
from hands.shell.spawn import open_process

INSTALL_HINT = (
    "ripgrep (rg) was not found next to the running Python or on PATH. "
    "Install it with `pip install ripgrep==14.1.0` in this environment "
    "(or install ripgrep with your system's package manager)."
)

DEFAULT_TIMEOUT_S = 20.0
"""Time limit of one search, unless a setting says otherwise."""

VCS_DIRS = (".git", ".svn", ".hg", ".bzr", ".jj", ".sl")
"""Version-control directories no search ever descends into."""

_READ_CHUNK = 1 << 18
_STREAM_END = (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError)


def _exe_name() -> str:
    return "rg.exe" if os.name == "nt" else "rg"


def locate_rg(
    *,
    python: str | None = None,
    path_env: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Path | None:
    """The ``rg`` to run, or None when there is none.

    ``python``, ``path_env`` and ``env`` default to the running interpreter, ``$PATH``
    and the process environment; tests pass their own.
    """
    env = os.environ if env is None else env
    python = sys.executable if python is None else python
    path_env = env.get("PATH", os.defpath) if path_env is None else path_env
    beside: Path | None = None
    if python:
        candidate = Path(python).parent / _exe_name()
        if candidate.is_file() and os.access(candidate, os.X_OK):
            beside = candidate
    found = shutil.which("rg", path=path_env)
    on_path = Path(found) if found else None
    prefer_system = env.get("USE_BUILTIN_RIPGREP", "").strip().lower() in {"0", "false", "no"}
    order = (on_path, beside) if prefer_system else (beside, on_path)
    return next((p for p in order if p is not None), None)


_cached_rg: Path | None = None


def rg_path() -> Path:
    """The ``rg`` executable; raises :class:`ToolError` with install advice if missing."""
    global _cached_rg
    if _cached_rg is None or not _cached_rg.exists():
        _cached_rg = locate_rg()
    if _cached_rg is None:
        raise ToolError(INSTALL_HINT)
    return _cached_rg


def timeout_from_env(name: str, default: float = DEFAULT_TIMEOUT_S) -> float:
    """The seconds the listed variable ``name`` (:mod:`hands.core.env`) sets, else ``default``."""
    from hands.core.env import number

    return number(name) or default


_FILE_ERROR = re.compile(r"\(os error \d+\)$")
"""How ripgrep ends a message about one file it could not open or read."""


@dataclass(frozen=True, kw_only=True, slots=True)
class RgRun:
    """What one ripgrep run produced."""

    stdout: bytes
    stderr: bytes
    returncode: int | None
    timed_out: bool = False
    found_output: bool = False
    """Whether anything came on standard output (also when it went to a sink)."""

    @property
    def diagnostic(self) -> str:
        """The error text ripgrep printed, cleaned of blank lines."""
        text = self.stderr.decode("utf-8", errors="replace")
        return "\n".join(line for line in text.splitlines() if line.strip())

    @property
    def unreadable(self) -> tuple[str, ...]:
        """Ripgrep's messages about files it could not open or read (``... (os error N)``)."""
        return tuple(line for line in self.diagnostic.splitlines() if _FILE_ERROR.search(line))

    @property
    def failed(self) -> bool:
        """Exit status 2 with nothing found: a bad pattern, glob, type or flag.

        Files that could not be read do not make a search fail: the others were searched.
        """
        lines = self.diagnostic.splitlines()
        return (
            self.returncode == 2
            and not self.found_output
            and not self.stdout.strip()
            and not self.timed_out
            and (not lines or len(self.unreadable) < len(lines))
        )


async def _drain(stream: ByteReceiveStream | None, into: list[bytes]) -> None:
    if stream is None:
        return
    try:
        while True:
            into.append(await stream.receive(_READ_CHUNK))
    except _STREAM_END:
        return


class RecordSink:
    """Receives ripgrep's standard output as it is produced, NUL-terminated record by record.

    Subclasses act on each complete record (Glob and Grep take file modification times
    while ripgrep is still walking the tree) in :meth:`records`.
    """

    def __init__(self) -> None:
        self._tail = b""
        self.size = 0

    def feed(self, chunk: bytes) -> None:
        """Take the next piece of output."""
        self.size += len(chunk)
        data = self._tail + chunk if self._tail else chunk
        cut = data.rfind(b"\0")
        if cut < 0:
            self._tail = data
            return
        self._tail = data[cut + 1 :]
        self.records(data[:cut].split(b"\0"))

    def records(self, items: list[bytes]) -> None:
        """Act on complete records; the default does nothing."""


def _read_all(file: IO[bytes]) -> bytes:
    file.seek(0)
    return file.read()


async def stream_rg(
    args: Sequence[str], *, cwd: Path, time_limit: float, sink: RecordSink
) -> RgRun:
    """Like :func:`run_rg`, but standard output goes through a pipe into ``sink``.

    The returned ``stdout`` is empty; the sink holds what was found. A record cut short
    by the timeout never reaches the sink.
    """
    command = [str(rg_path()), *args]
    err: list[bytes] = []
    process = await _start(command, cwd=cwd, stdout=subprocess.PIPE)
    returncode: int | None = None
    try:
        with anyio.move_on_after(time_limit) as scope:
            async with anyio.create_task_group() as tg:
                tg.start_soon(_drain, process.stderr, err)
                stream = process.stdout
                if stream is not None:
                    try:
                        while True:
                            sink.feed(await stream.receive(_READ_CHUNK))
                    except _STREAM_END:
                        pass
            returncode = await process.wait()
        timed_out = scope.cancelled_caught
    finally:
        await _reap(process)
    return RgRun(
        stdout=b"",
        stderr=b"".join(err),
        returncode=returncode,
        timed_out=timed_out,
        found_output=sink.size > 0,
    )


async def _start(command: list[str], *, cwd: Path, stdout: int | IO[bytes]) -> Process:
    try:
        return await open_process(
            command, stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.PIPE, cwd=cwd
        )
    except FileNotFoundError as exc:
        raise ToolError(INSTALL_HINT) from exc
    except OSError as exc:
        raise ToolError(f"Could not start ripgrep: {exc}") from exc


async def _reap(process: Process) -> None:
    """Kill ``process`` if it still runs and release it, even while being cancelled."""
    with anyio.CancelScope(shield=True):
        if process.returncode is None:
            process.kill()
        await process.aclose()


async def run_rg(args: Sequence[str], *, cwd: Path, time_limit: float) -> RgRun:
    """Run ``rg`` with ``args`` in ``cwd``; after ``time_limit`` seconds stop it.

    Cancellation kills the process. On timeout the output written so far is returned
    with ``timed_out`` set; callers drop a trailing partial record.

    Standard output goes to an anonymous temporary file rather than a pipe: ripgrep
    writes it at full speed without waiting for this process to drain a pipe, and it
    is read back in one call.
    """
    command = [str(rg_path()), *args]
    err: list[bytes] = []
    with tempfile.TemporaryFile(prefix="hands-rg-") as sink:
        process = await _start(command, cwd=cwd, stdout=sink)
        returncode: int | None = None
        try:
            with anyio.move_on_after(time_limit) as scope:
                await _drain(process.stderr, err)
                returncode = await process.wait()
            timed_out = scope.cancelled_caught
        finally:
            await _reap(process)
        stdout = await anyio.to_thread.run_sync(_read_all, sink)
    return RgRun(stdout=stdout, stderr=b"".join(err), returncode=returncode, timed_out=timed_out)
