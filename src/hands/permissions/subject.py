"""What a call touches, as the rules see it: the tool's declared subject, resolved.

A path becomes absolute, with its symlink target; a shell command is analysed into its
sub-commands, the files they read and write and the files its redirects write, each
resolved against every directory the command may ``cd`` into.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias

from hands.permissions.paths import link_and_target

if TYPE_CHECKING:
    from pydantic import BaseModel

    from hands.core.context import ToolContext
    from hands.core.tool import Tool
    from hands.permissions.reads import Reads
    from hands.shell.analysis import Analysis

CallKind: TypeAlias = Literal["bash", "read", "edit", "domain", "name", "other"]

GLOB_CHARS = frozenset("*?[")
MAX_GLOB_MATCHES = 200


@dataclass(frozen=True, kw_only=True, slots=True)
class CallSubject:
    """What the rules are matched against for one call."""

    kind: CallKind
    paths: tuple[str, ...] = ()
    """A path tool's path and, when a symlink, its target."""
    command: str = ""
    analysis: Analysis | None = None
    deny_forms: tuple[str, ...] = ()
    read_paths: tuple[str, ...] = ()
    write_paths: tuple[str, ...] = ()
    """Operands of file-writing commands, each with its symlink target."""
    redirect_paths: tuple[str, ...] = ()
    unclear_redirects: tuple[str, ...] = ()
    shell_reads: tuple[tuple[str, str], ...] = ()
    """(program, path) for every path a shell command reads, with symlink targets."""
    unresolved_reads: tuple[tuple[str, str], ...] = ()
    """(program, word) for read operands whose value the analysis cannot know."""
    following_roots: tuple[tuple[str, str], ...] = ()
    """(program, root) of recursive walks that follow symlinks."""
    read_trees: tuple[tuple[str, str], ...] = ()
    """(program, root) of commands that read every file below a directory."""
    host: str | None = None
    value: str | None = None
    args: str = ""
    """A name's arguments (a skill's ``args``)."""
    display: str = ""


NO_SUBJECT: Final = CallSubject(kind="other")


@lru_cache(maxsize=1024)
def norm(path: Path) -> str:
    """``path`` as a normalised string (cached: the same few directories come back)."""
    return os.path.normpath(path)


def describe(
    tool: Tool[Any, Any], input: BaseModel, ctx: ToolContext, *, home: Path
) -> CallSubject:
    """What one call touches, from the subject its tool declares."""
    subject = tool.permission_subject(input, ctx)
    if subject is None:
        return NO_SUBJECT
    kind = subject.kind
    if kind == "read" or kind == "write":
        raw = subject.value.strip()
        if not raw:
            return NO_SUBJECT
        path = absolute(raw, ctx, home=home)
        return CallSubject(
            kind="read" if kind == "read" else "edit", paths=link_and_target(path), display=path
        )
    if kind == "command":
        command = subject.value
        if subject.declared.shell:
            return _describe_shell(command, ctx, home=home)
        short = command if len(command) <= 80 else command[:79] + "…"
        return CallSubject(kind="other", command=command, deny_forms=(command,), display=short)
    if kind == "domain":
        host = _host(subject.value)
        return CallSubject(kind="domain", host=host, display=f"domain:{host}" if host else "")
    value = subject.value
    shown = f"{value} {subject.args}" if subject.args else value
    return CallSubject(kind="name", value=value.lstrip("/"), args=subject.args, display=shown)


def absolute(raw: str, ctx: ToolContext, *, home: Path) -> str:
    """``raw`` made absolute against the cwd, ``~`` expanded, normalised."""
    if raw == "~" or raw.startswith("~/"):
        raw = norm(home) + raw[1:]
    elif raw.startswith("~"):
        raw = os.path.expanduser(raw)  # noqa: PTH111 - ``~user``
    if not raw.startswith("/"):
        raw = f"{norm(ctx.cwd)}/{raw}"
    return os.path.normpath(raw)


