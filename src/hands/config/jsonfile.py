"""Read-modify-write of a small JSON settings file, atomically."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast


def update_json_object(path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    """Apply ``change`` to the JSON object in ``path`` (created if missing); returns path.

    Raises OSError naming the file when it exists but is not a JSON object, so a user's
    hand-edited settings are never overwritten by a guess.
    """
    data: dict[str, Any] = {}
    if path.is_file():
        try:
            loaded = json.loads(path.read_text(encoding="utf-8") or "{}")
        except (OSError, json.JSONDecodeError) as exc:
            raise OSError(f"cannot update {path}: {exc}") from exc
        if not isinstance(loaded, dict):
            raise OSError(f"cannot update {path}: it does not hold a JSON object")
        data = cast(dict[str, Any], loaded)
    change(data)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def string_list(data: dict[str, Any], key: str, where: Path, *, name: str = "") -> list[Any]:
    """``data[key]`` as a list (created if missing); OSError if it is something else.

    ``name`` is how the error names the key (default: ``key``).
    """
    value = data.setdefault(key, [])
    if not isinstance(value, list):
        raise OSError(f"cannot update {where}: {name or key!r} is not a list")
    return cast(list[Any], value)


def object_field(data: dict[str, Any], key: str, where: Path) -> dict[str, Any]:
    """``data[key]`` as an object (created if missing); OSError if it is something else."""
    value = data.setdefault(key, {})
    if not isinstance(value, dict):
        raise OSError(f"cannot update {where}: {key!r} is not an object")
    return cast(dict[str, Any], value)
