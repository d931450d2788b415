"""Warnings for ``HANDS_*`` variables whose values hands cannot use (they fall back)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

_SWITCH = frozenset({"1", "0", "true", "false", "yes", "no", "on", "off"})
# patterns compiled (and cached by :mod:`re`) only when such a variable is set
_POSITIVE_INT = r"[1-9][0-9]*"
_POSITIVE_NUMBER = r"([0-9]+\.?[0-9]*|\.[0-9]+)"
_TOOL_SEARCH = r"(auto(:[0-9]+(\.[0-9]*)?%?)?|true|false|1|0|on|off|yes|no|always|never)"

_CHECKS: dict[str, tuple[str, str]] = {
    "HANDS_MAX_TOOL_CONCURRENCY": ("int", "a whole number above 0"),
    "HANDS_TOOL_TIMEOUT_MS": ("int", "a whole number of milliseconds above 0"),
    "HANDS_GREP_TIMEOUT_SECONDS": ("number", "a number of seconds above 0"),
    "HANDS_GLOB_TIMEOUT_SECONDS": ("number", "a number of seconds above 0"),
    "HANDS_CASCADE_BASH_ERRORS": ("switch", "1 or 0"),
    "HANDS_SIMPLE": ("switch", "1 or 0"),
    "HANDS_SHELL_SNAPSHOT": ("switch", "1 or 0"),
    "HANDS_GLOB_RESPECT_GITIGNORE": ("switch", "1 or 0"),
    "HANDS_TOOL_SEARCH": ("search", "auto, auto:N, true or false"),
}


def _valid(kind: str, value: str) -> bool:
    if kind == "int":
        return re.fullmatch(_POSITIVE_INT, value) is not None
    if kind == "number":
        return re.fullmatch(_POSITIVE_NUMBER, value) is not None and float(value) > 0
    if kind == "switch":
        return value.lower() in _SWITCH
    return re.fullmatch(_TOOL_SEARCH, value.lower()) is not None


def env_warnings(env: Mapping[str, str] | None = None) -> list[str]:
    """One warning per known ``HANDS_*`` variable set to a value hands ignores."""
    env = os.environ if env is None else env
    out: list[str] = []
    for name, (kind, wanted) in _CHECKS.items():
        raw = env.get(name)
        if raw is None or not raw.strip():
            continue
        if not _valid(kind, raw.strip()):
            out.append(f"{name}={raw!r} is not {wanted}; the default is used")
    return out
