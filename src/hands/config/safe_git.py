"""Git as hands runs it for itself: no program named by an untrusted repository runs.

hands runs git on its own (the status in the system prompt, worktrees for sub-agents).
A repository's ``.git/config`` (and the files it includes) can name programs git runs
on the way: ``core.fsmonitor`` on every status, hooks (``.git/hooks/post-checkout`` on
a worktree), clean and smudge filters, external diff and textconv drivers, pagers,
editors, credential helpers, ssh commands. In a workspace that is not trusted,
:func:`git_argv` overrides each of them with ``-c`` (the repository's own settings are
read with ``git config``, which runs nothing, so every named filter and driver is
switched off by name) and :func:`git_env` keeps git from prompting.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

FIXED_OVERRIDES: tuple[tuple[str, str], ...] = (
    ("core.fsmonitor", "false"),
    ("core.hooksPath", os.devnull),
    ("core.pager", "cat"),
    ("core.editor", "false"),
    ("sequence.editor", "false"),
    ("core.askPass", ""),
    ("core.sshCommand", "false"),
    ("core.gitProxy", ""),
    ("diff.external", ""),
    ("credential.helper", ""),
    ("gpg.program", "false"),
    ("protocol.ext.allow", "never"),
    ("uploadpack.packObjectsHook", ""),
)
"""Settings that name a program, switched off whatever the repository says."""

_PROGRAM_KEYS = re.compile(
    r"""^(?:
        filter\.(?P<filter>.+)\.(?:clean|smudge|process)
      | diff\..+\.(?:command|textconv)
      | merge\..+\.driver
      | pager\..+
      | credential\..+\.helper
      | gpg\..+\.program
      | remote\..+\.(?:uploadpack|receivepack|vcs)
    )$""",
    re.VERBOSE | re.IGNORECASE,
)
GIT_TIMEOUT_S = 5.0


def git_argv(cwd: Path, *args: str, trusted: bool) -> list[str]:
    """``git ARGS`` for ``cwd``; untrusted, with every repository program switched off."""
    if trusted:
        return ["git", *args]
    return ["git", *(flag for pair in safe_overrides(cwd) for flag in _c(pair)), *args]


def run_git(
    argv: Sequence[str],
    *,
    cwd: Path,
    trusted: bool,
    stdin: bytes | None = None,
    timeout: float = GIT_TIMEOUT_S,
) -> bytes | None:
    """Run hands' own ``argv`` (from :func:`git_argv`) in ``cwd``: its output, or None.

    None when git cannot be run, runs out of ``timeout`` seconds, or fails.
    """
    try:
        proc = subprocess.run(
            list(argv),
            cwd=cwd,
            input=stdin,
            capture_output=True,
            timeout=timeout,
            check=False,
            env=git_env(trusted=trusted),
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout if proc.returncode == 0 else None


def git_env(base: Mapping[str, str] | None = None, *, trusted: bool) -> dict[str, str]:
    """The environment for hands' own git: never a prompt, never a pager."""
    env = dict(os.environ if base is None else base)
    env["GIT_TERMINAL_PROMPT"] = "0"
    env["GIT_PAGER"] = "cat"
    if not trusted:
        for name in ("GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "GIT_SSH_COMMAND", "GIT_EDITOR"):
            env.pop(name, None)  # a program named in the environment the repo may have set
    return env


def safe_overrides(cwd: Path) -> tuple[tuple[str, str], ...]:
    """The ``-c`` settings that switch off every program the repository of ``cwd`` names."""
    found: dict[str, str] = dict(FIXED_OVERRIDES)
    for key in _configured_keys(cwd):
        match = _PROGRAM_KEYS.match(key)
        if match is None:
            continue
        found[key] = "false" if key.lower().startswith("pager.") else ""
        driver = match.group("filter")
        if driver is not None:
            found[f"filter.{driver}.required"] = "false"  # so an empty filter is no error
    return tuple(found.items())


def _configured_keys(cwd: Path) -> list[str]:
    """Every key git's configuration sets for ``cwd`` (``git config`` runs no program)."""
    out = run_git(["git", "config", "--list", "--name-only", "-z"], cwd=cwd, trusted=False)
    text = (out or b"").decode("utf-8", errors="replace")
    return [k for k in text.split("\0") if k]


def _c(pair: tuple[str, str]) -> tuple[str, str]:
    return ("-c", f"{pair[0]}={pair[1]}")
