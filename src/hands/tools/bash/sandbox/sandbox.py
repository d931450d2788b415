"""The bubblewrap sandbox: how a command line becomes a ``bwrap`` invocation.

Inside the sandbox the whole filesystem is read-only except the working directories,
``sandbox.filesystem.allowWrite`` paths and a private ``/tmp``; configuration that makes
code run later (``.git/hooks``, ``.git/config``, ``.claude``, ``.hands``) stays
read-only even inside a working directory. The command gets its own network namespace
(only its own loopback; not even the host's), its own pid namespace (nothing survives
it) and a seccomp filter refusing ``symlink``/``link`` so it cannot plant links that an
unsandboxed tool would later follow out of the workspace.

``sandbox.network.allowedDomains`` opens exactly those domains: the session's filtering
proxy (:mod:`hands.tools.bash.sandbox.netproxy`) is bound into the sandbox as a unix socket, and
a small forwarder (:mod:`hands.tools.bash.sandbox.forwarder`, run by the same Python interpreter
in front of the command) exposes it on the sandbox's loopback and sets the ``*_PROXY``
variables. Programs that ignore those variables have no network at all.
"""

from __future__ import annotations

import contextlib
import os
import platform
import re
import secrets
import shutil
import struct
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import anyio
import anyio.to_thread

from hands.core.context import ToolContext
from hands.errors import ToolError
from hands.tools.bash._settings import SandboxSettings
from hands.tools.bash.sandbox.netproxy import Blocked, DomainPolicy, NetworkProxies, NetworkProxy

PROTECTED_NAMES = (".git/hooks", ".git/config", ".claude", ".hands", ".mcp.json")
PROXY_SOCKET = "/tmp/.hands-proxy.sock"
"""Where the proxy's unix socket appears inside the sandbox (on its private /tmp)."""
FORWARDER = "/tmp/.hands-forwarder.py"
"""Where the forwarder's source appears inside the sandbox."""
NO_PROXY = ("localhost", "127.0.0.1", "::1", "*.local", ".local", "169.254.0.0/16",
            "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")  # fmt: skip
"""Destinations that mean the sandbox itself (or nothing): proxy-aware clients go direct."""


class SandboxUnavailable(ToolError):
    """bubblewrap is missing or cannot create namespaces here."""


@dataclass(kw_only=True, slots=True)
class Launch:
    """What to exec, with which environment, passing which extra fds."""

    argv: list[str]
    env: dict[str, str]
    fds: tuple[int, ...] = ()
    closers: list[Callable[[], None]] = field(default_factory=lambda: [])
    network: NetworkProxy | None = None
    """The proxy the command reaches the allowed domains through, if any."""
    blocked_mark: int = 0
    """The proxy's count of refused requests when the command started."""
    absent: tuple[Path, ...] = ()
    """Protected paths that did not exist when the command started (nothing to bind)."""

    def blocked(self) -> list[Blocked]:
        """Requests the proxy refused since the command started.

        The proxy is shared by the session, so a concurrent command's refusals show too.
        """
        return [] if self.network is None else self.network.blocked_since(self.blocked_mark)

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
    policy = network_policy(settings)
    proxy: NetworkProxy | None = None
    python = ""
    forwarder = Path()
    if policy is not None:
        python = _python()
        forwarder = forwarder_path()
        proxy = _started(NetworkProxies.for_session(ctx.session).get, policy)
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
    if proxy is not None:
        # on the private /tmp, before the working directories: a working directory that
        # is /tmp itself hides the socket (no network) instead of exposing the host's /tmp
        argv += ["--ro-bind", str(proxy.socket_path), PROXY_SOCKET,
                 "--ro-bind", str(forwarder), FORWARDER, *_interpreter_binds(python)]  # fmt: skip
    for path in bound_paths(ctx, settings):
        if path.exists() and path != Path("/"):
            argv += ["--bind", str(path), str(path)]
    absent: list[Path] = []
    for root in dict.fromkeys(d.resolve() for d in ctx.working_dirs):
        for name in PROTECTED_NAMES:
            target = root / name
            if target.exists() or target.is_symlink():
                argv += ["--ro-bind", str(target), str(target)]
            elif target.parent.is_dir() or name == ".git/hooks":
                # hooks of a repository made in the sandbox (git init) would run outside
                # it later; its config is left alone, or the new repository breaks
                absent.append(target)
    argv += ["--chdir", str(cwd.resolve()), "--seccomp", str(seccomp), "--"]
    if proxy is not None:
        argv += [python, "-I", "-S", FORWARDER, PROXY_SOCKET, no_proxy(proxy.policy)]
    argv += [bash_path(), "-c", script]
    launch = Launch(argv=argv, env=env, fds=(seccomp,), network=proxy, absent=tuple(absent))
    if proxy is not None:
        launch.blocked_mark = proxy.blocked_mark()
    return launch


def network_policy(settings: SandboxSettings) -> DomainPolicy | None:
    """The domain policy a sandboxed command runs under, or None for no network."""
    policy = DomainPolicy.from_settings(settings)
    return policy if policy.allowed else None


async def start_network(ctx: ToolContext, settings: SandboxSettings) -> None:
    """Start the session's proxy for ``settings`` ahead of :func:`prepare`, off the loop."""
    policy = network_policy(settings)
    if policy is not None:
        check_available()
        await anyio.to_thread.run_sync(
            _started, NetworkProxies.for_session(ctx.session).get, policy
        )


