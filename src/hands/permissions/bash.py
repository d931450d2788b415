"""Bash rule matching over the simple commands the Bash analysis finds.

A pattern is matched against each simple command on its own (``Bash(safe *)`` never
approves ``safe && other``). Allow rules see a command with wrappers (``timeout``,
``nice``...) and known-safe assignments stripped; deny and ask rules also see it through
``env``/``sudo``/``watch``/``find -exec``, inside ``bash -c`` and ``eval`` strings, with the
program's directory and letter case removed, and (for commands the analysis cannot fully
parse) with ``$IFS`` and quotes removed. Matching more for deny is the safe direction.

This module is a thin adapter over :mod:`hands.shell.analysis`, which does the parsing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hands.shell.analysis import Analysis, Arg, SimpleCommand

ANY_MORE = "\uffff"
"""Stands for the arguments flag-less ``xargs`` adds: only a trailing wildcard covers it."""

PEEL_WRAPPERS = frozenset(
    {
        "env", "sudo", "doas", "su", "watch", "setsid", "ionice", "flock", "nohup", "nice",
        "timeout", "time", "stdbuf", "chroot", "nsenter", "unshare", "xargs", "parallel",
        "command", "builtin", "exec", "script", "find", "fd", "caffeinate", "chrt", "taskset",
        "strace", "ltrace", "gdb", "busybox", "firejail", "proxychains", "torsocks", "npx",
    }
)  # fmt: skip
"""Programs that run another command given in their arguments."""
SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh"})

ACCEPT_EDITS_COMMANDS = frozenset({"mkdir", "touch", "rm", "rmdir", "mv", "cp", "sed"})
"""Filesystem commands ``acceptEdits`` approves inside the working directories."""

READ_COMMANDS = frozenset(
    {
        "cat", "head", "tail", "less", "more", "nl", "tac", "wc", "sort", "uniq", "cut",
        "diff", "cmp", "strings", "od", "hexdump", "xxd", "base64", "file", "stat", "grep",
        "egrep", "fgrep", "rg", "sed", "awk", "jq", "cp", "source", ".", "md5sum", "sha256sum",
        "sha1sum", "column", "fold", "paste", "rev", "bat", "view", "vim", "vi", "nano",
    }
)  # fmt: skip
"""File commands whose operands are read: Read deny rules apply to those operands."""
PATTERN_FIRST = frozenset({"grep", "egrep", "fgrep", "rg", "sed", "awk", "jq"})
WRITE_COMMANDS = frozenset(
    {"tee", "touch", "rm", "rmdir", "mkdir", "mv", "cp", "truncate", "ln", "chmod", "chown",
     "install", "shred", "dd"}
)  # fmt: skip
"""File commands whose operands may be written: Edit deny rules apply to those operands."""

SYSTEM_DIRS = frozenset(
    {
        "/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib64", "/usr/local", "/usr/local/bin",
        "/usr/share", "/usr/include", "/var/lib", "/var/log", "/etc/ssh", "/System/Library",
        "/Library/Application Support", "/private/etc", "/private/var", "/opt/homebrew",
    }
)  # fmt: skip

_IFS = re.compile(r"\$\{?IFS(?:[^}\s]*\})?")
_OPERATORS = re.compile(r"\s*(?:&&|\|\||;|\||&|\n)\s*")
_PURE_WILDCARD = re.compile(r"[*?.\[\]]*\*[*?.\[\]]*")
_BARE_VARIABLE = re.compile(
    r'"?(?:\$(?:\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*|[@*#?$!0-9])|\$\(.*\)|`.*`)"?/?', re.DOTALL
)


@dataclass(frozen=True, kw_only=True, slots=True)
class CommandPattern:
    """A compiled Bash (or PowerShell) specifier."""

    text: str
    any: bool = False
    exact: str | None = None
    prefix: str | None = None
    """``X`` of ``X *`` / ``X:*``: matches ``X`` and ``X`` followed by whitespace."""
    regex: re.Pattern[str] | None = None
    multi: re.Pattern[str] | None = None
    """For patterns that contain shell operators: a search over the whole command line."""
    ignore_case: bool = False

    def matches(self, command: str) -> bool:
        """Whether one (simple) command is covered."""
        if self.any:
            return True
        text = command.strip()
        if self.ignore_case:
            text = text.lower()
        if self.exact is not None:
            return text == self.exact
        if self.prefix is not None:
            p = self.prefix
            return text == p or (text.startswith(p) and text[len(p)].isspace())
        assert self.regex is not None
        return self.regex.fullmatch(text) is not None

    def matches_line(self, source: str) -> bool:
        """Whether a multi-command pattern (``curl * | sh``) occurs in the command line."""
        if self.multi is None:
            return False
        text = source.lower() if self.ignore_case else source
        return self.multi.search(text) is not None


def compile_command_pattern(spec: str, *, ignore_case: bool = False) -> CommandPattern:
    """Compile a specifier: ``*`` anywhere, trailing `` *`` / ``:*`` with a word boundary."""
    text = spec
    s = spec.strip()
    if ignore_case:
        s = s.lower()
    if s in ("", "*"):
        return CommandPattern(text=text, any=True)
    trailing = False
    if s.endswith(":*"):
        s, trailing = s[:-2].rstrip(), True
    elif s.endswith(" *"):
        s, trailing = s[:-2].rstrip(), True
    if not s:
        return CommandPattern(text=text, any=True)
    pieces = _split_stars(s)
    if len(pieces) == 1:
        literal = pieces[0]
        multi = _multi(re.escape(literal), trailing) if _has_operator(literal) else None
        if trailing:
            return CommandPattern(text=text, prefix=literal, multi=multi, ignore_case=ignore_case)
        return CommandPattern(text=text, exact=literal, multi=multi, ignore_case=ignore_case)
    body = ".*".join(re.escape(p) for p in pieces)
    regex = re.compile(body + (r"(?:\s.*)?" if trailing else ""), re.DOTALL)
    multi = _multi(body, trailing) if _has_operator(s) else None
    return CommandPattern(text=text, regex=regex, multi=multi, ignore_case=ignore_case)


def _split_stars(s: str) -> list[str]:
    """Split on unescaped ``*``; a backslash before a star makes it literal."""
    pieces: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(s):
        ch = s[i]
        if ch == "\\" and i + 1 < len(s) and s[i + 1] == "*":
            current.append("*")
            i += 2
            continue
        if ch == "*":
            pieces.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    pieces.append("".join(current))
    return pieces


def _has_operator(s: str) -> bool:
    return any(op in s for op in ("|", "&&", ";", "\n"))


def _multi(body: str, trailing: bool) -> re.Pattern[str]:
    tail = r"(?:\s[^;&|\n]*)?" if trailing else ""
    return re.compile(rf"(?:^|[;&|\n(])\s*{body}{tail}\s*(?=$|[;&|\n)])", re.DOTALL)


# -- the forms of one simple command that rules are matched against ---------------------


def allow_forms(cmd: SimpleCommand) -> tuple[str, ...]:
    """What allow rules see: wrappers and known-safe assignments stripped, nothing else."""
    stripped = " ".join(a.text for a in cmd.args)
    if cmd.unsafe_assignments:
        # the assignment may change what runs: only a rule that spells it out covers it
        forms: tuple[str, ...] = () if cmd.wrappers else (cmd.text.strip(),)
    elif cmd.assignments or cmd.wrappers:
        forms = (stripped,)
    else:
        forms = (cmd.text.strip(), stripped)
    if cmd.via_xargs:
        return tuple(f"{f} {ANY_MORE}" for f in forms)
    return tuple(dict.fromkeys(forms))


def deny_forms(cmd: SimpleCommand, *, depth: int = 0) -> tuple[str, ...]:
    """What deny and ask rules see: every way of reading the command that might run."""
    forms: list[str] = [cmd.text.strip()]
    args = cmd.args
    if args:
        forms.append(" ".join(a.text for a in args))
        values = [a.value if a.value is not None else a.text for a in args]
        forms.extend(_program_variants(values))
        name = _base(values[0])
        starts = [0]
        if name in PEEL_WRAPPERS or (name in SHELLS and len(values) > 1):
            starts = list(range(len(values)))
            for i in range(1, len(values)):
                forms.extend(_program_variants(values[i:]))
        for i in starts:
            if _base(values[i]) == "git":
                forms.extend(_git_forms(values[i:], depth=depth))
        if depth < 3:
            inner = _inner_script(values, args)
            if inner is not None:
                from hands.shell.analysis import analyze

                analysis = analyze(inner)
                forms.extend(line_forms(analysis, depth=depth + 1))
    return tuple(dict.fromkeys(f for f in forms if f))


def _git_forms(values: Sequence[str], *, depth: int) -> list[str]:
    """``git`` as it runs: global options dropped, ``-c alias.…`` aliases expanded."""
    from hands.shell.git_options import read_git

    call = read_git(["git", *values[1:]])
    forms = [" ".join(call.argv)]
    if call.shell is not None and depth < 3:
        from hands.shell.analysis import analyze

        forms.extend(line_forms(analyze(call.shell), depth=depth + 1))
    return forms


def git_unknowable(cmd: SimpleCommand) -> str | None:
    """Why what a ``git`` command runs cannot be read from its words, or None."""
    from hands.shell.git_options import read_git

    values = list(cmd.argv)
    for i, value in enumerate(values):
        if _base(value) == "git":
            found = read_git(["git", *values[i + 1 :]]).unknowable
            if found is not None:
                return found
        if i == 0 and _base(value) not in PEEL_WRAPPERS:
            break
    return None


def line_forms(analysis: Analysis, *, depth: int = 0) -> list[str]:
    """Deny forms of every simple command of a command line, plus loose readings of it."""
    forms: list[str] = []
    for cmd in analysis.commands:
        forms.extend(deny_forms(cmd, depth=depth))
    if not analysis.understood or analysis.opaque:
        forms.extend(loose_segments(analysis.source))
    return forms


def loose_segments(source: str) -> list[str]:
    """``$IFS``, quotes and backslashes removed, split at the shell operators."""
    text = _IFS.sub(" ", source)
    text = text.replace("\\\n", "").replace("'", "").replace('"', "").replace("\\", "")
    text = text.replace("`", "\n").replace("$(", "\n").replace(")", "\n")
    out: list[str] = []
    for segment in _OPERATORS.split(text):
        words = segment.split()
        if words:
            out.extend(_program_variants(words))
    return out


def _program_variants(values: Sequence[str]) -> list[str]:
    line = " ".join(values)
    out = [line]
    first = values[0]
    base = _base(first)
    if base != first:
        out.append(" ".join([base, *values[1:]]))
    return out


def _base(program: str) -> str:
    return program.rstrip("/").rpartition("/")[2].lower() or program


def _inner_script(values: Sequence[str], args: Sequence[Arg]) -> str | None:
    """The script of ``bash -c SCRIPT`` / ``eval WORDS``, when it is static."""
    name = _base(values[0])
    if name == "eval":
        if all(a.value is not None for a in args[1:]):
            return " ".join(values[1:])
        return None
    if name in SHELLS:
        for i, v in enumerate(values[1:], start=1):
            if v.startswith("-") and not v.startswith("--") and "c" in v[1:]:
                if i + 1 < len(args) and args[i + 1].value is not None:
                    return values[i + 1]
                return None
    return None


# -- paths inside commands ---------------------------------------------------------------


def operands(cmd: SimpleCommand) -> list[Arg]:
    """The non-flag arguments after the program name."""
    out: list[Arg] = []
    after_dashdash = False
    for arg in cmd.args[1:]:
        v = arg.value
        if not after_dashdash and v == "--":
            after_dashdash = True
            continue
        if not after_dashdash and v is not None and v.startswith("-") and v != "-":
            continue
        out.append(arg)
    return out


def file_operands(cmd: SimpleCommand) -> tuple[list[str], list[str]]:
    """(paths read, paths written) by a recognised file command, as written."""
    name = cmd.name
    if name is None:
        return [], []
    name = _base(name)
    ops = [a.value for a in operands(cmd) if a.value is not None]
    reads: list[str] = []
    writes: list[str] = []
    if name in READ_COMMANDS:
        reads = ops[1:] if name in PATTERN_FIRST else list(ops)
        if name == "cp":
            reads = ops[:-1]
    if name in WRITE_COMMANDS:
        writes = ops[-1:] if name in ("cp", "install", "ln") else list(ops)
        if name == "dd":
            writes = [v[3:] for v in ops if v.startswith("of=")]
            reads = [v[3:] for v in ops if v.startswith("if=")]
    if name == "sed" and any(
        a.value in ("-i", "--in-place") or (a.value or "").startswith("-i") for a in cmd.args[1:]
    ):
        writes = ops[1:]
    return reads, writes


def expand_path(raw: str, *, cwd: Path, home: Path) -> str:
    """``raw`` as an absolute, normalised path (``~`` expanded)."""
    if raw == "~" or raw.startswith("~/"):
        raw = str(home) + raw[1:]
    path = raw if raw.startswith("/") else f"{cwd}/{raw}"
    if ".." in path.split("/"):
        # the kernel takes ``..`` after following a symlink: ``link/..`` is the
        # target's parent, not the directory holding the link
        return os.path.realpath(path)
    return os.path.normpath(path)


def critical_removal(
    cmd: SimpleCommand, *, cwd: Path, home: Path, working_dirs: Iterable[Path]
) -> str | None:
    """Why ``rm``/``rmdir`` here would remove a critical path, or None."""
    args = list(cmd.args)
    if not args:
        return None
    values = [a.value for a in args]
    starts = [0]
    if _base(values[0] or "") in PEEL_WRAPPERS:
        starts = list(range(len(args)))
    for start in starts:
        head = values[start]
        if head is None or _base(head) not in ("rm", "rmdir"):
            continue
        found = _critical_operands(args[start + 1 :], cwd=cwd, home=home, dirs=working_dirs)
        if found:
            return found
    return None


def _critical_operands(
    args: Sequence[Arg], *, cwd: Path, home: Path, dirs: Iterable[Path]
) -> str | None:
    critical = critical_paths(cwd=cwd, home=home)
    roots = {os.path.normpath(d) for d in dirs}
    after = False
    for arg in args:
        v = arg.value
        if not after and v == "--":
            after = True
            continue
        if not after and v is not None and v.startswith("-") and v != "-":
            continue
        if v is None:
            if arg.text.rstrip("/").endswith("*"):
                return f"a glob under a shell variable ({arg.text})"
            if _BARE_VARIABLE.fullmatch(arg.text):
                return f"a path held in a shell variable ({arg.text})"
            continue
        if arg.kind == "glob":
            head, _, last = v.rstrip("/").rpartition("/")
            if _PURE_WILDCARD.fullmatch(last) and not any(c in head for c in "*?["):
                parent = expand_path(
                    head or ("/" if v.startswith("/") else "."), cwd=cwd, home=home
                )
                if parent in critical or parent in roots:
                    return f"everything in {parent}"
            continue
        target = expand_path(v, cwd=cwd, home=home)
        if target in critical:
            return target
    return None


def critical_paths(*, cwd: Path, home: Path) -> frozenset[str]:
    """The filesystem root, its children, system directories, home, cwd and its parents."""
    out = {"/", *SYSTEM_DIRS}
    try:
        out.update(str(child) for child in Path("/").iterdir())
    except OSError:
        pass
    for base in (Path(os.path.normpath(home)), Path(os.path.normpath(cwd))):
        out.add(str(base))
        out.update(str(p) for p in base.parents)
    return frozenset(out)


def accept_edits_covers(
    cmd: SimpleCommand, *, cwd: Path, home: Path, inside: Callable[[str], bool]
) -> bool:
    """Whether ``acceptEdits`` approves this filesystem command (all paths inside)."""
    name = cmd.name
    if name not in ACCEPT_EDITS_COMMANDS or cmd.unsafe_assignments or cmd.via_xargs:
        return False
    if any(a.kind == "dynamic" for a in cmd.args[1:]):
        return False
    ops = operands(cmd)
    if name == "sed":
        script_given = any(
            (a.value or "").startswith(("-e", "--expression", "-f", "--file")) for a in cmd.args[1:]
        )
        if script_given or not ops or not _simple_sed_script(ops[0].value or ""):
            return False
        ops = ops[1:]
    if not ops:
        return False
    for arg in ops:
        value = arg.value or ""
        if arg.kind == "glob":
            value = re.split(r"[*?\[{]", value, maxsplit=1)[0] or "."
        if value.startswith("~"):
            return False
        if not inside(expand_path(value, cwd=cwd, home=home)):
            return False
    return True


_SED_SUBST_FLAGS = frozenset("gpiI0123456789")


def _simple_sed_script(script: str) -> bool:
    """``s/a/b/flags`` or a ``d`` command: no ``w``, ``e``, ``r`` or other commands."""
    s = script.strip()
    address = re.match(r"(?:\d+|\$)?(?:,(?:\d+|\$))?", s)
    rest = s[address.end() :] if address else s
    if rest == "d":
        return True
    if len(rest) < 4 or rest[0] != "s" or rest[1].isalnum() or rest[1] in "\\\n":
        return False
    delim = rest[1]
    parts: list[str] = []
    current: list[str] = []
    i = 2
    while i < len(rest):
        ch = rest[i]
        if ch == "\\" and i + 1 < len(rest):
            current.append(rest[i : i + 2])
            i += 2
            continue
        if ch == delim:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    if len(parts) != 2:
        return False
    flags = "".join(current)
    return all(f in _SED_SUBST_FLAGS for f in flags)
