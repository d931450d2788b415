"""What ``git`` runs once the options before its subcommand are read.

``git -C dir --no-pager -c alias.p=push p origin`` runs ``git push origin``. Rules are
written about subcommands (``Bash(git push:*)``), so the permission engine matches them
against the command this module spells out: global options dropped, ``-c alias.…``
aliases expanded (a ``!`` alias is a shell command). Configuration that may run a program
or define an alias the command line does not show (``-c core.pager=…``,
``-c include.path=…``, ``--config-env=…``) cannot be checked against rules: it is
reported, so the engine asks instead of trusting a rule it cannot apply.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

_WITH_VALUE = frozenset(
    {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--attr-source",
     "--shallow-file"}
)  # fmt: skip
"""Global options that take the next word as their value."""
_STOPPING = frozenset({"--version", "-v", "--help", "-h", "--html-path", "--man-path",
                       "--info-path", "--exec-path"})  # fmt: skip
"""Global options after which git runs no subcommand."""
_HARMLESS_KEYS = ("color.", "advice.", "user.name", "user.email", "core.quotepath",
                  "core.abbrev", "init.defaultbranch", "column.ui", "safe.directory")  # fmt: skip
"""Configuration keys that run nothing and change no command: fine on the command line."""
MAX_ALIASES = 8


@dataclass(frozen=True, kw_only=True, slots=True)
class GitCall:
    """A git command line read the way git reads it."""

    argv: tuple[str, ...]
    """``git``, the subcommand and its arguments (aliases expanded), or just ``git``."""
    shell: str | None = None
    """The shell command of a ``!`` alias, with the arguments git appends to it."""
    unknowable: str | None = None
    """Why the command cannot be known from its words (configuration that runs programs)."""


def read_git(words: list[str] | tuple[str, ...]) -> GitCall:
    """``words`` (``git`` first) with its global options read and its aliases expanded."""
    aliases: dict[str, str] = {}
    unknowable: str | None = None
    argv = list(words)
    for _ in range(MAX_ALIASES):
        rest, configs, stop = _global_options(argv[1:])
        for key, value in configs:
            if key.startswith("alias.") and value is not None:
                aliases[key[len("alias.") :]] = value
            elif unknowable is None and (value is None or not key.startswith(_HARMLESS_KEYS)):
                unknowable = (
                    f"the git setting {key or '(unnamed)'} given on the command line may run "
                    "a program or define a command"
                )
        if stop or not rest:
            return GitCall(argv=("git",), unknowable=unknowable)
        value = aliases.get(rest[0].lower())
        if value is None:
            return GitCall(argv=("git", *rest), unknowable=unknowable)
        if value.startswith("!"):
            shell = " ".join([value[1:], *(shlex.quote(w) for w in rest[1:])])
            return GitCall(argv=("git", *rest), shell=shell, unknowable=unknowable)
        try:
            expanded = shlex.split(value)
        except ValueError:
            return GitCall(argv=("git", *rest), unknowable=f"git alias {rest[0]} is unreadable")
        aliases.pop(rest[0].lower())  # git refuses a looping alias; so do we
        argv = ["git", *expanded, *rest[1:]]
    return GitCall(argv=tuple(argv), unknowable="git aliases nest too deep")


def _global_options(
    words: list[str],
) -> tuple[list[str], list[tuple[str, str | None]], bool]:
    """(the words from the subcommand on, configuration set, whether git stops early).

    A setting's value is None when the command line does not show it (``--config-env``).
    """
    configs: list[tuple[str, str | None]] = []
    i = 0
    while i < len(words) and words[i].startswith("-"):
        word = words[i]
        name, _, inline = word.partition("=")
        if word in _STOPPING or (name in _STOPPING and name != "--exec-path"):
            return [], configs, True
        if name == "--config-env":
            configs.append((inline.partition("=")[0].lower(), None))
        elif name == "--exec-path" and inline:
            configs.append(("--exec-path", None))  # git runs its subcommands from there
        elif word in _WITH_VALUE:
            value = words[i + 1] if i + 1 < len(words) else ""
            if word == "-c":
                key, has_value, setting = value.partition("=")
                configs.append((key.lower(), setting if has_value else "true"))
            i += 1
        i += 1
    return words[i:], configs, False
