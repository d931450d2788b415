"""A file the command keeps in the hands home for its next start, found by a key.

One JSON file per key (its first 40 characters name it), read whole and written whole: a
temporary file renamed into place, so a reader finds the old entry or the new one, never
half of one. A file that is missing, unreadable or not JSON reads as nothing kept.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast


class KeptFile:
    """The entry of one key, a file in ``directory``, in the format ``version``.

    Every entry carries its format's version and its whole key; an entry of another
    version or key reads as nothing kept.
    """

    version: int = 1

    def __init__(self, directory: Path, key: str) -> None:
        self.key = key
        self.path = directory / f"{key[:40]}.json"

    def read_entry(self) -> Mapping[str, Any] | None:
        """The entry's fields if it is of this version and key, else None."""
        data = self.read()
        if not isinstance(data, Mapping):
            return None
        entry = cast(Mapping[str, Any], data)
        if entry.get("version") != self.version or entry.get("key") != self.key:
            return None
        return entry

    def write_entry(self, fields: Mapping[str, object]) -> None:
        """Keep ``fields`` with this version and key (written whole, or not at all)."""
        self.write({"version": self.version, "key": self.key, **fields})

    def read(self) -> object | None:
        """The entry's JSON, or None (none kept, unreadable, not JSON)."""
        try:
            return json.loads(self.path.read_bytes())
        except (OSError, ValueError):
            return None

    def write(self, payload: Mapping[str, object]) -> None:
        """Keep ``payload`` (written whole, or not at all)."""
        temp = self.path.with_suffix(f".{os.getpid()}.tmp")
        try:
            text = json.dumps(payload, ensure_ascii=False)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temp.write_text(text, encoding="utf-8")
            temp.replace(self.path)
        except (OSError, TypeError, ValueError):
            with contextlib.suppress(OSError):
                temp.unlink()

    def drop(self) -> None:
        """Forget the entry."""
        with contextlib.suppress(OSError):
            self.path.unlink()
