"""The files a shell command reads, for the check that keeps reads inside the working dirs.

A command on :data:`READERS` reads its path operands (after a pattern or filter for
``grep``, ``rg``, ``sed``, ``awk``, ``jq``), the values of its read-from-file flags, and,
with no operand, the directory it runs in when it lists or searches. An input redirection
``< file`` reads its target. A word whose value the analysis cannot know (a variable, a
substitution) is not provably inside, so it is reported as unresolved; ``$HOME`` and
``$PWD`` at the start of a word are resolved.

A recursive search that follows symlinks reads wherever the links below its roots lead;
:func:`links_leaving` looks for such links (up to a bound, past which it answers "yes").
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from hands.shell.readonly import READ_ONLY_PROGRAMS

if TYPE_CHECKING:
    from hands.shell.syntax import Arg, SimpleCommand

PATTERN_FIRST = frozenset({"grep", "egrep", "fgrep", "rg", "sed", "awk", "jq"})
LISTS_CWD = frozenset({"ls", "find", "rg", "du", "tree", "fd", "dir", "vdir"})
NO_PATH_OPERANDS = frozenset(
    {
        "[", "test", "arch", "basename", "dirname", "cal", "ncal", "cd", "date", "echo",
        "printf", "expr", "seq", "sleep", "true", "false", "free", "groups", "id", "whoami",
        "help", "history", "hostname", "uname", "uptime", "nproc", "ip", "ss", "netstat",
        "locale", "node", "python", "python3", "numfmt", "pgrep", "ps", "pwd", "tput", "tr",
        "type", "which", "git", "realpath", "readlink",
    }
)  # fmt: skip
"""Read-only programs whose operands are no files read (text, numbers, names, patterns;
``realpath`` and ``readlink`` spell a path out, as Claude Code allows): ``cd`` and ``git``
are read on their own, read-from-file flags (``date -f``) through FILE_FLAGS."""
READERS = (READ_ONLY_PROGRAMS - NO_PATH_OPERANDS) | frozenset(
    {
        "less", "more", "bat", "awk", "xxd", "b2sum", "cksum", "base32", "dir", "vdir",
        "join", "shuf", "split", "csplit", "iconv", "source", ".", "cp", "lsattr",
        "getfacl", "zcat", "bzcat", "xzcat", "gzip", "tar", "unzip", "zipinfo",
    }
)  # fmt: skip
"""Programs whose path operands are read: every read-only program (:mod:`hands.shell.readonly`)
but those above, and other readers. A program added to the read-only table is a reader
unless it is named above."""

# flags whose value is a file that is read: program -> (short flags, long flags)
FILE_FLAGS: dict[str, tuple[str, frozenset[str]]] = {
    "grep": ("f", frozenset({"--file", "--exclude-from"})),
    "egrep": ("f", frozenset({"--file", "--exclude-from"})),
    "fgrep": ("f", frozenset({"--file", "--exclude-from"})),
    "rg": ("f", frozenset({"--file", "--ignore-file"})),
    "jq": ("f", frozenset({"--from-file", "--rawfile", "--slurpfile"})),
    "date": ("fr", frozenset({"--file", "--reference"})),
    "file": ("fm", frozenset({"--files-from", "--magic-file"})),
    "sort": ("", frozenset({"--files0-from", "--random-source"})),
    "wc": ("", frozenset({"--files0-from"})),
    "du": ("X", frozenset({"--files0-from", "--exclude-from"})),
    "diff": ("", frozenset({"--from-file", "--to-file", "--exclude-from"})),
    "sed": ("f", frozenset({"--file"})),
    "awk": ("f", frozenset({"--file"})),
    "touch": ("r", frozenset({"--reference"})),
    "tree": ("", frozenset({"--fromfile"})),
    "hexdump": ("f", frozenset({"--format-file"})),
    "pgrep": ("F", frozenset({"--pidfile"})),
}
LISTING_FLAGS: dict[str, tuple[str, frozenset[str]]] = {
    **{
        prog: ("c", frozenset({"--check"}))
        for prog in ("md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum",
                     "b2sum", "cksum")
    },
    "wc": ("", frozenset({"--files0-from"})),
    "sort": ("", frozenset({"--files0-from"})),
    "du": ("", frozenset({"--files0-from"})),
    "file": ("f", frozenset({"--files-from"})),
}  # fmt: skip
"""Flags that make a program read the files named inside another file (a checksum list,
a NUL-separated list): those names are not known before the command runs."""
MAX_GLOB = 1000
"""Matches of one glob checked one by one; a glob with more is not provably inside."""
TWO_VALUES = frozenset({"--rawfile", "--slurpfile"})
"""jq's ``--rawfile NAME FILE``: the file is the second value."""
FOLLOWING: dict[str, tuple[str, frozenset[str]]] = {
    "grep": ("R", frozenset({"--dereference-recursive"})),
    "egrep": ("R", frozenset({"--dereference-recursive"})),
    "fgrep": ("R", frozenset({"--dereference-recursive"})),
    "rg": ("L", frozenset({"--follow"})),
    "find": ("", frozenset({"-L", "-follow"})),
    "du": ("L", frozenset({"--dereference"})),
    "tree": ("l", frozenset[str]()),
    "ls": ("L", frozenset({"--dereference"})),
    "fd": ("L", frozenset({"--follow"})),
}
"""Flags that make a recursive walk follow symlinks."""
_VALUED_SHORT: dict[str, str] = {
    "grep": "efmABCD", "egrep": "efmABCD", "fgrep": "efmABCD", "rg": "ABCEefgjMmrTtd",
    "head": "nc", "tail": "ncs", "cut": "bcdf", "sort": "kotST", "uniq": "fsw", "nl": "bdfhilnpsvw",
    "od": "AjNtSw", "xxd": "cgloOsn", "strings": "nte", "sed": "efl", "awk": "fvF", "jq": "f",
    "file": "fmFP", "stat": "c", "ls": "ITw", "du": "BdXt", "fold": "w", "column": "cstoR",
    "split": "abln", "wc": "", "diff": "CFIUWSXx", "paste": "d", "tree": "LPIoH",
    "hexdump": "eEfns", "date": "dfrI", "pr": "wloNhHe",
}  # fmt: skip
_VALUED_LONG = frozenset(
    {"--regexp", "--file", "--max-count", "--after-context", "--before-context", "--context",
     "--glob", "--iglob", "--type", "--type-not", "--max-depth", "--lines", "--bytes",
     "--key", "--output", "--field-separator", "--format", "--printf", "--files0-from",
     "--expression", "--rawfile", "--slurpfile", "--arg", "--argjson", "--from-file",
     "--reference", "--date", "--ignore-file", "--exclude-from", "--magic-file",
     "--files-from", "--width", "--delimiter", "--label", "--color", "--colors",
     "--encoding", "--sort", "--sortr", "--max-filesize", "--threads", "--replace",
     "--random-source", "--to-file", "--time-style", "--block-size"}
)  # fmt: skip
_FIND_OPTIONS = frozenset({"-H", "-L", "-P"})
_DYNAMIC_PREFIX = re.compile(r"^\$(?:\{(HOME|PWD)\}|(HOME|PWD))(?![A-Za-z0-9_])(.*)$", re.S)
MAX_WALK = 2000