def _started(get: Callable[[DomainPolicy], NetworkProxy], policy: DomainPolicy) -> NetworkProxy:
    try:
        return get(policy)
    except (RuntimeError, OSError) as exc:
        raise SandboxUnavailable(
            f"The sandbox's network proxy could not start, so the command was not run: {exc}"
        ) from exc


def no_proxy(policy: DomainPolicy) -> str:
    """``NO_PROXY`` for the sandbox: its own loopback and local networks go direct.

    A name listed exactly in ``allowedDomains`` (``localhost``, ``127.0.0.1``) is taken to
    mean the host's, so it goes through the proxy instead.
    """
    return ",".join(entry for entry in NO_PROXY if entry not in policy.allowed)


def forwarder_path() -> Path:
    """The in-sandbox forwarder's source file (bound read-only into the sandbox)."""
    path = Path(__file__).with_name("forwarder.py")
    if not path.is_file():
        raise SandboxUnavailable(
            "sandbox.network.allowedDomains is set but the sandbox's network forwarder "
            f"({path.name}) is missing from the installation, so the command was not run."
        )
    return path


def _python() -> str:
    python = sys.executable or shutil.which("python3")
    if not python:
        raise SandboxUnavailable(
            "sandbox.network.allowedDomains is set but no Python interpreter was found to "
            "run the sandbox's network forwarder, so the command was not run."
        )
    return python


def _interpreter_binds(python: str) -> Sequence[str]:
    """Read-only binds for interpreter files that the sandbox's private /tmp would hide."""
    exe = Path(python)
    venv = exe.parent.parent
    home = venv if (venv / "pyvenv.cfg").is_file() else exe.parent
    candidates = [home, exe.resolve().parent.parent, Path(sys.base_prefix)]
    binds: list[str] = []
    for path in dict.fromkeys(candidates):
        if path.is_relative_to("/tmp") and path != Path("/tmp") and path.exists():
            binds += ["--ro-bind", str(path), str(path)]
    return binds


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


_TMP_PATH = re.compile(r"(?<![\w./-])/tmp/[^\s:'\"`,;)]+")


def remove_created(launch: Launch, quarantine: Path) -> list[str]:
    """Move away protected paths a sandboxed command created; a note for each.

    A missing ``.claude``, ``.hands``, ``.mcp.json`` or ``.git/hooks`` cannot be bound
    read-only, so a command could create one (settings with hooks, a server to start)
    that would run outside the sandbox next time. Whatever appeared is moved to
    ``quarantine`` (the session's directory), where the user can look at it.
    """
    notes: list[str] = []
    for path in launch.absent:
        if not (path.exists() or path.is_symlink()):
            continue
        dest = quarantine / secrets.token_hex(4) / path.name
        dest.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.move(str(path), str(dest))
        except OSError as exc:
            notes.append(
                f"Warning: the sandboxed command created {path}, which sandboxed commands may "
                f"not create, and it could not be moved away ({exc.strerror}); remove it "
                "before starting another session."
            )
            continue
        notes.append(
            f"Note: the command created {path}, which sandboxed commands may not create (it "
            f"could change what runs outside the sandbox later); it was moved to {dest}."
        )
    return notes


def bound_paths(ctx: ToolContext, settings: SandboxSettings) -> list[Path]:
    """Host paths bound writable into the sandbox: working dirs and ``allowWrite`` paths."""
    writable = [d.resolve() for d in ctx.working_dirs]
    writable += [ctx.resolve(p).resolve() for p in settings.allow_write]
    return list(dict.fromkeys(writable))


def hidden_tmp_path(output: str, visible: Sequence[Path]) -> Path | None:
    """A host path under /tmp that a failed sandboxed command named but could not see.

    The sandbox mounts its own empty /tmp; only working directories and
    ``sandbox.filesystem.allowWrite`` paths under /tmp are bound into it.
    """
    if "No such file or directory" not in output and "not found" not in output:
        return None
    for match in _TMP_PATH.finditer(output):
        path = Path(match.group(0).rstrip("."))
        if any(path.is_relative_to(v) for v in visible):
            continue
        if path.exists():
            return path
    return None


def failure_hint(
    output: str, blocked: Sequence[Blocked] = (), visible: Sequence[Path] = ()
) -> str | None:
    """A note for a sandboxed command that failed on a sandbox restriction.

    ``visible`` are the host paths bound into the sandbox (working directories and
    ``allowWrite`` paths).
    """
    hidden = hidden_tmp_path(output, visible)
    if hidden is not None:
        return (
            f"Note: this command ran in the sandbox, which has its own empty /tmp: {hidden} "
            "exists on this machine but is not visible inside it. Use a path inside the "
            "working directories, or add its directory to sandbox.filesystem.allowWrite."
        )
    if blocked:
        hosts = ", ".join(dict.fromkeys(f"{b.host}:{b.port}" for b in blocked))
        return (
            f"Note: this command ran in the sandbox, whose network proxy refused: {hosts}. "
            f"{blocked[-1].reason.removeprefix('Blocked by the sandbox: ')}"
        )
    markers = ("Read-only file system", "Operation not permitted", "Could not resolve host",
               "Network is unreachable", "Temporary failure in name resolution",
               "blocked-by-allowlist", "Blocked by the sandbox")  # fmt: skip
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
