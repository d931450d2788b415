"""The ``sandbox`` objects of several settings files, merged into one."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast


def merged_sandbox(layers: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The ``sandbox`` objects of several settings files, weakest first, merged.

    A stronger file's scalar wins; lists (``allowedDomains``, ``excludedCommands``...)
    are joined.
    """
    merged: dict[str, Any] = {}
    for layer in layers:
        raw = layer.get("sandbox")
        if isinstance(raw, Mapping):
            _merge_into(merged, cast(Mapping[str, Any], raw))
    return merged


def _merge_into(target: dict[str, Any], layer: Mapping[str, Any]) -> None:
    for key, value in layer.items():
        old = target.get(key)
        if isinstance(value, Mapping) and isinstance(old, dict):
            _merge_into(cast(dict[str, Any], old), cast(Mapping[str, Any], value))
        elif isinstance(value, Mapping):
            fresh: dict[str, Any] = {}
            _merge_into(fresh, cast(Mapping[str, Any], value))
            target[key] = fresh
        elif isinstance(value, list) and isinstance(old, list):
            joined = [*cast(list[Any], old), *cast(list[Any], value)]
            target[key] = [v for i, v in enumerate(joined) if v not in joined[:i]]
        else:
            target[key] = value