def _describe_shell(command: str, ctx: ToolContext, *, home: Path) -> CallSubject:
    from hands.permissions.bash import expand_path, file_operands, line_forms
    from hands.shell.analysis import analyze

    short = command if len(command) <= 80 else command[:79] + "…"
    analysis = analyze(command)
    forms = tuple(dict.fromkeys([command.strip(), *line_forms(analysis)]))
    bases: list[Path] = [ctx.cwd]
    for cmd in analysis.commands:
        if cmd.name == "cd" and len(cmd.args) == 2 and cmd.args[1].value is not None:
            bases.append(Path(expand_path(cmd.args[1].value, cwd=bases[-1], home=home)))
    reads: list[str] = []
    writes: list[str] = []
    for cmd in analysis.commands:
        r, w = file_operands(cmd)
        reads.extend(_resolve_all(r, bases, home))
        writes.extend(_resolve_all(w, bases, home))
    found = _shell_reads(analysis, bases, home)
    reads.extend(_resolve_all(found.files, bases, home))
    redirects: list[str] = []
    unclear: list[str] = []
    for red in analysis.redirects:
        if red.kind != "write":
            continue
        if red.target is None:
            unclear.append(red.text)
        elif red.writes_file:
            if red.target.startswith("~") or any(c in red.target for c in GLOB_CHARS):
                unclear.append(red.text)
            redirects.extend(_resolve_all([red.target], bases, home))
    return CallSubject(
        kind="bash",
        command=command,
        analysis=analysis,
        deny_forms=forms,
        read_paths=tuple(dict.fromkeys(reads)),
        write_paths=tuple(dict.fromkeys(writes)),
        redirect_paths=tuple(dict.fromkeys(redirects)),
        unclear_redirects=tuple(unclear),
        shell_reads=_with_targets(found.paths),
        unresolved_reads=tuple(dict.fromkeys(found.unresolved)),
        following_roots=tuple(dict.fromkeys(found.following)),
        read_trees=tuple(dict.fromkeys(found.trees)),
        display=short,
    )


def _shell_reads(analysis: Analysis, bases: list[Path], home: Path) -> Reads:
    """What every command reads, against every directory it may run in."""
    from hands.permissions.bash import expand_path
    from hands.permissions.reads import Reads, command_reads

    out = Reads()
    home_text = norm(home)
    for base in dict.fromkeys(bases):
        cwd = norm(base)

        def expand(raw: str, cwd: Path = base) -> str:
            return expand_path(raw, cwd=cwd, home=home)

        for cmd in analysis.commands:
            command_reads(cmd, expand=expand, home=home_text, cwd=cwd, out=out)
    return out


def _with_targets(paths: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for program, path in dict.fromkeys(paths):
        out.extend((program, p) for p in link_and_target(path))
    return tuple(dict.fromkeys(out))


def _host(url: str) -> str | None:
    from urllib.parse import urlsplit

    from hands.net.hosts import ascii_host

    try:
        host = urlsplit(url.strip()).hostname
    except ValueError:
        return None
    return ascii_host(host) if host else None


def _resolve_all(raws: Iterable[str], bases: list[Path], home: Path) -> list[str]:
    """Each path against every directory the command may be in, globs expanded, with targets."""
    from hands.permissions.bash import expand_path

    out: list[str] = []
    for raw in raws:
        if not raw or raw == "-":
            continue
        for base in dict.fromkeys(bases):
            path = expand_path(raw, cwd=base, home=home)
            candidates = [path]
            if any(c in raw for c in GLOB_CHARS):
                candidates.extend(_expand_glob(path))
            for c in candidates:
                out.extend(link_and_target(c))
    return out


def _expand_glob(pattern: str) -> list[str]:
    import glob

    found: list[str] = []
    for match in glob.iglob(pattern):  # noqa: PTH207 - a shell glob over absolute paths
        found.append(match)
        if len(found) >= MAX_GLOB_MATCHES:
            break
    return found
