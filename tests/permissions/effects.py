"""Run a shell command in a bubblewrap sandbox under strace and report what it did.

The sandbox sees the host's root read-only, an empty ``/tmp``, ``/home``, ``/root`` and
``/run``, no network but a private loopback, and one scratch directory bound writable at
its own path: a throwaway copy of a project, a fake home and a directory outside both,
each holding canary files. ``strace -f`` records every open, exec, file-system change
and connection of the command and its children; the scratch tree is also compared
before and after. What counts as an effect:

* a write: an open for writing or creating (attempted, successful or not), a delete,
  rename, link, mode or owner change, a new directory, or any change of the scratch tree;
* an exec of a program the command line does not name;
* a read outside the project: a file opened, or a directory listed, anywhere but the
  project and the system's own places (``/usr``, ``/lib``, ``/etc``, ``/proc``...: a
  program's libraries, locales and configuration);
* a network connection attempted (an Internet socket, or a connect on a Unix socket).

Metadata alone (``stat`` of a path) is not recorded as a read.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

BWRAP = shutil.which("bwrap")
STRACE = shutil.which("strace")

_SYSCALLS = (
    "open,openat,openat2,creat,execve,execveat,unlink,unlinkat,rename,renameat,renameat2,"
    "mkdir,mkdirat,rmdir,link,linkat,symlink,symlinkat,chmod,fchmod,fchmodat,chown,fchown,"
    "fchownat,lchown,truncate,ftruncate,utimensat,mknod,mknodat,connect,sendto,sendmsg,"
    "socket,getdents64,chdir,fchdir"
)
_SYSTEM = ("/usr/", "/lib", "/bin/", "/sbin/", "/etc/", "/proc/", "/sys/", "/dev/")
"""Places a program reads on its own: libraries, locales, terminfo, magic, configuration."""
_QUIET_DEVICES = frozenset({"/dev/null", "/dev/tty", "/dev/zero", "/dev/full", "/dev/urandom"})
_WRITE_FLAGS = re.compile(r"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND")
_CHANGERS = frozenset(
    "unlink unlinkat rename renameat renameat2 mkdir mkdirat rmdir link linkat symlink "
    "symlinkat chmod fchmod fchmodat chown fchown fchownat lchown truncate ftruncate "
    "utimensat mknod mknodat creat".split()
)
_RUNS_TOO = {"egrep": "grep", "fgrep": "grep"}
"""Programs that are scripts running another one."""
_NSCD = '"/var/run/nscd/socket"'
"""The C library asks the name service cache daemon for user names (``ls -l``, ``id``)."""
_LINE = re.compile(r"^(?P<pid>\d+)\s+(?P<call>\w+)\((?P<args>.*)\)\s+=\s+(?P<ret>-?\d+|\?)")
_DEVICE_NOTE = re.compile(r"<(?:char|block) [^<>]*>$")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


@dataclass(frozen=True, kw_only=True)
class Scratch:
    """The three directories of one run, all below ``root``."""

    root: Path
    project: Path
    home: Path
    outside: Path


@dataclass(kw_only=True)
class Effects:
    """What one command did beyond reading inside the project."""

    command: str
    writes: list[str] = field(default_factory=list)
    execs: list[str] = field(default_factory=list)
    outside_reads: list[str] = field(default_factory=list)
    connections: list[str] = field(default_factory=list)
    timed_out: bool = False

    def any(self) -> bool:
        return bool(self.writes or self.execs or self.outside_reads or self.connections)

    def summary(self) -> str:
        parts = [
            f"{label}: {', '.join(sorted(set(items))[:4])}"
            for label, items in (
                ("writes", self.writes),
                ("runs", self.execs),
                ("reads outside", self.outside_reads),
                ("connects", self.connections),
            )
            if items
        ]
        return f"{self.command!r} -> " + "; ".join(parts)


def available() -> bool:
    """Whether bubblewrap and strace are here and a sandbox can be made."""
    if BWRAP is None or STRACE is None:
        return False
    probe = subprocess.run(
        [BWRAP, "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "true"],
        capture_output=True,
        check=False,
    )
    return probe.returncode == 0


def _snapshot(root: Path) -> dict[str, tuple[object, ...]]:
    out: dict[str, tuple[object, ...]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in [*dirnames, *filenames]:
            path = Path(dirpath) / name
            st = path.lstat()
            link = os.readlink(path) if path.is_symlink() else None
            out[str(path)] = (st.st_mode, st.st_size, st.st_mtime_ns, link)
    return out


def run(command: str, scratch: Scratch, programs: Iterable[str], timeout: float = 10.0) -> Effects:
    """Run ``command`` in ``scratch.project`` inside the sandbox; report its effects.

    ``programs`` are the names the command line runs itself (an exec of one of them is
    expected).
    """
    assert BWRAP is not None and STRACE is not None
    programs = {*programs, *(_RUNS_TOO[p] for p in programs if p in _RUNS_TOO)}
    trace = scratch.root / "trace"
    before = _snapshot(scratch.root)
    argv = [
        BWRAP, "--ro-bind", "/", "/", "--tmpfs", "/tmp", "--tmpfs", "/home",
        "--tmpfs", "/root", "--tmpfs", "/run", "--tmpfs", "/var/tmp",
        "--bind", str(scratch.root), str(scratch.root),
        "--proc", "/proc", "--dev", "/dev", "--unshare-all", "--die-with-parent",
        "--new-session", "--clearenv", "--setenv", "HOME", str(scratch.home),
        "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
        "--setenv", "LANG", "C.UTF-8", "--setenv", "TERM", "dumb",
        "--setenv", "GIT_CONFIG_NOSYSTEM", "1",
        "--chdir", str(scratch.project),
        STRACE, "-f", "-qq", "-yy", "-s", "256", "-e", f"trace={_SYSCALLS}", "-e", "signal=none",
        "-o", str(trace), "/bin/bash", "-c", command,
    ]  # fmt: skip
    effects = Effects(command=command)
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        effects.timed_out = True
    text = trace.read_text(encoding="utf-8", errors="replace") if trace.exists() else ""
    trace.unlink(missing_ok=True)
    _read_trace(text, scratch, frozenset(programs), effects)
    after = _snapshot(scratch.root)
    changed = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    effects.writes.extend(sorted(changed - _GIT_CACHES(scratch)))
    return effects


def _GIT_CACHES(scratch: Scratch) -> set[str]:
    # git refreshes its stat cache (the index) when it compares the work tree: a cache of
    # file metadata, not content, and what every read-only git query does
    git = scratch.project / ".git"
    return {str(git), str(git / "index"), str(git / "index.lock")}


def _read_trace(text: str, scratch: Scratch, programs: frozenset[str], effects: Effects) -> None:
    project = str(scratch.project)
    first_exec = True
    for line in text.splitlines():
        m = _LINE.match(line)
        if m is None:
            continue
        call, args, ret = m["call"], m["args"], m["ret"]
        ok = ret != "?" and not ret.startswith("-")
        if call in ("execve", "execveat"):
            if first_exec:
                first_exec = False  # bash itself
                continue
            path = _first_string(args)
            if ok and Path(path).name not in programs:
                effects.execs.append(path)
            continue
        if call in ("open", "openat", "openat2", "creat"):
            _open(line, call, args, ret, ok, project, scratch, effects)
        elif call in _CHANGERS:
            target = _first_string(args) or _fd_path(args) or args
            if not _is_git_cache(target, scratch):
                effects.writes.append(f"{call} {target}")
        elif call == "getdents64":
            path = _fd_path(args)
            if path and not _inside(path, project) and not _system(path):
                effects.outside_reads.append(path + "/")
        elif call in ("connect", "sendto", "sendmsg") and _connects(args):
            effects.connections.append(args[:120])


def _open(
    line: str, call: str, args: str, ret: str, ok: bool, project: str, scratch: Scratch,
    effects: Effects,
) -> None:  # fmt: skip
    name = _first_string(args)
    if call == "creat" or _WRITE_FLAGS.search(args):
        target = _returned_path(line) if ok else name
        if target not in _QUIET_DEVICES and not target.startswith(("/dev/pts", "pipe:")):
            if not _is_git_cache(target, scratch):
                effects.writes.append(f"open for writing {target}")
        return
    if not ok:
        return
    target = _returned_path(line) or name
    if _inside(target, project) or _system(target) or target in ("/", ""):
        return
    if Path(target).is_dir():
        return  # listing it shows up as getdents64
    effects.outside_reads.append(target)


def _system(path: str) -> bool:
    return (path + "/").startswith(_SYSTEM)


def _inside(path: str, project: str) -> bool:
    return path == project or path.startswith(project + "/")


def _is_git_cache(path: str, scratch: Scratch) -> bool:
    return path in _GIT_CACHES(scratch) or path.endswith(".git/index.lock")


def _first_string(args: str) -> str:
    m = _STRING.search(args)
    return m[1] if m else ""


def _fd_path(args: str) -> str:
    """The path strace shows for the first descriptor argument (``3</a/b>``)."""
    return _decoration(args.split(", ", 1)[0])


def _returned_path(line: str) -> str:
    return _decoration(line.rsplit(" = ", 1)[-1])


def _decoration(text: str) -> str:
    # ``3</dev/null<char 1:3>>``: the path, without the device note ``-yy`` adds
    start, end = text.find("<"), text.rfind(">")
    if start < 0 or end <= start:
        return ""
    return _DEVICE_NOTE.sub("", text[start + 1 : end])


def _connects(args: str) -> bool:
    if args.split(",", 1)[0].split("<", 1)[-1].startswith("NETLINK") or "AF_NETLINK" in args:
        return False  # a query of the kernel's own tables (``ss``, ``ip``)
    if "AF_INET" in args:
        return True
    return "AF_UNIX" in args and "sun_path" in args and _NSCD not in args


__all__ = ["Effects", "Scratch", "available", "run"]
