"""Finding test processes by a marker in their command line, through ``/proc``."""

from __future__ import annotations

import os


def marked(marker: str) -> list[int]:
    """Live (non-zombie) processes whose command line holds ``marker``."""
    found: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read()
            with open(f"/proc/{entry}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmdline and state != "Z":
            found.append(int(entry))
    return found
