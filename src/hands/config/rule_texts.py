"""Permission rules as the settings files write them: texts with where they came from.

Settings keep rules as text; :mod:`hands.permissions.policy` parses them. A rule's
origin says which file (or flag) it is from and what a ``/path`` in it is relative to.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeAlias

RuleBehavior: TypeAlias = Literal["allow", "ask", "deny"]
Scope: TypeAlias = Literal[
    "managed", "cliArg", "localSettings", "projectSettings", "userSettings", "session"
]
BEHAVIORS: tuple[RuleBehavior, ...] = ("deny", "ask", "allow")


@dataclass(frozen=True, kw_only=True, slots=True)
class RuleOrigin:
    """Where a rule came from: its scope, its file, and the root ``/pattern`` is under."""

    scope: Scope
    label: str
    """The settings file path, or the flag (``--allowedTools``) or ``session``."""
    root: Path
    """The directory a ``/path`` rule is relative to."""
    path: Path | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class RuleText:
    """One entry of a ``permissions.allow|ask|deny`` list, as written, with its origin."""

    text: object
    """The entry as found: a string, or whatever else the file held (warned about)."""
    behavior: RuleBehavior
    origin: RuleOrigin


def split_rule_list(text: str) -> list[str]:
    """Split a command-line rule list on commas and spaces outside parentheses."""
    out: list[str] = []
    depth = 0
    current: list[str] = []
    escaped = False
    for ch in text:
        if escaped:
            current.append(ch)
            escaped = False
            continue
        if ch == "\\":
            escaped = True
            current.append(ch)
            continue
        if ch == "(":
            depth += 1
        elif ch == ")" and depth > 0:
            depth -= 1
        if depth == 0 and (ch == "," or ch.isspace()):
            if current:
                out.append("".join(current))
                current = []
            continue
        current.append(ch)
    if current:
        out.append("".join(current))
    return out
