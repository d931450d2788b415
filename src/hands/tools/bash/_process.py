"""Starting a shell in its own process group, and killing everything it started.

Every command runs as ``bash -c`` in a new session (so a new process group). Each gets a
marker in its environment; processes that left the group (``setsid``, daemons) still
carry it, so :func:`kill_tree` finds them through ``/proc`` as well
(:mod:`hands.shell.processes`, which also waits for one caught mid-exec).

What runs before the command (the session's shell setup, ``CLAUDE_ENV_FILE`` exports, the
trap that reports the final directory) is bash's startup file (``BASH_ENV``), held in a
memory file passed as an inherited fd: the ``-c`` string is the command alone, so bash's
messages name the command's own line numbers, and the file unsets ``BASH_ENV`` and closes
its fd, so the command's own scripts start clean.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shlex
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import anyio

from hands.shell.processes import MARKER_VAR, scan_floor, scan_marked, settled_marked

SANDBOX_RELAY_NAME = "hands-relay"
"""The sandbox's network relay (``sandbox/forwarder.py``): stopped with a command, never
reported as something the command left running."""
TERM_GRACE_S = 1.0


@dataclass(kw_only=True, slots=True)
class ShellProcess:
    """A running shell: the process, its group, its marker and the output pipe's fd."""

    popen: subprocess.Popen[bytes]
    marker: str
    output_fd: int | None
    """Read end of the merged stdout/stderr pipe (None when output goes to a file)."""
    cwd_fd: int | None
    """Read end of the pipe the shell writes its final directory to."""

    @property
    def pid(self) -> int:
        """The shell's pid, which is also its process group id."""
        return self.popen.pid

    def close_output(self) -> None:
        """Close our end of the output pipe."""
        if self.output_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.output_fd)
            self.output_fd = None

    def close_cwd(self) -> None:
        """Close our end of the cwd pipe."""
        if self.cwd_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.cwd_fd)
            self.cwd_fd = None

    def close_fds(self) -> None:
        """Close our ends of the pipes."""
        for fd in (self.output_fd, self.cwd_fd):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.output_fd = self.cwd_fd = None


def startup_text(setup: str, *, cwd_fd: int | None, own_fd: int, user_env: str | None) -> str:
    """The ``BASH_ENV`` file: the caller's setup, the cwd trap, then cleaning up after itself."""
    lines: list[str] = []
    if user_env:
        # a BASH_ENV the user set still runs, first, as it would without hands
        lines.append(f"[ -r {shlex.quote(user_env)} ] && . {shlex.quote(user_env)}")
    if cwd_fd is not None:
        lines.append(f"trap 'pwd -P >&{cwd_fd} 2>/dev/null' EXIT")
    body = "\n".join(lines) + ("\n" if lines else "") + setup
    if body and not body.endswith("\n"):
        body += "\n"
    return body + f"unset BASH_ENV\nexec {own_fd}<&-\n"


def _startup_fd(text_of: Callable[[int], str]) -> int:
    fd = os.memfd_create("hands-bash-startup", 0)
    try:
        data = text_of(fd).encode("utf-8", "surrogateescape")
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except BaseException:
        os.close(fd)
        raise
    return fd


def spawn(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    output_file: Path | None = None,
    report_cwd: bool = True,
    extra_fds: tuple[int, ...] = (),
    setup: str = "",
) -> ShellProcess:
    """Start ``argv`` in a new session with stdin from /dev/null and stdout+stderr merged.

    ``setup`` is shell code bash runs before the command, from its startup file.
    """
    marker = secrets.token_hex(12)
    full_env = {**env, MARKER_VAR: marker}
    read_fd: int | None = None
    write_fd: int | None = None
    cwd_r: int | None = None
    cwd_w: int | None = None
    startup: int | None = None
    try:
        if output_file is None:
            read_fd, write_fd = os.pipe()
            os.set_blocking(read_fd, False)
        if report_cwd:
            cwd_r, cwd_w = os.pipe()
            os.set_blocking(cwd_r, False)
        if setup or cwd_w is not None:
            cwd_fd = cwd_w
            user_env = env.get("BASH_ENV")
            startup = _startup_fd(
                lambda own: startup_text(setup, cwd_fd=cwd_fd, own_fd=own, user_env=user_env)
            )
            full_env["BASH_ENV"] = f"/dev/fd/{startup}"
        fds = tuple(fd for fd in (cwd_w, startup) if fd is not None) + extra_fds
        with contextlib.ExitStack() as stack:
            out: int
            if output_file is not None:
                out = stack.enter_context(output_file.open("ab")).fileno()
            else:
                assert write_fd is not None
                out = write_fd
            popen = subprocess.Popen(
                argv,
                cwd=cwd,
                env=full_env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                pass_fds=fds,
                close_fds=True,
            )
    except BaseException:
        for fd in (read_fd, cwd_r):
            if fd is not None:
                os.close(fd)
        raise
    finally:
        for fd in (write_fd, cwd_w, startup):
            if fd is not None:
                os.close(fd)
    return ShellProcess(popen=popen, marker=marker, output_fd=read_fd, cwd_fd=cwd_r)