@dataclass(kw_only=True, slots=True)
class Reads:
    """The paths one command line reads: resolved ones, and words that could not be."""

    paths: list[tuple[str, str]] = field(default_factory=list[tuple[str, str]])
    """(program, path) with the path absolute; relative to the directory the command ran in."""
    unresolved: list[tuple[str, str]] = field(default_factory=list[tuple[str, str]])
    """(program, word) for words whose value is not known."""
    following: list[tuple[str, str]] = field(default_factory=list[tuple[str, str]])
    """(program, root) for recursive walks that follow symlinks."""
    files: list[str] = field(default_factory=list[str])
    """Paths read through a redirection or a read-from-file flag (for Read deny rules)."""
    trees: list[tuple[str, str]] = field(default_factory=list[tuple[str, str]])
    """(program, root) for readers of every file below a directory (``grep -r``, ``tar``)."""


def command_reads(
    cmd: SimpleCommand,
    *,
    expand: Callable[[str], str],
    home: str,
    cwd: str,
    out: Reads,
) -> None:
    """Add what ``cmd`` reads to ``out``; ``expand`` makes a static word an absolute path."""
    for red in cmd.redirects:
        if red.kind == "read":
            _add(out, "<", red.target, red.text, expand)
            if red.target is not None:
                out.files.append(expand(red.target))
    name = cmd.name
    if name is None:
        return
    name = name.rpartition("/")[2]
    args = cmd.args[1:]
    _tree_reads(name, args, expand, cwd=cwd, out=out)
    if name == "git":
        _git_reads(args, out, expand)
        return
    if name not in READERS and name not in FILE_FLAGS:
        return
    flags, flag_files, operands = _split(name, args)
    if _lists_files(name, flags):
        out.unresolved.append((name, "the files a list given to it names"))
    for word in flag_files:
        path = _add_arg(out, name, word, expand, home=home, cwd=cwd)
        if path is not None:
            out.files.append(path)
    if name not in READERS:
        return
    if name in PATTERN_FIRST and operands and not _pattern_in_flags(name, flags):
        operands = operands[1:]
    if name == "find":
        operands = _find_roots(operands)
    roots = _operand_reads(name, flags, operands, expand, home=home, cwd=cwd, out=out)
    if _follows(name, flags):
        out.following.extend((name, r) for r in roots)


