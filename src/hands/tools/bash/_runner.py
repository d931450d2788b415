"""Running one foreground command: stream its output, enforce its time limit, clean up."""

from __future__ import annotations

import codecs
import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field

import anyio

from hands.core.outcome import left_out_marker
from hands.tools.bash._process import ShellProcess, cleanup_after_exit, kill_tree

HEAD_BYTES = 4 * 1024 * 1024
"""Output kept from the start of a command."""
TAIL_BYTES = 256 * 1024
"""Output kept from the end once the head is full."""
MAX_OUTPUT_BYTES = 256 * 1024 * 1024
"""A command printing more than this is stopped."""
EXIT_GRACE_S = 0.2
"""How long output is still read after the shell exits while something holds the pipe."""
READ_CHUNK = 256 * 1024


@dataclass(kw_only=True, slots=True)
class Capture:
    """Merged output: the head, a rolling tail, and how much fell in between."""

    head: bytearray
    tail: bytearray
    total: int = 0

    @classmethod
    def empty(cls) -> Capture:
        """A capture with nothing in it yet."""
        return cls(head=bytearray(), tail=bytearray())

    def add(self, data: bytes) -> None:
        """Keep ``data`` in the head while it has room, else in the tail."""
        self.total += len(data)
        room = HEAD_BYTES - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data:
            self.tail += data
            if len(self.tail) > TAIL_BYTES:
                del self.tail[: len(self.tail) - TAIL_BYTES]

    @property
    def omitted(self) -> int:
        """Bytes neither in the head nor the tail."""
        return self.total - len(self.head) - len(self.tail)

    def text(self) -> str:
        """The kept output as text, with a marker where bytes were dropped."""
        head = self.head.decode("utf-8", "replace")
        if not self.tail:
            return head
        tail = self.tail.decode("utf-8", "replace")
        if self.omitted:
            return f"{head}\n\n{left_out_marker(self.omitted, 'bytes of output')}\n\n{tail}"
        return head + tail


@dataclass(kw_only=True, slots=True)
class RunOutcome:
    """How a foreground command ended."""

    exit_code: int | None
    capture: Capture
    timed_out: bool = False
    too_much_output: bool = False
    detached: bool = False
    """True when the process was handed over (to the background) rather than ended."""
    stopped: tuple[str, ...] = ()
    """Programs the command left running when it exited, which were stopped."""


async def run_foreground(
    proc: ShellProcess,
    *,
    timeout_s: float,
    progress: Callable[[str], None],
    on_timeout: Callable[[ShellProcess, Capture], bool] | None = None,
) -> RunOutcome:
    """Stream ``proc``'s output until it exits; kill its whole tree on timeout or cancel.

    ``on_timeout`` may adopt the process (return True) instead of it being killed.
    """
    capture = Capture.empty()
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    state = _State()
    pidfd = os.pidfd_open(proc.pid)
    adopted = False
    try:
        with anyio.move_on_after(timeout_s) as scope:
            async with anyio.create_task_group() as tg:

                async def wait_exit() -> None:
                    await anyio.wait_readable(pidfd)
                    proc.popen.wait()
                    state.exited = True
                    if not state.eof:
                        with anyio.move_on_after(EXIT_GRACE_S):
                            await state.eof_event.wait()
                        tg.cancel_scope.cancel()

                tg.start_soon(wait_exit)
                await _pump(proc, capture, decoder, progress, state)
                if state.too_much:
                    tg.cancel_scope.cancel()
        if scope.cancelled_caught and not state.exited:
            if on_timeout is not None and on_timeout(proc, capture):
                adopted = True
                return RunOutcome(exit_code=None, capture=capture, timed_out=True, detached=True)
            with anyio.CancelScope(shield=True):
                await kill_tree(proc)
            _drain(proc, capture)
            return RunOutcome(exit_code=proc.popen.returncode, capture=capture, timed_out=True)
        if state.too_much:
            with anyio.CancelScope(shield=True):
                await kill_tree(proc)
            return RunOutcome(
                exit_code=proc.popen.returncode, capture=capture, too_much_output=True
            )
        _drain(proc, capture)
        stopped: tuple[str, ...] = ()
        with anyio.CancelScope(shield=True):
            stopped = await cleanup_after_exit(proc)
        return RunOutcome(exit_code=proc.popen.returncode, capture=capture, stopped=stopped)
    except BaseException:
        with anyio.CancelScope(shield=True):
            await kill_tree(proc)
        raise
    finally:
        os.close(pidfd)
        if not adopted:
            proc.close_output()


@dataclass(kw_only=True, slots=True)
class _State:
    eof_event: anyio.Event = field(default_factory=anyio.Event)
    eof: bool = False
    exited: bool = False
    too_much: bool = False


async def _pump(
    proc: ShellProcess,
    capture: Capture,
    decoder: codecs.IncrementalDecoder,
    progress: Callable[[str], None],
    state: _State,
) -> None:
    fd = proc.output_fd
    assert fd is not None
    while True:
        await anyio.wait_readable(fd)
        while True:
            try:
                data = os.read(fd, READ_CHUNK)
            except BlockingIOError:
                break
            if not data:
                state.eof = True
                state.eof_event.set()
                return
            if capture.total < HEAD_BYTES:
                text = decoder.decode(data)
                if text:
                    progress(text)
            capture.add(data)
            if capture.total > MAX_OUTPUT_BYTES:
                state.too_much = True
                return


def _drain(proc: ShellProcess, capture: Capture) -> None:
    """Whatever output is still buffered in the pipe."""
    fd = proc.output_fd
    if fd is None:
        return
    with contextlib.suppress(OSError):
        for _ in range(64):
            data = os.read(fd, READ_CHUNK)
            if not data:
                return
            capture.add(data)
