"""The read-only allow-list: per-command rules over a parsed argv.

A command is read-only only when its program is listed here and every flag and operand
passes that program's rule. Unknown programs, unknown flags and words whose value is not
static (where a rule needs to see them) all mean "not read-only".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hands.shell.syntax import Analysis, SimpleCommand

Rule = Callable[[Sequence[str]], bool]

# Programs none of whose flags or operands write files, run programs or change state,
# so any argument - even a glob or a variable - is fine.
LOOSE_COMMANDS = frozenset(
    {
        "ls", "cat", "head", "tail", "wc", "pwd", "echo", "which", "type",
        "stat", "du", "df", "diff", "grep", "egrep", "fgrep", "nl", "cut", "tr",
        "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum",
        "cmp", "comm", "realpath", "readlink", "basename", "dirname",
        "sleep", "whoami", "id", "groups", "uname", "nproc", "arch",
        "true", "false", "tac", "rev", "od", "strings", "paste", "fold", "column",
        "expand", "unexpand", "fmt", "seq", "uptime", "free", "ps",
        "pgrep", "lsof", "file", "numfmt", "hexdump", "tsort", "expr", "pr", "cal", "ncal",
        "netstat",
    }
)  # fmt: skip

READ_ONLY_CONSTRUCTS = frozenset({"test command", "if statement", "elif clause", "else clause"})
"""Constructs that change nothing themselves (loops are left out: a loop variable can
carry a flag such as ``-delete`` to a command that reads it only at run time)."""


def analysis_is_read_only(analysis: Analysis) -> bool:
    """Whether the whole command line provably changes nothing.

    Tests and ``if`` branches may surround the commands: every command inside them
    is in :attr:`Analysis.commands` and checked like the others.
    """
    if not analysis.understood or any(o not in READ_ONLY_CONSTRUCTS for o in analysis.opaque):
        return False
    if not analysis.commands and "test command" not in analysis.opaque:
        return False
    if any(r.writes_file or (r.kind == "write" and r.target is None) for r in analysis.redirects):
        return False
    names = {c.name for c in analysis.commands}
    if "cd" in names and "git" in names:
        return False  # git in another directory may run that repository's hooks
    return all(command_is_read_only(c) for c in analysis.commands)


def why_not_read_only(analysis: Analysis) -> tuple[str, ...]:
    """Why the command line is not read-only (empty when it is)."""
    out = [*analysis.problems, *analysis.hidden]
    out += [o for o in analysis.opaque if o not in READ_ONLY_CONSTRUCTS]
    for r in analysis.redirects:
        if r.writes_file or (r.kind == "write" and r.target is None):
            out.append(f"writes to {r.target or r.text}")
    for c in analysis.commands:
        if not command_is_read_only(c):
            out.append(f"{c.name or c.text!s} is not a known read-only command")
    if not out and not analysis.commands and "test command" not in analysis.opaque:
        out.append("no command")
    return tuple(out)


_RULE_WRAPPERS = frozenset({"time", "nice", "nohup"})
"""Wrappers that keep the command they run from being approved as read-only."""


def command_is_read_only(cmd: SimpleCommand) -> bool:
    """Whether one simple command provably changes nothing."""
    if cmd.unsafe_assignments or any(r.writes_file for r in cmd.redirects):
        return False
    if _RULE_WRAPPERS.intersection(cmd.wrappers):
        return False  # left to a rule
    name = cmd.name
    if name is None:
        return False
    rest = cmd.args[1:]
    if name in LOOSE_COMMANDS and name not in _STRICT_OVERRIDES:
        return True
    rule = RULES.get(name)
    if rule is None or cmd.via_xargs:
        return False
    if not all(a.literal for a in rest):
        return False
    return rule([a.value or "" for a in rest])


# -- a small getopt ---------------------------------------------------------------------


def parse_flags(
    args: Sequence[str], short_values: str = "", long_values: frozenset[str] = frozenset()
) -> tuple[list[str], list[tuple[str, str]], list[str]] | None:
    """Split ``args`` into flags, (flag, value) pairs and operands the way getopt would.

    Bundled short flags (``-nE``) become one flag each; a short flag listed in
    ``short_values`` takes the rest of its word or the next word as its value.
    """
    flags: list[str] = []
    values: list[tuple[str, str]] = []
    operands: list[str] = []
    i = 0
    n = len(args)
    while i < n:
        arg = args[i]
        i += 1
        if arg == "--":
            operands.extend(args[i:])
            break
        if arg.startswith("--"):
            name, eq, value = arg.partition("=")
            flags.append(name)
            if eq:
                values.append((name, value))
            elif name in long_values:
                if i >= n:
                    return None
                values.append((name, args[i]))
                i += 1
            continue
        if arg.startswith("-") and len(arg) > 1:
            for k, ch in enumerate(arg[1:], start=1):
                flags.append("-" + ch)
                if ch in short_values:
                    attached = arg[k + 1 :]
                    if attached:
                        values.append(("-" + ch, attached))
                    elif i < n:
                        values.append(("-" + ch, args[i]))
                        i += 1
                    else:
                        return None
                    break
            continue
        operands.append(arg)
    return flags, values, operands


def _flags_ok(
    args: Sequence[str],
    allowed: frozenset[str],
    short_values: str = "",
    long_values: frozenset[str] = frozenset(),
    max_operands: int | None = None,
) -> bool:
    parsed = parse_flags(args, short_values, long_values)
    if parsed is None:
        return False
    flags, _, operands = parsed
    if not all(f in allowed for f in flags):
        return False
    return max_operands is None or len(operands) <= max_operands


def _deny_flags(
    args: Sequence[str], denied: frozenset[str], short_values: str = "",
    long_values: frozenset[str] = frozenset(),
) -> bool:  # fmt: skip
    parsed = parse_flags(args, short_values, long_values)
    return parsed is not None and not any(f in denied for f in parsed[0])


# -- per-command rules ------------------------------------------------------------------


def _cd(args: Sequence[str]) -> bool:
    return _flags_ok(args, frozenset({"-L", "-P"}), max_operands=1)


def _printf(args: Sequence[str]) -> bool:
    return bool(args) and not args[0].startswith("-v") and args[0] != "--"


def _uniq(args: Sequence[str]) -> bool:
    # ``uniq IN OUT`` writes OUT; Claude Code asks about any operand
    allowed = frozenset({"-c", "--count", "-d", "--repeated", "-u", "--unique", "-i",
                         "--ignore-case", "-f", "--skip-fields", "-s", "--skip-chars", "-w",
                         "--check-chars", "-z", "--zero-terminated", "-D"})  # fmt: skip
    long_values = frozenset({"--skip-fields", "--skip-chars", "--check-chars"})
    return _flags_ok(args, allowed, "fsw", long_values, max_operands=0)


def _base64(args: Sequence[str]) -> bool:
    # BSD base64 writes with ``-o``/``--output``; only decoding and wrapping are read-only
    allowed = frozenset({"-d", "--decode", "-i", "--ignore-garbage", "-w", "--wrap", "-D"})
    return _flags_ok(args, allowed, "w", frozenset({"--wrap"}), max_operands=1)


def _tput(args: Sequence[str]) -> bool:
    # capability queries only: others (``reset``, ``init``, ``clear``) write to the terminal
    return len(args) == 1 and args[0] in ("cols", "lines", "colors", "longname")


def _fd(args: Sequence[str]) -> bool:
    return _deny_flags(
        args,
        frozenset({"-x", "--exec", "-X", "--exec-batch", "-z"}),
        "tedEScjo",
        frozenset({"--type", "--extension", "--max-depth", "--exclude", "--size",
                   "--changed-within", "--changed-before", "--threads", "--owner",
                   "--color", "--base-directory", "--search-path", "--format"}),
    )  # fmt: skip


_IP_OBJECTS = frozenset({"addr", "address", "a", "link", "l", "route", "r", "neigh", "n"})


def _ip(args: Sequence[str]) -> bool:
    rest = [a for a in args if a in ("-4", "-6", "-br", "-brief", "-c", "-color", "-s", "-d")]
    words = [a for a in args if a not in rest]
    if not words or words[0] not in _IP_OBJECTS:
        return False
    return words[1:] in ([], ["show"], ["list"], ["ls"])


def _history(args: Sequence[str]) -> bool:
    # ``-c`` clears, ``-w``/``-a`` write the history file
    return not args or (len(args) == 1 and args[0].isdigit())


def _version_only(args: Sequence[str]) -> bool:
    return list(args) in (["--version"], ["-V"])


def _locale(args: Sequence[str]) -> bool:
    # ``-m``/``--charmaps`` runs a decompressor over the character maps
    return _deny_flags(args, frozenset({"-m", "--charmaps"}))


_JQ_MODULES = re.compile(r"\b(?:import|include|modulemeta|get_search_list)\b")


def _jq(args: Sequence[str]) -> bool:
    # modules are read from ``~/.jq`` and ``-L`` directories, outside the project; a
    # program read from a file (``-f``) may import them unseen
    parsed = parse_flags(args, "fL", frozenset({"--from-file", "--library-path"}))
    if parsed is None:
        return False
    flags, _, operands = parsed
    if any(f in ("-L", "--library-path", "-f", "--from-file") for f in flags):
        return False
    return not any(_JQ_MODULES.search(a) for a in operands)


def _help(args: Sequence[str]) -> bool:
    return True


def _ss(args: Sequence[str]) -> bool:
    # ``-K``/``--kill`` closes the sockets it lists
    return _deny_flags(args, frozenset({"-K", "--kill", "-D", "--diag"}), "FDA")


def _sort(args: Sequence[str]) -> bool:
    return _deny_flags(
        args,
        frozenset({"-o", "--output", "--compress-program"}),
        "kotST",
        frozenset({"--key", "--field-separator", "--buffer-size", "--temporary-directory",
                   "--output", "--compress-program", "--files0-from", "--parallel",
                   "--batch-size", "--sort", "--random-source"}),
    )  # fmt: skip


def _date(args: Sequence[str]) -> bool:
    parsed = parse_flags(args, "dfrI", frozenset({"--date", "--file", "--reference", "--set"}))
    if parsed is None:
        return False
    flags, _, operands = parsed
    if any(f in ("-s", "--set") for f in flags):
        return False
    return all(o.startswith("+") for o in operands)


def _hostname(args: Sequence[str]) -> bool:
    allowed = frozenset({"-s", "--short", "-f", "--fqdn", "--long", "-d", "--domain", "-i",
                         "--ip-address", "-I", "--all-ip-addresses", "-a", "--alias", "-A",
                         "--all-fqdns", "-V", "--version", "-h", "--help"})  # fmt: skip
    return _flags_ok(args, allowed, max_operands=0)


def _tree(args: Sequence[str]) -> bool:
    return _deny_flags(
        args,
        frozenset({"-o", "-R", "--fromfile"}),
        "LPIoH",
        frozenset({"--filelimit", "--timefmt", "--charset", "--sort", "--gitfile"}),
    )


def _file(args: Sequence[str]) -> bool:
    return _deny_flags(args, frozenset({"-C", "--compile"}), "mefFP")


def _test(args: Sequence[str]) -> bool:
    # ``-v`` evaluates array subscripts, which may contain command substitutions
    return not any(a in ("-v", "-R") for a in args)


def _bracket(args: Sequence[str]) -> bool:
    return bool(args) and args[-1] == "]" and _test(args[:-1])


def _rg(args: Sequence[str]) -> bool:
    parsed = parse_flags(args, "ABCEefgjMmrTtd", frozenset(_RG_LONG_VALUES))
    if parsed is None:
        return False
    # ``-z``/``--search-zip`` runs decompression programs on the files
    return not any(
        f in ("--pre", "--pre-glob", "--hostname-bin", "-z", "--search-zip") for f in parsed[0]
    )


_RG_LONG_VALUES = {
    "--after-context", "--before-context", "--context", "--encoding", "--regexp", "--file",
    "--glob", "--iglob", "--max-count", "--max-depth", "--type", "--type-not", "--threads",
    "--replace", "--pre", "--pre-glob", "--hostname-bin", "--sort", "--sortr",
    "--max-filesize", "--path-separator", "--colors", "--color", "--type-add",
    "--field-match-separator", "--field-context-separator", "--context-separator",
    "--engine", "--dfa-size-limit", "--regex-size-limit", "--ignore-file", "--max-columns",
}  # fmt: skip

_FIND_OK = frozenset(
    """-name -iname -path -ipath -wholename -iwholename -regex -iregex -regextype -type
    -xtype -size -mtime -mmin -atime -amin -ctime -cmin -newer -anewer -cnewer -perm -user
    -group -uid -gid -nouser -nogroup -links -inum -samefile -empty -readable -writable
    -executable -maxdepth -mindepth -depth -prune -print -print0 -printf -ls -quit -true
    -false -not -a -and -o -or -follow -xdev -mount -noleaf -daystart -L -P -H -fstype
    -lname -ilname -used -help --help -version --version -nowarn -warn -ignore_readdir_race
    -noignore_readdir_race -D -O""".split()
)
_FIND_NEWER = re.compile(r"-newer[aBcmt][aBcmt]")


_FIND_VALUED = frozenset(
    """-name -iname -path -ipath -wholename -iwholename -regex -iregex -regextype -type
    -xtype -size -mtime -mmin -atime -amin -ctime -cmin -newer -anewer -cnewer -perm -user
    -group -uid -gid -links -inum -samefile -maxdepth -mindepth -printf -fstype -lname
    -ilname -used -D -O""".split()
)


def _find(args: Sequence[str]) -> bool:
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg.startswith("-") and len(arg) > 1:
            if arg not in _FIND_OK and not _FIND_NEWER.fullmatch(arg):
                return False
            if arg in _FIND_VALUED or _FIND_NEWER.fullmatch(arg):
                i += 1  # its value may itself start with "-" (``-mtime -1``)
    return True


def _sed(args: Sequence[str]) -> bool:
    allowed = frozenset({"-n", "--quiet", "--silent", "-e", "--expression", "-E", "-r",
                         "--regexp-extended", "-s", "--separate", "-z", "--null-data", "-u",
                         "--unbuffered", "--posix", "-l", "--line-length", "--debug",
                         "--sandbox"})  # fmt: skip
    parsed = parse_flags(args, "el", frozenset({"--expression", "--line-length"}))
    if parsed is None:
        return False
    flags, values, operands = parsed
    if not all(f in allowed for f in flags):
        return False
    scripts = [v for f, v in values if f in ("-e", "--expression")]
    if not scripts:
        if not operands:
            return False
        scripts = [operands[0]]
    return all(sed_script_is_read_only(s) for s in scripts)


_SED_SIMPLE = frozenset("pdDnNgGhHxlz=F")
_SED_S_FLAGS = frozenset("gpiIm0123456789")


def sed_script_is_read_only(script: str, *, substitutes: bool = False) -> bool:
    """Whether a sed script only prints: no ``w``/``W``/``r``/``e`` commands or flags.

    Accepts a conservative subset (addresses, ``p d n q = s y { } !``); anything else,
    including text commands and labels, is rejected.
    """
    s = script
    n = len(s)
    i = 0

    def skip_ws(k: int) -> int:
        while k < n and s[k] in " \t":
            k += 1
        return k

    def delimited(k: int, delim: str) -> int | None:
        """Index just past the closing ``delim``, honouring backslash escapes."""
        while k < n:
            if s[k] == "\\":
                k += 2
                continue
            if s[k] == "\n":
                return None
            if s[k] == delim:
                return k + 1
            k += 1
        return None

    def address(k: int) -> int | None:
        if k < n and s[k].isdigit():
            while k < n and (s[k].isdigit() or s[k] == "~"):
                k += 1
            return k
        if k < n and s[k] == "$":
            return k + 1
        if k < n and s[k] == "/":
            end = delimited(k + 1, "/")
            if end is None:
                return None
            while end < n and s[end] in "IM":
                end += 1
            return end
        return k

    while True:
        while i < n and s[i] in " \t\n;":
            i += 1
        if i >= n:
            return True
        start = i
        j = address(i)
        if j is None:
            return False
        if j != start and j < n and s[j] == ",":
            k = j + 1
            if k < n and s[k] in "+~":
                k += 1
            j = address(k)
            if j is None or j == k:
                return False
        i = skip_ws(j)
        if i < n and s[i] == "!":
            i = skip_ws(i + 1)
        if i >= n:
            return False
        c = s[i]
        i += 1
        if c == "{":
            continue
        if c in _SED_SIMPLE or c == "}":
            pass
        elif c in "qQ":
            i = skip_ws(i)
            while i < n and s[i].isdigit():
                i += 1
        elif c in "sy" and not substitutes:
            return False
        elif c in "sy":
            if i >= n or s[i] in "\\\n" or s[i].isalnum() or s[i] == " ":
                return False
            delim = s[i]
            end = delimited(i + 1, delim)
            if end is None:
                return False
            end = delimited(end, delim)
            if end is None:
                return False
            i = end
            if c == "s":
                while i < n and s[i] in _SED_S_FLAGS:
                    i += 1
        else:
            return False
        i = skip_ws(i)
        if i < n and s[i] not in ";\n}":
            return False


# git: global options allowed before the subcommand
_GIT_GLOBAL_OK: frozenset[str] = frozenset()
"""None: an option before the subcommand (``-C``, ``-c``, ``--no-pager``...) is left to a rule."""
_GIT_QUERY = frozenset(
    {"status", "log", "diff", "show", "blame", "rev-parse", "ls-files", "cat-file", "describe",
     "shortlog", "grep", "merge-base", "rev-list", "for-each-ref"}
)  # fmt: skip
"""``ls-remote`` is left out on purpose: it connects to the remote (and may run ssh)."""
# flags that write files, run programs or open pagers, in any query subcommand
_GIT_DENIED = frozenset(
    {"--output", "-O", "--open-files-in-pager", "--exec", "--upload-pack", "--receive-pack",
     "--ext-diff", "--config", "--lost-found", "--write", "-w", "--raw"}
)  # fmt: skip
_GIT_LONG_VALUES = frozenset(
    {"--format", "--pretty", "--author", "--committer", "--grep", "--since", "--until",
     "--after", "--before", "--max-count", "--skip", "--date", "--abbrev", "--upload-pack",
     "--output", "--contents", "--sort", "--contains", "--points-at", "--merged",
     "--no-merged", "--exclude", "--remote"}
)  # fmt: skip


def _git(args: Sequence[str]) -> bool:
    i = 0
    while i < len(args) and args[i].startswith("-"):
        if args[i] not in _GIT_GLOBAL_OK:
            return False
        i += 1
    if i >= len(args):
        return True  # ``git --version`` or plain ``git``
    sub, rest = args[i], args[i + 1 :]
    if sub in _GIT_QUERY:
        # the getopt is conservative: a denied short flag bundled with others still shows
        parsed = parse_flags(rest, "nLSGCM", _GIT_LONG_VALUES)
        if parsed is None:
            return False
        if sub == "grep" and any(f.startswith("-O") for f in rest):
            return False
        return not any(f in _GIT_DENIED for f in parsed[0])
    checker = _GIT_SUBCOMMANDS.get(sub)
    return checker is not None and checker(rest)


def _git_branch(args: Sequence[str]) -> bool:
    ok = frozenset({"-a", "--all", "-r", "--remotes", "-l", "--list", "-v", "-vv",
                    "--verbose", "--show-current", "--contains", "--no-contains", "--merged",
                    "--no-merged", "--points-at", "--sort", "--format", "--color",
                    "--no-color", "--column", "--no-column", "-i", "--ignore-case", "--abbrev",
                    "--no-abbrev", "-q", "--quiet"})  # fmt: skip
    return _git_listing(args, ok)


def _git_tag(args: Sequence[str]) -> bool:
    ok = frozenset({"-l", "--list", "--sort", "--contains", "--no-contains", "--points-at",
                    "--merged", "--no-merged", "--format", "--column", "--no-column", "-i",
                    "--ignore-case", "--color"})  # fmt: skip
    return _git_listing([a for a in args if not re.fullmatch(r"-n\d*", a)], ok)


def _git_listing(args: Sequence[str], ok: frozenset[str]) -> bool:
    """Branch or tag listing: flags in ``ok``; names only with ``--list`` (else they create)."""
    parsed = parse_flags(args, "", frozenset({"--sort", "--format", "--points-at"}))
    if parsed is None:
        return False
    flags, _, operands = parsed
    if not all(f in ok for f in flags):
        return False
    return not operands or "-l" in flags or "--list" in flags


def _git_remote(args: Sequence[str]) -> bool:
    return all(a in ("-v", "--verbose") for a in args)


def _git_stash(args: Sequence[str]) -> bool:
    if not args:
        return False  # plain ``git stash`` stashes
    if args[0] == "list":
        return _git(["log", *args[1:]])
    if args[0] == "show":
        return _git(["show", *args[1:]])
    return False


def _git_config(args: Sequence[str]) -> bool:
    if args and args[0] in ("get", "list"):
        args = ["--list" if args[0] == "list" else "--get", *args[1:]]
    readers = {"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color",
               "--get-colorbool"}  # fmt: skip
    scopes = {"--global", "--system", "--local", "--worktree", "--show-origin", "--show-scope",
              "--null", "-z", "--name-only", "--includes", "--no-includes", "--type", "--bool",
              "--int", "--path", "--default", "-f", "--file", "--blob"}  # fmt: skip
    parsed = parse_flags(args, "f", frozenset({"--type", "--default", "--file", "--blob"}))
    if parsed is None:
        return False
    flags, _, operands = parsed
    if not any(f in readers for f in flags):
        return False
    return all(f in readers or f in scopes for f in flags) and len(operands) <= 2


def _git_worktree(args: Sequence[str]) -> bool:
    return (
        bool(args)
        and args[0] == "list"
        and _flags_ok(args[1:], frozenset({"--porcelain", "-v", "--verbose", "-z"}), max_operands=0)
    )


def _git_reflog(args: Sequence[str]) -> bool:
    if args and args[0] in ("expire", "delete", "drop"):
        return False
    if args and args[0] in ("show", "list", "exists"):
        args = args[1:]
    return _git(["log", *args])


_GIT_SUBCOMMANDS: dict[str, Rule] = {
    "branch": _git_branch,
    "tag": _git_tag,
    "remote": _git_remote,
    "stash": _git_stash,
    "config": _git_config,
    "worktree": _git_worktree,
    "reflog": _git_reflog,
}


RULES: dict[str, Rule] = {
    "cd": _cd,
    "printf": _printf,
    "uniq": _uniq,
    "base64": _base64,
    "tput": _tput,
    "fd": _fd,
    "ip": _ip,
    "history": _history,
    "node": _version_only,
    "python3": _version_only,
    "python": _version_only,
    "locale": _locale,
    "jq": _jq,
    "help": _help,
    "ss": _ss,
    "sort": _sort,
    "date": _date,
    "hostname": _hostname,
    "tree": _tree,
    "file": _file,
    "test": _test,
    "[": _bracket,
    "rg": _rg,
    "find": _find,
    "sed": _sed,
    "git": _git,
}

READ_ONLY_PROGRAMS = LOOSE_COMMANDS | frozenset(RULES)
"""Every program some invocation of which is read-only."""

_STRICT_OVERRIDES = frozenset({"file"})
"""Loose-looking programs that still need their rule (``file -C`` writes)."""