TREE_READERS: dict[str, tuple[str, frozenset[str]] | None] = {
    **{
        grep: ("rR", frozenset({"--recursive", "--dereference-recursive"}))
        for grep in ("grep", "egrep", "fgrep")
    },
    "rg": None,
    "tar": None,
    "rsync": None,
    "zip": ("r", frozenset({"--recurse-paths"})),
    "cp": ("rRa", frozenset({"--recursive", "--archive"})),
    "scp": ("r", frozenset[str]()),
    "diff": ("r", frozenset({"--recursive"})),
}
"""Programs that read every file below a directory operand: always (None), or with a flag."""
_FIND_RUNS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_GIT_TREE_READERS = frozenset(
    {"grep", "archive", "diff", "difftool", "blame", "annotate", "format-patch", "range-diff"}
)
"""git subcommands that can print any tracked file's content (a diff shows the lines)."""
_GIT_BLOB_READERS = frozenset({"show", "cat-file"})
_GIT_PATCH_READERS = frozenset({"log", "whatchanged", "stash", "reflog"})
"""git subcommands that print file contents only with a patch option."""
_PATCH_OPTIONS = frozenset(
    {"-p", "-u", "--patch", "--patch-with-stat", "--patch-with-raw", "--cc", "-c", "--full-diff"}
)


def _tree_reads(
    name: str, args: Sequence[Arg], expand: Callable[[str], str], *, cwd: str, out: Reads
) -> None:
    """Record the directories ``name`` reads every file below (see :data:`TREE_READERS`)."""
    values = [a.value for a in args]
    if name == "git":
        _git_trees(values, expand, cwd=cwd, out=out)
        return
    if name == "find":
        if _FIND_RUNS.intersection(v for v in values if v is not None):
            roots = [a.value for a in _find_roots(args) if a.value is not None]
            out.trees.extend((name, expand(r)) for r in roots or ["."])
        return
    if name not in TREE_READERS:
        return
    spec = TREE_READERS[name]
    flags, _, operands = _split(name, args)
    if spec is not None and not _has_flag(spec, flags) and not _bundled(spec[0], values):
        return
    searches = name in ("grep", "egrep", "fgrep", "rg")
    ops = list(operands)
    if searches and ops and not _pattern_in_flags(name, flags):
        ops = ops[1:]
    words = [a.value for a in ops if a.value is not None]
    if name in ("rsync", "scp"):
        words = [w for w in words if ":" not in w.partition("/")[0]]  # a remote side
    if searches and not ops:
        words = ["."]
    out.trees.extend((name, expand(w)) for w in words if w != "-")


