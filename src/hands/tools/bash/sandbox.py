"""The bubblewrap sandbox: how a command line becomes a ``bwrap`` invocation.

Inside the sandbox the whole filesystem is read-only except the working directories,
``sandbox.filesystem.allowWrite`` paths and a private ``/tmp``; configuration that makes
code run later (``.git/hooks``, ``.git/config``, ``.claude``, ``.hands``) stays
read-only even inside a working directory. The command gets its own network namespace
(only its own loopback; not even the host's), its own pid namespace (nothing survives
it) and a seccomp filter refusing ``symlink``/``link`` so it cannot plant links that an
unsandboxed tool would later follow out of the workspace. Opening
specific domains (``sandbox.network.allowedDomains``) is refused with a clear error
rather than silently widened.
"""

from __future__ import annotations

import contextlib
import os
import platform
import shutil
import struct
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from hands.context import ToolContext
from hands.errors import ToolError
from hands.tools.bash.settings import SandboxSettings

PROTECTED_NAMES = (".git/hooks", ".git/config", ".claude", ".hands", ".mcp.json")


class SandboxUnavailable(ToolError):
    """bubblewrap is missing or cannot create namespaces here."""


@dataclass(kw_only=True, slots=True)
class Launch:
    """What to exec, with which environment, passing which extra fds."""

    argv: list[str]
    env: dict[str, str]
    fds: tuple[int, ...] = ()
    closers: list[Callable[[], None]] = field(default_factory=lambda: [])

    def close(self) -> None:
        """Close our copies of the fds handed to the child."""
        for fd in self.fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self.fds = ()
        for closer in self.closers:
            closer()
        self.closers = []


def bash_path() -> str:
    """The bash to run commands with."""
    return shutil.which("bash") or "/bin/bash"


def prepare(
    script: str, *, cwd: Path, ctx: ToolContext, settings: SandboxSettings | None
) -> Launch:
    """The launch for ``script``: plain ``bash -c``, or wrapped in bubblewrap."""
    env = dict(os.environ)
    env.setdefault("GIT_TERMINAL_PROMPT", "0")
    if settings is None:
        return Launch(argv=[bash_path(), "-c", script], env=env)
    bwrap = check_available()
    seccomp = seccomp_fd()
    argv = [
        bwrap,
        "--die-with-parent",
        "--new-session",
        "--unshare-all",
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
        "--tmpfs", "/tmp",
    ]  # fmt: skip
    writable = [d.resolve() for d in ctx.working_dirs]
    writable += [ctx.resolve(p).resolve() for p in settings.allow_write]
    for path in dict.fromkeys(writable):
        if path.exists() and path != Path("/"):
            argv += ["--bind", str(path), str(path)]
    for root in dict.fromkeys(d.resolve() for d in ctx.working_dirs):
        for name in PROTECTED_NAMES:
            target = root / name
            if target.exists() or target.is_symlink():
                argv += ["--ro-bind", str(target), str(target)]
    argv += ["--chdir", str(cwd.resolve()), "--seccomp", str(seccomp)]
    launch = Launch(argv=argv, env=env, fds=(seccomp,))
    if settings.allowed_domains:
        launch.close()
        raise SandboxUnavailable(
            "sandbox.network.allowedDomains is set, but this version cannot open specific "
            "domains to sandboxed commands, so the command was not run. Remove the setting "
            "(no network at all) or run the command unsandboxed if the settings allow it."
        )
    argv += ["--", bash_path(), "-c", script]
    return launch


@lru_cache(maxsize=1)
def check_available() -> str:
    """The path to bwrap, after checking it can create the namespaces we need."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxUnavailable(
            "The sandbox is enabled but bubblewrap (bwrap) is not installed, so the command "
            "was not run. Install the 'bubblewrap' package, or turn sandbox.enabled off."
        )
    probe = subprocess.run(
        [bwrap, "--unshare-all", "--ro-bind", "/", "/", "--dev", "/dev", "--", "true"],
        capture_output=True,
        text=True,
        timeout=10,
        check=False,
    )
    if probe.returncode != 0:
        check_available.cache_clear()
        raise SandboxUnavailable(
            "The sandbox is enabled but bubblewrap cannot run here, so the command was not "
            f"run: {probe.stderr.strip() or f'bwrap exited with {probe.returncode}'}. "
            "Unprivileged user namespaces may be disabled (kernel.unprivileged_userns_clone "
            "or a container policy)."
        )
    return bwrap


def failure_hint(output: str) -> str | None:
    """A note for a sandboxed command that failed on a sandbox restriction."""
    markers = ("Read-only file system", "Operation not permitted", "Could not resolve host",
               "Network is unreachable", "Temporary failure in name resolution")  # fmt: skip
    if any(m in output for m in markers):
        return (
            "Note: this command ran in the sandbox: writes outside the working directories "
            "and network access outside the allowed domains are blocked."
        )
    return None


# -- seccomp ------------------------------------------------------------------------------

_BPF_LD_W_ABS = 0x20
_BPF_JEQ_K = 0x15
_BPF_JGE_K = 0x35
_BPF_RET_K = 0x06
_RET_ALLOW = 0x7FFF0000
_RET_EPERM = 0x00050000 | 1

# (audit arch, syscalls refused, whether x32 numbers must be refused)
_ARCHES: dict[str, tuple[int, tuple[int, ...], bool]] = {
    "x86_64": (0xC000003E, (88, 266, 86, 265), True),  # symlink symlinkat link linkat
    "aarch64": (0xC00000B7, (36, 37), False),  # symlinkat linkat
}


def seccomp_program(machine: str | None = None) -> bytes:
    """A classic-BPF seccomp filter: EPERM for symlink/link calls, EPERM for foreign ABIs."""
    arch, numbers, x32 = _ARCHES.get(machine or platform.machine(), (0, (), False))
    if not arch:
        raise SandboxUnavailable(
            f"The sandbox does not support the {platform.machine()} architecture."
        )
    prog: list[tuple[int, int, int, int]] = [(_BPF_LD_W_ABS, 0, 0, 4)]
    # wrong arch -> deny (jump to the last instruction)
    rest = 1 + (1 if x32 else 0) + len(numbers) + 1
    prog.append((_BPF_JEQ_K, 0, rest, arch))
    prog.append((_BPF_LD_W_ABS, 0, 0, 0))
    if x32:
        prog.append((_BPF_JGE_K, len(numbers) + 1, 0, 0x40000000))
    for i, nr in enumerate(numbers):
        prog.append((_BPF_JEQ_K, len(numbers) - i, 0, nr))
    prog.append((_BPF_RET_K, 0, 0, _RET_ALLOW))
    prog.append((_BPF_RET_K, 0, 0, _RET_EPERM))
    return b"".join(struct.pack("=HBBI", *ins) for ins in prog)


def seccomp_fd() -> int:
    """A readable fd holding the seccomp program, positioned at its start."""
    fd = os.memfd_create("hands-seccomp", 0)
    os.write(fd, seccomp_program())
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
