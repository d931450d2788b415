"""What a parsed command line is made of: simple commands, their words and redirections.

The result types of :func:`hands.shell.analysis.analyze`; the read-only verdict over them
is :mod:`hands.shell.readonly`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

ArgKind: TypeAlias = Literal["literal", "glob", "dynamic"]
RedirectKind: TypeAlias = Literal["read", "write", "dup", "heredoc", "herestring"]

SAFE_ENV_VARS = frozenset(
    {
        "LANG",
        "LANGUAGE",
        "TZ",
        "NO_COLOR",
        "FORCE_COLOR",
        "CLICOLOR",
        "CLICOLOR_FORCE",
        "TERM",
        "COLUMNS",
        "LINES",
        "COLORTERM",
        "GREP_COLORS",
        "LS_COLORS",
        "TIME_STYLE",
        "PYTHONUNBUFFERED",
        "PYTHONDONTWRITEBYTECODE",
        "RUST_BACKTRACE",
        "NODE_ENV",
    }
)
"""Variables whose leading assignment cannot change which program runs or what it runs."""

HARMLESS_WRITE_TARGETS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr"})


def safe_env(name: str) -> bool:
    """Whether a leading assignment to ``name`` is harmless (on the safe list)."""
    return name in SAFE_ENV_VARS or name.startswith("LC_")


@dataclass(frozen=True, kw_only=True, slots=True)
class Arg:
    """One word of a command: its source text and, when static, its value."""

    text: str
    value: str | None
    """The word after quote removal, or None when it depends on the runtime."""
    kind: ArgKind

    @property
    def literal(self) -> bool:
        """Whether the word's value is known exactly (no expansion, no glob)."""
        return self.kind == "literal"


@dataclass(frozen=True, kw_only=True, slots=True)
class Redirect:
    """A redirection and its target."""

    op: str
    kind: RedirectKind
    fd: str | None
    target: str | None
    """The static target (a file, or the fd for a duplication), None when dynamic."""
    text: str

    @property
    def writes_file(self) -> bool:
        """Whether this redirection may create or change a file."""
        if self.kind != "write":
            return False
        return self.target not in HARMLESS_WRITE_TARGETS


@dataclass(frozen=True, kw_only=True, slots=True)
class SimpleCommand:
    """One simple command with its wrappers and leading assignments stripped."""

    text: str
    args: tuple[Arg, ...]
    """The argv after wrappers and assignments; ``args[0]`` names the program."""
    wrappers: tuple[str, ...] = ()
    assignments: tuple[str, ...] = ()
    """Names of the leading ``VAR=value`` assignments."""
    redirects: tuple[Redirect, ...] = ()
    via_xargs: bool = False
    """Whether flag-less ``xargs`` supplies more arguments at run time."""

    @property
    def name(self) -> str | None:
        """The program's name when it is static."""
        if not self.args or not self.args[0].literal:
            return None
        return self.args[0].value

    @property
    def argv(self) -> tuple[str, ...]:
        """Each word's value, or its source text when it is not static."""
        return tuple(a.value if a.value is not None else a.text for a in self.args)

    @property
    def unsafe_assignments(self) -> tuple[str, ...]:
        """Leading assignments of variables not on the safe list."""
        return tuple(a for a in self.assignments if not safe_env(a))


@dataclass(frozen=True, kw_only=True, slots=True)
class Analysis:
    """What a command line is made of, and whether it is provably read-only."""

    source: str
    commands: tuple[SimpleCommand, ...] = ()
    problems: tuple[str, ...] = ()
    """Reasons the parse is not fully understood (parse errors, unknown syntax)."""
    hidden: tuple[str, ...] = ()
    """Constructs that hide commands: eval, ``bash -c``, source, ``$VAR`` as a command..."""
    opaque: tuple[str, ...] = ()
    """Constructs whose effect is not known statically: substitutions, subshells, ``&``..."""
    redirects: tuple[Redirect, ...] = ()
    """Every redirection, including those on compound statements."""

    @property
    def understood(self) -> bool:
        """Whether every part of the command was parsed and recognised."""
        return not self.problems and not self.hidden

    def split(self) -> tuple[str, ...] | None:
        """The text of each simple command, or None when not fully understood."""
        if not self.understood:
            return None
        return tuple(c.text for c in self.commands)