def read_cwd(proc: ShellProcess) -> str | None:
    """The directory the shell ended in, if it reported one."""
    if proc.cwd_fd is None:
        return None
    data = b""
    try:
        data = os.read(proc.cwd_fd, 65536)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            os.close(proc.cwd_fd)
        proc.cwd_fd = None
    text = data.decode("utf-8", "surrogateescape").strip()
    return text.splitlines()[-1] if text else None


def group_alive(pgid: int) -> bool:
    """Whether any process is left in the group."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def marked_pids(marker: str, *, since_pid: int = 0) -> list[int]:
    """Pids of live processes whose environment carries ``marker`` (one look).

    Only pids above ``since_pid`` are read; see :func:`scan_marked`.
    """
    return list(scan_marked(marker, since_pid=since_pid).marked)


def _signal_all(proc: ShellProcess, sig: int, signalled: set[int] | None = None) -> bool:
    """Send ``sig`` to the group and the marked strays; whether anyone was left.

    ``signalled``: strays already sent ``sig`` (skipped; the new ones are added).
    """
    sent = False
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)
        sent = True
    return _signal_strays(proc, sig, set() if signalled is None else signalled) or sent


def _signal_strays(proc: ShellProcess, sig: int, signalled: set[int]) -> bool:
    """Send ``sig`` to the marked processes not in ``signalled`` (then added to it)."""
    sent = False
    for pid in marked_pids(proc.marker, since_pid=proc.pid):
        if pid in signalled:
            continue
        signalled.add(pid)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)
            sent = True
    return sent


def _reap(proc: ShellProcess) -> None:
    with contextlib.suppress(ChildProcessError, OSError):
        proc.popen.poll()


def _anyone_left(proc: ShellProcess) -> bool:
    _reap(proc)
    # a zombie still counts as a group member, so a live group may hold no live process;
    # either way, strays that left the group may still run
    if group_alive(proc.pid) and (
        proc.popen.returncode is None or _group_has_live_members(proc.pid)
    ):
        return True
    # a process caught mid-exec may be one of ours: wait for it to tell
    scan = scan_marked(proc.marker, since_pid=proc.pid)
    return bool(_live(list(scan.marked)) or scan.undecided or scan.starved)


def _group_has_live_members(pgid: int) -> bool:
    try:
        entries = os.listdir("/proc")  # noqa: PTH208  (cheaper than Path objects)
    except OSError:
        return True
    floor = scan_floor(pgid)
    for name in entries:
        if not name.isdigit() or int(name) < floor:
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[-1].split()
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] != "Z":
            return True
    return False


def _live(pids: list[int]) -> list[int]:
    out: list[int] = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z":
            out.append(pid)
    return out


async def kill_tree(proc: ShellProcess, *, grace_s: float = TERM_GRACE_S) -> None:
    """TERM the whole group (and strays that left it), then KILL whatever remains.

    A stray first seen while waiting (it was mid-exec at the first look) gets its TERM
    then.
    """
    signalled: set[int] = set()
    # nobody signalled may still leave one caught mid-exec (not yet known to be ours)
    if not _signal_all(proc, signal.SIGTERM, signalled) and not _anyone_left(proc):
        _reap(proc)
        return
    deadline = time.monotonic() + grace_s
    delay = 0.005
    while time.monotonic() < deadline:
        if not _anyone_left(proc):
            return
        await anyio.sleep(delay)
        delay = min(delay * 2, 0.05)
        _signal_strays(proc, signal.SIGTERM, signalled)
    killed: set[int] = set()
    _signal_all(proc, signal.SIGKILL, killed)
    for _ in range(100):
        if not _anyone_left(proc):
            return
        await anyio.sleep(0.01)
        _signal_strays(proc, signal.SIGKILL, killed)  # one whose exec ended since


def kill_tree_now(proc: ShellProcess) -> None:
    """KILL everything at once, synchronously (for shutdown paths that cannot wait)."""
    _signal_all(proc, signal.SIGKILL)
    _reap(proc)


async def cleanup_after_exit(proc: ShellProcess) -> tuple[str, ...]:
    """After the shell exited: stop anything it left running (background jobs, daemons).

    Returns the program names of what was stopped, for the command's result.
    """
    _reap(proc)
    left = await _leftovers(proc)
    if left:
        names = tuple(n for n in map(_program_name, left) if n != SANDBOX_RELAY_NAME)
        await kill_tree(proc)
        return names
    return ()


async def _leftovers(proc: ShellProcess) -> list[int]:
    """Live processes of the group, and strays that left it, once the shell is gone."""
    marked = _live(await settled_marked(proc.marker, since_pid=proc.pid))
    return _with_group_members(proc, marked)


def _with_group_members(proc: ShellProcess, marked: list[int]) -> list[int]:
    """``marked`` and the live members of the group (the shell itself when none)."""
    if not (group_alive(proc.pid) and _group_has_live_members(proc.pid)):
        return marked
    floor = scan_floor(proc.pid)
    members: list[int] = []
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):  # noqa: PTH208  (cheaper than Path objects)
            if not name.isdigit() or int(name) < floor:
                continue
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[-1].split()
                if len(fields) > 2 and fields[2] == str(proc.pid) and fields[0] != "Z":
                    members.append(int(name))
    return list(dict.fromkeys(members + marked)) or [proc.pid]


def _program_name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip() or str(pid)
    except OSError:
        return str(pid)
