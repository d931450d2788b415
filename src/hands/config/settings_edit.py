"""Edits a user makes to a settings file: add or remove a permission rule or a directory.

Each edit rewrites the file whole through a temporary file renamed over it. A local
settings file this creates is added to the repository's ``.gitignore``: it holds the
user's own choices and must not be committed for others to run with.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, TypeAlias, cast

from hands.config.jsonfile import object_field, string_list, update_json_object
from hands.config.rule_texts import Scope

Target: TypeAlias = Literal["user", "project", "local"]
SCOPES: dict[Target, Scope] = {
    "user": "userSettings",
    "project": "projectSettings",
    "local": "localSettings",
}


def settings_file(target: Target, *, cwd: Path, home: Path, existing: Sequence[Path] = ()) -> Path:
    """The file an edit for ``target`` goes to.

    ``existing``: the user settings files in use; the first is kept, else the user's
    ``~/.claude/settings.json``.
    """
    if target == "project":
        return cwd / ".claude" / "settings.json"
    if target == "local":
        return cwd / ".claude" / "settings.local.json"
    return existing[0] if existing else home / ".claude" / "settings.json"


def add_entry(path: Path, key: str, entry: str) -> bool:
    """Add ``entry`` to ``permissions.<key>`` of ``path``; False when it was there already."""
    created = not path.exists()
    added = False

    def change(data: dict[str, Any]) -> None:
        nonlocal added
        entries = string_list(object_field(data, "permissions", path), key, path)
        if entry not in entries:
            entries.append(entry)
            added = True

    update_json_object(path, change)
    if created and path.name == "settings.local.json":
        from hands.config.gitignore import ignore_in_git

        ignore_in_git(path)
    return added


def set_value(path: Path, key: str, value: object) -> None:
    """Set the top-level ``key`` of ``path`` (a new local file is git-ignored)."""
    created = not path.exists()

    def change(data: dict[str, Any]) -> None:
        data[key] = value

    update_json_object(path, change)
    if created and path.name == "settings.local.json":
        from hands.config.gitignore import ignore_in_git

        ignore_in_git(path)


def remove_entry(path: Path, key: str, entry: str) -> bool:
    """Remove ``entry`` from ``permissions.<key>`` of ``path``; False when it was not there."""
    if entry not in _entries(path, key):
        return False  # the file is left as it is, not rewritten
    removed = False

    def change(data: dict[str, Any]) -> None:
        nonlocal removed
        entries = string_list(object_field(data, "permissions", path), key, path)
        if entry in entries:
            entries.remove(entry)
            removed = True

    update_json_object(path, change)
    return removed


def _entries(path: Path, key: str) -> list[object]:
    try:
        data: object = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return []
    for step in ("permissions", key):
        if not isinstance(data, dict):
            return []
        data = cast(dict[str, object], data).get(step)
    return cast(list[object], data) if isinstance(data, list) else []
