"""Files a shell command changed in a git work tree, with what they were before it.

Before a command that may write runs, ``git status`` lists the files git sees as
changed or new (tracked and untracked, not ignored) and the content of each is kept in
memory (unless the turn's checkpoint already has it); a clean tracked file needs
nothing kept, git's index has its content. After the command, a second ``git status``
and the kept files' sizes and times say which files the command changed: a file clean
before is taken from the index, a file new since did not exist, a file changed before
from what was kept. Each goes into the turn's checkpoint as an edit tool's write would.

Outside a git work tree, ignored files, and files changed by a command still running
in the background after the call returns are not seen: knowing them would need a
snapshot of the whole tree around every command. git runs as hands runs it for itself
(:mod:`hands.config.safe_git`): in a folder that is not trusted no program the
repository names (``core.fsmonitor``, hooks, filters) runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hands.config.safe_git import git_argv, run_git

MAX_KEPT_BYTES = 50_000_000
"""At most this much of changed files' content is kept in memory around one command."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Before:
    """The work tree as git saw it before one command."""

    root: Path
    git: tuple[str, ...]
    """``git`` with the settings it runs with here (:func:`hands.config.safe_git.git_argv`)."""
    changed: dict[str, str]
    """Path (relative to ``root``) → porcelain status, of every file not clean."""
    kept: dict[str, bytes | None] = field(default_factory=lambda: dict[str, bytes | None]())
    """Content of the changed files (None: too large or unreadable to keep)."""
    stats: dict[str, tuple[int, int]] = field(default_factory=lambda: dict[str, tuple[int, int]]())
    """Modification time (ns) and size of the changed files."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Changed:
    """A file the command changed and what it was before."""

    path: Path
    existed: bool
    content: bytes | None
    """None when it existed but could not be kept."""


def _git(
    root: Path, git: Sequence[str], *args: str, trusted: bool, stdin: bytes | None = None
) -> bytes | None:
    return run_git([*git, *args], cwd=root, trusted=trusted, stdin=stdin)


def work_tree(cwd: Path, *, trusted: bool) -> Path | None:
    """The top of the git work tree ``cwd`` is in, or None.

    ``rev-parse --show-toplevel`` reads no index and runs none of the programs a
    repository's configuration names, so it needs no switched-off settings.
    """
    out = _git(cwd, ["git"], "rev-parse", "--show-toplevel", trusted=trusted)
    if not out:
        return None
    return Path(out.decode("utf-8", errors="replace").strip())


def _status(root: Path, git: Sequence[str], *, trusted: bool) -> dict[str, str] | None:
    out = _git(
        root,
        git,
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=all",
        "--no-renames",
        "--ignore-submodules=all",
        trusted=trusted,
    )
    if out is None:
        return None
    found: dict[str, str] = {}
    for entry in out.decode("utf-8", errors="surrogateescape").split("\0"):
        if len(entry) > 3:
            found[entry[3:]] = entry[:2]
    return found


def _stat(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size)


def before(
    root: Path, *, trusted: bool, known: Iterable[str] = (), max_file_bytes: int
) -> Before | None:
    """The state before a command: None when git cannot tell it.

    ``known``: absolute paths whose earlier content is kept already (not read again).
    """
    git = tuple(git_argv(root, trusted=trusted))
    changed = _status(root, git, trusted=trusted)
    if changed is None:
        return None
    skip = set(known)
    kept: dict[str, bytes | None] = {}
    stats: dict[str, tuple[int, int]] = {}
    budget = MAX_KEPT_BYTES
    for name in changed:
        path = root / name
        stat = _stat(path)
        if stat is None:
            continue  # deleted already: nothing on disk to keep
        stats[name] = stat
        if str(path) in skip:
            continue
        if stat[1] > min(max_file_bytes, budget):
            kept[name] = None
            continue
        try:
            kept[name] = path.read_bytes()
        except OSError:
            kept[name] = None
            continue
        budget -= stat[1]
    return Before(root=root, git=git, changed=changed, kept=kept, stats=stats)


def after(state: Before, *, trusted: bool) -> list[Changed]:
    """The files the command changed since ``state``, each with what it was before."""
    now = _status(state.root, state.git, trusted=trusted)
    if now is None:
        return []
    out: list[Changed] = []
    from_index: list[str] = []
    for name, code in now.items():
        if name not in state.changed:
            if code == "??":
                out.append(Changed(path=state.root / name, existed=False, content=None))
            else:
                from_index.append(name)  # clean before: the index has what it was
        elif _stat(state.root / name) != state.stats.get(name):
            out.extend(_kept(state, name))
    for name in state.changed:
        if name not in now:  # changed before, clean or gone now
            out.extend(_kept(state, name))
    out.extend(_from_index(state, from_index, trusted=trusted))
    return out


def _kept(state: Before, name: str) -> list[Changed]:
    path = state.root / name
    if name not in state.stats:
        return []  # it did not exist before the command either
    if name not in state.kept:
        return []  # the checkpoint has its earlier content already
    return [Changed(path=path, existed=True, content=state.kept[name])]


def _from_index(state: Before, names: list[str], *, trusted: bool) -> list[Changed]:
    """The index's content of ``names`` (one ``git cat-file --batch`` for all)."""
    if not names:
        return []
    root = state.root
    specs = "".join(f":{name}\n" for name in names).encode("utf-8", errors="surrogateescape")
    out = _git(root, state.git, "cat-file", "--batch", trusted=trusted, stdin=specs)
    found: list[Changed] = []
    at = 0
    for name in names:
        path = root / name
        if out is None:
            found.append(Changed(path=path, existed=True, content=None))
            continue
        end = out.find(b"\n", at)
        header = out[at:end].split() if end >= 0 else []
        if len(header) != 3:  # "<spec> missing": not in the index
            at = end + 1
            continue
        size = int(header[2])
        found.append(Changed(path=path, existed=True, content=out[end + 1 : end + 1 + size]))
        at = end + 1 + size + 1
    return found
