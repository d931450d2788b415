"""Byte counts as people read them."""

from __future__ import annotations


def size_text(n: int) -> str:
    """``512 bytes``, ``12.3 KB``, ``4.5 MB``, ``2.0 GB``."""
    if n < 1024:
        return f"{n:,} bytes" if n != 1 else "1 byte"
    for unit in ("KB", "MB", "GB"):
        n_f = n / 1024
        if n_f < 1024 or unit == "GB":
            return f"{n_f:.1f} {unit}"
        n = int(n_f)
    return f"{n} GB"