def _bundled(letters: str, values: Sequence[str | None]) -> bool:
    """``tar``-style bundles and old-style first words: ``cp -aR``, ``zip -rq``."""
    return any(
        v is not None and v.startswith("-") and not v.startswith("--") and set(v[1:]) & set(letters)
        for v in values
    )


def _git_trees(
    values: Sequence[str | None], expand: Callable[[str], str], *, cwd: str, out: Reads
) -> None:
    """``git grep`` and ``git archive`` read the repository; ``git show REV:path`` a file."""
    from hands.shell.git_options import read_git

    if any(v is None for v in values):
        return
    argv = read_git(["git", *(v for v in values if v is not None)]).argv
    if len(argv) < 2:
        return
    sub, rest = argv[1], argv[2:]
    if sub in _GIT_TREE_READERS or (sub in _GIT_PATCH_READERS and _patch_option(rest)):
        out.trees.append(("git", _repo_root(cwd)))
    elif sub in _GIT_BLOB_READERS:
        blobs = [w for w in rest if not w.startswith("-") and ":" in w[1:]]
        if sub == "show" and not blobs:  # a commit: its diff shows the files' lines
            out.trees.append(("git", _repo_root(cwd)))
        for word in blobs:
            rev, colon, path = word.partition(":")
            if colon and rev:
                base = cwd if path.startswith(("./", "../")) else _repo_root(cwd)
                out.trees.append(("git", expand(f"{base}/{path}" if path else base)))


def _patch_option(words: Sequence[str]) -> bool:
    """Whether ``git log``-like words ask for patches (``-p``, ``-U3``, ``--unified=5``)."""
    return any(w in _PATCH_OPTIONS or w.startswith(("-U", "--unified")) for w in words)


def _repo_root(cwd: str) -> str:
    """The working tree ``cwd`` is in (its nearest parent with ``.git``), or ``cwd``."""
    current = Path(cwd)
    for candidate in (current, *current.parents):
        if (candidate / ".git").exists():
            return str(candidate)
    return cwd


def _operand_reads(
    name: str,
    flags: Sequence[str],
    operands: Sequence[Arg],
    expand: Callable[[str], str],
    *,
    home: str,
    cwd: str,
    out: Reads,
) -> list[str]:
    """Add the operands read (or the cwd a listing reads); return the resolved ones."""
    if not operands and (name in LISTS_CWD or _recursive(name, flags)):
        out.paths.append((name, cwd))
        return [cwd]
    roots: list[str] = []
    for word in operands:
        path = _add_arg(out, name, word, expand, home=home, cwd=cwd)
        if path is not None:
            roots.append(path)
    return roots


def _add(out: Reads, name: str, value: str | None, text: str, expand: Callable[[str], str]) -> None:
    if value is None or (value.startswith("~") and not value.startswith("~/") and value != "~"):
        out.unresolved.append((name, text))
    else:
        out.paths.append((name, expand(value)))


def _add_arg(
    out: Reads,
    name: str,
    arg: Arg,
    expand: Callable[[str], str],
    *,
    home: str,
    cwd: str,
) -> str | None:
    value = arg.value
    if value is None:
        text = arg.text
        if len(text) > 1 and text[0] == text[-1] == '"':
            text = text[1:-1]
        m = _DYNAMIC_PREFIX.match(text)
        rest = m.group(3) if m else None
        if m is None or rest is None or any(c in rest for c in "$`\\\"'"):
            out.unresolved.append((name, arg.text))
            return None
        value = (home if (m.group(1) or m.group(2)) == "HOME" else cwd) + rest
    if value == "-" or value == "":
        return None
    if value.startswith("~") and not value.startswith("~/") and value != "~":
        out.unresolved.append((name, arg.text))
        return None
    if arg.kind == "glob":
        path = expand(value)
        out.paths.append((name, path))
        head = re.split(r"[*?\[{]", path, maxsplit=1)[0]
        out.paths.append((name, head.rpartition("/")[0] or "/"))
        # each match is read: one may be a symlink that leads out of the project
        base = head.rpartition("/")[0] or "/"
        matches = _matches(base, path[len(base) :].lstrip("/"))
        if len(matches) > MAX_GLOB:
            out.unresolved.append((name, arg.text))
        out.paths.extend((name, m) for m in matches[:MAX_GLOB])
        return path
    path = expand(value)
    out.paths.append((name, path))
    return path


