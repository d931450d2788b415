"""The user's shell setup, captured once per session and applied to every command.

As in Claude Code: the aliases, functions and shell options that ``~/.bashrc`` sets up
are captured at the first Bash call (``bash -i`` sources the file, so a ``.bashrc`` that
stops early for non-interactive shells still counts) and run before each command, with
``expand_aliases`` on so ``ll`` or ``gs`` work as they do in the user's terminal.
Functions whose names start with ``_`` (completion helpers) are left out, and a snapshot
over :data:`MAX_BYTES` keeps only aliases and options. ``HANDS_SHELL_SNAPSHOT=0`` turns
it off.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import signal
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import anyio

from hands.core.session import Session
from hands.shell.spawn import open_process

CAPTURE_TIMEOUT_S = 10.0
MAX_BYTES = 64 * 1024
ENV_SWITCH = "HANDS_SHELL_SNAPSHOT"

_FUNCTION_START = re.compile(r"^([^\s()]+) \(\) $")


@dataclass(kw_only=True, slots=True)
class ShellSnapshot:
    """One session's captured shell setup (empty until the first Bash call)."""

    text: str = ""
    note: str = ""
    """Why nothing was captured, when that is worth telling (shown once)."""
    taken: bool = False
    _lock: anyio.Lock = field(default_factory=anyio.Lock)

    @classmethod
    def for_session(cls, session: Session) -> ShellSnapshot:
        """The session's snapshot object."""
        return session.service(cls)

    async def prelude(self) -> tuple[str, str]:
        """(shell code, a note shown once); captured on the first call."""
        async with self._lock:
            if not self.taken:
                self.text, self.note = await capture()
                self.taken = True
                return self.text, self.note
        return self.text, ""


def rc_file() -> Path | None:
    """``~/.bashrc`` when it exists and the snapshot is on."""
    from hands.core.env import switch

    if switch(ENV_SWITCH) is False:
        return None
    rc = Path.home() / ".bashrc"
    return rc if rc.is_file() else None


async def capture() -> tuple[str, str]:
    """Run an interactive bash that sources ``~/.bashrc``; (snapshot, note)."""
    rc = rc_file()
    if rc is None:
        return "", ""
    marker = f"__hands_snapshot_{secrets.token_hex(6)}__"
    dump = f"echo {marker}; alias -p; echo {marker}; declare -f; echo {marker}; shopt -p"
    try:
        process = await open_process(
            ["bash", "-i", "-c", dump],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError as exc:
        return "", f"the shell setup in {rc} could not be captured ({exc})"
    chunks: list[bytes] = []
    try:
        with anyio.fail_after(CAPTURE_TIMEOUT_S):
            assert process.stdout is not None
            async for chunk in process.stdout:
                chunks.append(chunk)
            await process.wait()
    except TimeoutError:
        return "", f"{rc} took over {CAPTURE_TIMEOUT_S:g} s to load; its aliases are not used"
    finally:
        # the rc may have started things: none outlive the capture
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with anyio.CancelScope(shield=True):
            await process.aclose()
    parts = b"".join(chunks).decode("utf-8", "replace").split(marker + "\n")
    if len(parts) != 4:
        return "", f"the shell setup in {rc} could not be captured"
    _, aliases, functions, options = parts
    return build(aliases, functions, options, await _default_options()), ""


async def _default_options() -> frozenset[str]:
    """The ``shopt -s`` lines a plain non-interactive bash already has."""
    try:
        with anyio.fail_after(CAPTURE_TIMEOUT_S):
            done = await anyio.run_process(
                ["bash", "--norc", "--noprofile", "-c", "shopt -p"],
                stdin=subprocess.DEVNULL,
                check=False,
            )
    except (OSError, TimeoutError):
        return frozenset()
    return frozenset(done.stdout.decode("utf-8", "replace").splitlines())


def build(
    aliases: str, functions: str, options: str, defaults: frozenset[str] = frozenset()
) -> str:
    """The snapshot script from ``alias -p``, ``declare -f`` and ``shopt -p`` output.

    Options a plain bash already has (``defaults``) are left out.
    """
    enabled = [
        line
        for line in options.splitlines()
        if line.startswith("shopt -s ")
        and line not in defaults
        and line.split()[-1] != "expand_aliases"
    ]
    kept = "".join(_public_functions(functions))
    head = "shopt -s expand_aliases\n" + "".join(line + "\n" for line in enabled)
    text = head + aliases + kept
    if len(text.encode()) > MAX_BYTES:
        text = head + aliases
    return text if aliases.strip() or kept.strip() or enabled else ""


def _public_functions(functions: str) -> list[str]:
    """``declare -f`` output split into functions, without those named ``_...``."""
    out: list[str] = []
    current: list[str] = []
    keep = False
    for line in functions.splitlines(keepends=True):
        match = _FUNCTION_START.match(line.rstrip("\n"))
        if match:
            if keep and current:
                out.append("".join(current))
            current = [line]
            keep = not match.group(1).startswith("_")
        else:
            current.append(line)
    if keep and current:
        out.append("".join(current))
    return out
