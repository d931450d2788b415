"""Whether the hands home can hold sessions: one clear line instead of a traceback."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from hands.core.env import given
from hands.core.limits import hands_home

QUIET_ARGS = frozenset({"-V", "--version", "-h", "--help", "help"})
"""Arguments that need no hands home (version and help)."""


def home_problem(env: Mapping[str, str] | None = None) -> str | None:
    """Why the hands home cannot be used, or ``None``; leaves nothing behind."""
    env = os.environ if env is None else env
    home = hands_home(env)
    name = f"HANDS_HOME ({home})" if given("HANDS_HOME", env) else f"the hands home {home}"
    fix = "set HANDS_HOME to a directory you can write"
    if home.exists() and not home.is_dir():
        return f"{name} is not a directory; {fix}"
    existing = _nearest_existing(home)
    if not existing.is_dir():
        return f"{name} cannot be created: {existing} is not a directory; {fix}"
    if not _can_write_in(existing):
        what = "is not writable" if existing == home else f"cannot be created in {existing}"
        return f"{name} {what}; {fix}"
    return None


def needs_home(argv: list[str]) -> bool:
    """Whether the command line runs a command (not only version or help)."""
    return not any(a in QUIET_ARGS for a in argv[:1] + [a for a in argv if a.startswith("-")])


def _nearest_existing(path: Path) -> Path:
    for candidate in (path, *path.parents):
        if candidate.exists():
            return candidate
    return Path(path.anchor or "/")


def _can_write_in(folder: Path) -> bool:
    """Whether a file can be made in ``folder``, found by making (and removing) one.

    Permission bits say nothing for root, nor for a read-only or pseudo file system.
    """
    try:
        handle, probe = tempfile.mkstemp(prefix=".hands-probe-", dir=folder)
    except OSError:
        return False
    os.close(handle)
    with contextlib.suppress(OSError):
        Path(probe).unlink()
    return True