def _matches(base: str, pattern: str) -> list[str]:
    """What a glob matches now (hidden names too: more, not fewer, than bash finds)."""
    out: list[str] = []
    try:
        for found in Path(base).glob(pattern):
            out.append(str(found))
            if len(out) > MAX_GLOB:
                break
    except (OSError, ValueError):
        return []
    return out


def _split(name: str, args: Sequence[Arg]) -> tuple[list[str], list[Arg], list[Arg]]:
    """(flags, words read as files by flags, operands) of one command."""
    short_files, long_files = FILE_FLAGS.get(name, ("", frozenset[str]()))
    valued_short = _VALUED_SHORT.get(name, "")
    flags: list[str] = []
    files: list[Arg] = []
    operands: list[Arg] = []
    i = 0
    n = len(args)
    find_like = name == "find"
    while i < n:
        arg = args[i]
        v = arg.value
        i += 1
        if v is None or find_like:
            operands.append(arg)
            continue
        if v == "--":
            operands.extend(args[i:])
            break
        if v.startswith("--"):
            i = _long_flag(args, i, long_files, flags, files)
            continue
        if v.startswith("-") and len(v) > 1 and not v[1].isdigit():
            for k, ch in enumerate(v[1:], start=1):
                flags.append("-" + ch)
                if ch in short_files or ch in valued_short:
                    attached = v[k + 1 :]
                    if ch in short_files:
                        if attached:
                            files.append(_value_arg(arg, k + 1))
                        elif i < n:
                            files.append(args[i])
                    if not attached:
                        i += 1
                    break
            continue
        operands.append(arg)
    if find_like:
        flags = [a.value for a in args if a.value in _FIND_OPTIONS or a.value == "-follow"]  # type: ignore[misc]
    return flags, files, operands


def _long_flag(
    args: Sequence[Arg], i: int, long_files: frozenset[str], flags: list[str], files: list[Arg]
) -> int:
    """Record the long flag just before ``args[i]``; the index past its value."""
    arg = args[i - 1]
    v = arg.value or ""
    flag, eq, _ = v.partition("=")
    flags.append(flag)
    if flag in TWO_VALUES:
        if i + 1 < len(args):
            files.append(args[i + 1])
        return i + 2
    if eq:
        if flag in long_files:
            files.append(_value_arg(arg, len(flag) + 1))
        return i
    if flag in _VALUED_LONG or flag in long_files:
        if flag in long_files and i < len(args):
            files.append(args[i])
        return i + 1
    return i


def _value_arg(arg: Arg, start: int) -> Arg:
    from hands.shell.syntax import Arg as ArgType

    value = arg.value
    assert value is not None
    return ArgType(text=arg.text[start:], value=value[start:], kind=arg.kind)


def _lists_files(name: str, flags: Sequence[str]) -> bool:
    return _has_flag(LISTING_FLAGS.get(name), flags)


def _pattern_in_flags(name: str, flags: Sequence[str]) -> bool:
    if name in ("grep", "egrep", "fgrep", "rg"):
        return any(f in ("-e", "-f", "--regexp", "--file") for f in flags)
    if name in ("sed", "awk"):
        return any(f in ("-e", "-f", "--expression", "--file") for f in flags)
    if name == "jq":
        return any(f in ("-f", "--from-file") for f in flags)
    return False


