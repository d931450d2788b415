"""``bypassPermissions`` as root only inside a sandbox, as Claude Code decides it.

Every call running unasked with root's powers can change the whole machine. So the
mode (``--dangerously-skip-permissions``, ``--permission-mode bypassPermissions`` or a
settings ``defaultMode``) is refused for the root user unless the process says it is
sandboxed: ``IS_SANDBOX`` (or ``HANDS_SANDBOX``) set to a true value, or
``CLAUDE_CODE_BUBBLEWRAP`` set, as Claude Code reads them; or a container's marker file
(``/.dockerenv``, ``/run/.containerenv``), which hands counts as well.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from hands.core.env import switch

CONTAINER_MARKERS = (Path("/.dockerenv"), Path("/run/.containerenv"))


def sandboxed(env: Mapping[str, str], markers: Sequence[Path] = CONTAINER_MARKERS) -> bool:
    """Whether the process runs in a sandbox or container by the signs above."""
    if switch("HANDS_SANDBOX", env):
        return True
    if env.get("CLAUDE_CODE_BUBBLEWRAP"):
        return True
    return any(marker.exists() for marker in markers)


def bypass_refusal(
    mode: str,
    *,
    uid: int | None = None,
    env: Mapping[str, str] | None = None,
    markers: Sequence[Path] = CONTAINER_MARKERS,
) -> str | None:
    """Why ``mode`` may not run here, or ``None``."""
    if mode != "bypassPermissions":
        return None
    uid = uid if uid is not None else (os.geteuid() if hasattr(os, "geteuid") else None)
    if uid != 0 or sandboxed(os.environ if env is None else env, markers):
        return None
    return (
        "bypassPermissions (--dangerously-skip-permissions) is refused for the root user "
        "outside a sandbox: run as another user, or in a container or sandbox (set "
        "IS_SANDBOX=1 there)"
    )