def _find_roots(operands: Sequence[Arg]) -> list[Arg]:
    roots: list[Arg] = []
    for arg in operands:
        v = arg.value
        if v in _FIND_OPTIONS or (v is not None and v.startswith("-D")):
            continue
        if v is not None and (v.startswith(("-", "(", "!")) or v == ","):
            break
        roots.append(arg)
    return roots


def _recursive(name: str, flags: Sequence[str]) -> bool:
    if name in ("grep", "egrep", "fgrep"):
        return any(f in ("-r", "-R", "--recursive", "--dereference-recursive") for f in flags)
    return False


def _follows(name: str, flags: Sequence[str]) -> bool:
    return _has_flag(FOLLOWING.get(name), flags)


def _has_flag(spec: tuple[str, frozenset[str]] | None, flags: Sequence[str]) -> bool:
    """Whether ``flags`` hold one of ``spec``'s (short letters, long names)."""
    if spec is None:
        return False
    short, long = spec
    return any((len(f) == 2 and f[1] in short) or f in long for f in flags)


_GIT_FILE_OPTIONS = frozenset({"--contents", "--output", "--git-dir", "--work-tree"})
_GIT_SUB_FILE_OPTIONS: dict[str, frozenset[str]] = {
    "blame": frozenset({"-S"}),
    "ls-files": frozenset({"-X", "--exclude-from"}),
    "grep": frozenset({"-f"}),
    "config": frozenset({"-f", "--file"}),
}
"""Per subcommand, options whose value is a file read: revisions, excludes, patterns."""


def _git_reads(args: Sequence[Arg], out: Reads, expand: Callable[[str], str]) -> None:
    """``git diff --no-index A B`` and ``git blame --contents FILE`` read files anywhere."""
    values = [a.value for a in args]
    no_index = "--no-index" in values
    sub = next((v for v in values if v is not None and not v.startswith("-")), None)
    file_options = _GIT_FILE_OPTIONS | _GIT_SUB_FILE_OPTIONS.get(sub or "", frozenset())
    i = 0
    while i < len(args):
        arg = args[i]
        v = arg.value
        i += 1
        if v is None:
            if no_index:
                out.unresolved.append(("git", arg.text))
            continue
        flag, eq, rest = v.partition("=")
        if flag in file_options:
            if eq:
                _add(out, "git", rest, arg.text, expand)
            elif i < len(args):
                nxt = args[i]
                _add(out, "git", nxt.value, nxt.text, expand)
                i += 1
            continue
        if no_index and not v.startswith("-") and v not in ("diff",):
            _add(out, "git", v, arg.text, expand)


def walk_below(root: str, *, limit: int) -> Iterator[str]:
    """``root`` and every path below it, at most ``limit`` of them.

    Symlinks are not followed (a walk that follows them is checked apart) and ``.git``
    directories are not entered (git's own objects, not the project's files).

    Raises :class:`TooMany` past the limit: what was not walked is not known.
    """
    yield root
    seen = 1
    for path in _walk(root):
        seen += 1
        if seen > limit:
            raise TooMany(f"more than {limit:,} entries below {root}")
        yield path


class TooMany(Exception):
    """A walk went past its limit."""


def links_leaving(root: str, inside: Callable[[str], bool]) -> str | None:
    """A symlink below ``root`` whose target is outside, or a reason to assume one."""
    seen = 0
    for path in _walk(root):
        seen += 1
        if seen > MAX_WALK:
            return f"more than {MAX_WALK} entries below {root}"
        if Path(path).is_symlink() and not inside(os.path.realpath(path)):
            return path
    return None


def _walk(root: str) -> Iterator[str]:
    stack = [root]
    while stack:
        current = stack.pop()
        try:
            entries = list(os.scandir(current))
        except OSError:
            continue
        for entry in entries:
            yield entry.path
            try:
                if entry.is_dir(follow_symlinks=False) and entry.name != ".git":
                    stack.append(entry.path)
            except OSError:
                continue


__all__ = ["READERS", "Reads", "TooMany", "command_reads", "links_leaving", "walk_below"]
